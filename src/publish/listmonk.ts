import type { Env } from '../config.js';
import { AppError } from '../errors.js';
import { basicAuth, sendJson, upstreamMessage, type OutboundResult } from './http.js';

/**
 * listmonk over its REST API (listmonk docs, "API / Subscribers" and "API / Campaigns"): basic auth
 * with an API user (`LISTMONK_USER:LISTMONK_TOKEN`), JSON bodies, answers wrapped in `{"data": ...}`
 * and failures as `{"message": ...}` with a 4xx/5xx status. A failure throws AppError UPSTREAM (502).
 */

export interface ListmonkConfig {
  url: string;
  user: string;
  token: string;
  listId: number;
}

export type Configured<C> = { configured: true; config: C } | { configured: false; missing: string[] };

/** Whether listmonk is configured: all four variables, or the names of those missing. */
export function listmonkConfig(env: Env): Configured<ListmonkConfig> {
  const missing = (['LISTMONK_URL', 'LISTMONK_USER', 'LISTMONK_TOKEN', 'LISTMONK_LIST_ID'] as const).filter((k) => env[k] === undefined);
  if (missing.length > 0 || !env.LISTMONK_URL || !env.LISTMONK_USER || !env.LISTMONK_TOKEN || env.LISTMONK_LIST_ID === undefined) return { configured: false, missing };
  return { configured: true, config: { url: env.LISTMONK_URL, user: env.LISTMONK_USER, token: env.LISTMONK_TOKEN, listId: env.LISTMONK_LIST_ID } };
}

function endpoint(cfg: ListmonkConfig, path: string): string {
  const base = cfg.url.endsWith('/') ? cfg.url : `${cfg.url}/`;
  return new URL(path, base).toString();
}

function call(cfg: ListmonkConfig, method: 'POST' | 'PUT', path: string, json: unknown): Promise<OutboundResult> {
  return sendJson({ method, url: endpoint(cfg, path), headers: { authorization: basicAuth(cfg.user, cfg.token) }, json });
}

function failure(what: string, result: OutboundResult): AppError {
  if (!result.ok) return new AppError('UPSTREAM', `listmonk ${what} failed: ${result.error}`);
  const said = upstreamMessage(result.response.body);
  return new AppError('UPSTREAM', `listmonk ${what} failed: HTTP ${result.response.status}${said ? ` (${said})` : ''}`);
}

function dataId(body: unknown): number | null {
  const id = (body as { data?: { id?: unknown } } | null)?.data?.id;
  return typeof id === 'number' && Number.isInteger(id) ? id : null;
}

/**
 * POST /api/subscribers with `preconfirm_subscriptions: false`, so a double opt-in list sends its
 * confirmation email and nobody is subscribed on our word alone. listmonk answers 409 for an
 * address it already has: that is `exists`, which callers answer exactly like `created`.
 */
export async function createSubscriber(cfg: ListmonkConfig, email: string): Promise<{ status: 'created' | 'exists'; id: number | null }> {
  const name = email.split('@')[0] ?? email;
  const result = await call(cfg, 'POST', 'api/subscribers', { email, name, status: 'enabled', lists: [cfg.listId], preconfirm_subscriptions: false });
  if (result.ok && result.response.status === 409) return { status: 'exists', id: null };
  if (!result.ok || result.response.status < 200 || result.response.status >= 300) throw failure('subscribe', result);
  return { status: 'created', id: dataId(result.response.body) };
}

export interface NewCampaign {
  name: string;
  subject: string;
  /** HTML body (`content_type: html`). */
  body: string;
  /** The plain-text alternative. */
  altbody: string;
}

/** POST /api/campaigns: a `regular` campaign with an HTML body and its text alternative, to the configured list; returns its id. */
export async function createCampaign(cfg: ListmonkConfig, c: NewCampaign): Promise<{ id: number }> {
  const result = await call(cfg, 'POST', 'api/campaigns', {
    name: c.name,
    subject: c.subject,
    lists: [cfg.listId],
    type: 'regular',
    content_type: 'html',
    body: c.body,
    altbody: c.altbody,
  });
  if (!result.ok || result.response.status < 200 || result.response.status >= 300) throw failure('campaign create', result);
  const id = dataId(result.response.body);
  if (id === null) throw new AppError('UPSTREAM', 'listmonk campaign create answered without data.id');
  return { id };
}

/** PUT /api/campaigns/{id}/status `{status: "running"}`: starts sending (only a draft or paused campaign can start). */
export async function startCampaign(cfg: ListmonkConfig, id: number): Promise<{ status: string | null }> {
  const result = await call(cfg, 'PUT', `api/campaigns/${id}/status`, { status: 'running' });
  if (!result.ok || result.response.status < 200 || result.response.status >= 300) throw failure(`campaign ${id} start`, result);
  const status = (result.response.body as { data?: { status?: unknown } } | null)?.data?.status;
  return { status: typeof status === 'string' ? status : null };
}
