import type { Env } from '../../config.js';
import { easternDate } from '../../domain/time.js';
import { postWebhook } from '../../publish/webhook.js';
import type { Store } from '../../store/db.js';
import { dayText, listJoin } from '../../content/format.js';
import { claimLog, writeLog } from '../../store/repo/content-log.js';
import { buildDeskPack, type DeskPack } from '../../content/pack.js';
import { readContentFacts } from '../../store/repo/content-facts.js';
import { assertEditorial } from '../../content/rules.js';

/**
 * The desk-pack-ready notification (spec Events 3): after a snapshot run, one POST per ET date to
 * DESK_NOTIFY_WEBHOOK saying the day's pack is ready and what it holds.
 *
 * - At most once per ET date: the send is claimed in content_log (`desk_pack_ready`, key = ET date)
 *   inside an IMMEDIATE transaction before the POST, so two runs never both send.
 * - A failed POST is recorded as `failed` (with the attempt count and the error) and is retried by
 *   the next snapshot run of the same ET date; once `sent`, later runs that day send nothing.
 *   A run that crashed mid-send leaves `sending`, which is retaken after two minutes.
 * - A pack with no ready template is not announced and nothing is recorded, so a later run that day
 *   (after a snapshot that graded something) can announce it.
 * - Never throws: a failing webhook never fails the snapshot run; the status says what happened.
 */

export type NotifyStatus = 'sent' | 'already_sent' | 'not_configured' | 'failed' | 'nothing_ready';

export const NOTIFY_KIND = 'desk_pack_ready';
const STALE_CLAIM_MS = 2 * 60_000;

/** The notice's text: Slack and Discord both render it as is. */
export function deskReadyMessage(pack: DeskPack): string {
  const ready = pack.templates.filter((t) => t.status === 'ready').map((t) => t.name);
  const tweets = pack.templates.reduce((n, t) => n + (t.status === 'ready' ? t.thread.length : 0), 0);
  const omitted = pack.omitted.length ? ` Omitted: ${listJoin(pack.omitted.map((o) => o.name))} (reasons on the desk).` : '';
  return `propgrade desk pack ready for ${dayText(pack.date)} (ET): ${ready.length} of ${pack.templates.length} templates, ${tweets} posts pre-segmented. Ready: ${listJoin(ready)}.${omitted} Open /desk or run \`propgrade desk --date ${pack.date}\`.`;
}

export async function notifyDeskPackReady(
  store: Store,
  config: Env,
  now: Date,
  log: { info(m: string): void; warn(m: string): void },
): Promise<{ status: NotifyStatus; detail: string }> {
  const url = config.DESK_NOTIFY_WEBHOOK;
  if (!url) return { status: 'not_configured', detail: 'DESK_NOTIFY_WEBHOOK is not set; no desk-pack-ready notice sent' };
  const date = easternDate(now);
  let claimed = false;
  try {
    const pack = buildDeskPack(await readContentFacts(store, { now, date }));
    if (pack.ready === 0) return { status: 'nothing_ready', detail: `the ${date} desk pack has no ready template (${pack.omitted.map((o) => o.name).join(', ')} omitted); no notice sent` };
    const message = deskReadyMessage(pack);
    assertEditorial(`the desk-pack-ready notice for ${date}`, { message });
    const claim = await claimLog(store, NOTIFY_KIND, date, { status: 'sending', inProgress: 'sending', now, staleMs: STALE_CLAIM_MS, claimable: (row) => row.status === 'failed' });
    if (!claim.claimed) {
      const detail = claim.row.status === 'sent' ? `already sent for ${date} at ${claim.row.updatedAt}` : `another run is sending the ${date} notice (claimed at ${claim.row.updatedAt})`;
      return { status: 'already_sent', detail };
    }
    claimed = true;
    const result = await postWebhook(url, message);
    if (result.ok) {
      await writeLog(store, NOTIFY_KIND, date, { status: 'sent', detail: { attempts: claim.attempt, http_status: result.status, message } }, now);
      log.info(`desk pack ready notice sent for ${date} (attempt ${claim.attempt})`);
      return { status: 'sent', detail: `desk-pack-ready notice sent for ${date}: ${pack.ready} of ${pack.templates.length} templates ready` };
    }
    await writeLog(store, NOTIFY_KIND, date, { status: 'failed', detail: { attempts: claim.attempt, last_error: result.error, message } }, now);
    log.warn(`desk pack ready notice for ${date} failed (attempt ${claim.attempt}): ${result.error}; the next snapshot run today retries it`);
    return { status: 'failed', detail: `webhook failed (${result.error}); attempt ${claim.attempt}, retried by the next snapshot run on ${date}` };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (claimed) {
      try {
        await writeLog(store, NOTIFY_KIND, date, { status: 'failed', detail: { last_error: reason } }, now);
      } catch {
        // The store itself failed; the stale claim is retaken after two minutes.
      }
    }
    log.warn(`desk pack ready notice for ${date} not sent: ${reason}`);
    return { status: 'failed', detail: reason };
  }
}
