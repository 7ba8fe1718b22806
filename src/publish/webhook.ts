import { sendJson } from './http.js';

/**
 * A chat webhook post. The body carries the same message as `text` (Slack incoming webhooks) and
 * `content` (Discord webhooks), so one URL of either kind works. Never throws.
 */
export async function postWebhook(url: string, message: string, timeoutMs = 5_000): Promise<{ ok: true; status: number } | { ok: false; error: string }> {
  const result = await sendJson({ method: 'POST', url, json: { text: message, content: message }, timeoutMs });
  if (!result.ok) return { ok: false, error: result.error };
  const { status } = result.response;
  if (status < 200 || status >= 300) return { ok: false, error: `HTTP ${status}` };
  return { ok: true, status };
}
