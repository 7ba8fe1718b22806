import type { Env } from '../../config.js';
import { createCampaign, listmonkConfig, startCampaign } from '../../publish/listmonk.js';
import type { Store } from '../../store/db.js';
import { claimLog, readLog, writeLog } from '../../store/repo/content-log.js';
import { readContentFacts } from '../../store/repo/content-facts.js';
import { buildDailyReport, EmptyReportError, type DailyReport } from '../../content/report.js';
import { EditorialError } from '../../content/rules.js';

/**
 * Sending the daily report (spec behaviour rule 6): one listmonk campaign per report date, created
 * with the HTML body and the text alternative, then started. Never scheduled: only
 * `propgrade newsletter send` and POST /api/internal/newsletter/send call this.
 *
 * - Not configured: nothing is built, nothing is called.
 * - Empty report, or one the editorial rules refuse: `refused`, no campaign.
 * - Already sent for the date: `already_sent` with the campaign id; a campaign created but not
 *   started (the start call failed) is started on the next send instead of created again.
 * - listmonk failing: AppError UPSTREAM (502), recorded in content_log.
 */

export const CAMPAIGN_KIND = 'listmonk_campaign';
const STALE_CLAIM_MS = 5 * 60_000;

export type SendResult =
  | { status: 'sent'; date: string; campaignId: number; listId: number; subject: string; started: string | null }
  | { status: 'already_sent'; date: string; campaignId: number | null; since: string }
  | { status: 'not_configured'; date: string; missing: string[]; reason: string }
  | { status: 'refused'; date: string; reason: 'empty' | 'editorial'; message: string };

/** Builds the report for the date (throws EmptyReportError or EditorialError). */
export async function buildReportFor(store: Store, options: { now: Date; date?: string | undefined; clockFor?: ((sport: string) => Date) | undefined }): Promise<DailyReport> {
  return buildDailyReport(await readContentFacts(store, options));
}

export async function sendDailyReport(store: Store, config: Env, options: { now: Date; date: string; clockFor?: ((sport: string) => Date) | undefined }): Promise<SendResult> {
  const { now, date } = options;
  const lm = listmonkConfig(config);
  if (!lm.configured) {
    return { status: 'not_configured', date, missing: lm.missing, reason: `listmonk is not configured (${lm.missing.join(', ')} unset); nothing was built or sent` };
  }
  const existing = await readLog(store, CAMPAIGN_KIND, date);
  if (existing?.status === 'running') return { status: 'already_sent', date, campaignId: Number(existing.externalId), since: existing.updatedAt };
  if (existing?.status === 'created' && existing.externalId !== null) {
    // Created earlier, start failed: start that campaign rather than sending a second one.
    const id = Number(existing.externalId);
    const started = await startOrRecord(store, date, id, lm.config, now, existing.detail ?? {});
    return { status: 'sent', date, campaignId: id, listId: lm.config.listId, subject: String(existing.detail?.['subject'] ?? ''), started };
  }

  let report: DailyReport;
  try {
    report = await buildReportFor(store, options);
  } catch (error) {
    if (error instanceof EmptyReportError) return { status: 'refused', date, reason: 'empty', message: error.message };
    if (error instanceof EditorialError) return { status: 'refused', date, reason: 'editorial', message: error.message };
    throw error;
  }

  const claim = await claimLog(store, CAMPAIGN_KIND, date, { status: 'creating', inProgress: 'creating', now, staleMs: STALE_CLAIM_MS, claimable: (row) => row.status === 'failed' });
  if (!claim.claimed) return { status: 'already_sent', date, campaignId: claim.row.externalId === null ? null : Number(claim.row.externalId), since: claim.row.updatedAt };
  let id: number;
  try {
    ({ id } = await createCampaign(lm.config, { name: `propgrade daily ${date}`, subject: report.subject, body: report.html, altbody: report.text }));
  } catch (error) {
    await writeLog(store, CAMPAIGN_KIND, date, { status: 'failed', detail: { attempts: claim.attempt, last_error: error instanceof Error ? error.message : String(error) } }, now);
    throw error;
  }
  const detail = { attempts: claim.attempt, subject: report.subject, list_id: lm.config.listId };
  await writeLog(store, CAMPAIGN_KIND, date, { status: 'created', externalId: String(id), detail }, now);
  const started = await startOrRecord(store, date, id, lm.config, now, detail);
  return { status: 'sent', date, campaignId: id, listId: lm.config.listId, subject: report.subject, started };
}

async function startOrRecord(store: Store, date: string, id: number, cfg: Parameters<typeof startCampaign>[0], now: Date, detail: Record<string, unknown>): Promise<string | null> {
  try {
    const { status } = await startCampaign(cfg, id);
    await writeLog(store, CAMPAIGN_KIND, date, { status: 'running', externalId: String(id), detail: { ...detail, listmonk_status: status } }, now);
    return status;
  } catch (error) {
    await writeLog(store, CAMPAIGN_KIND, date, { status: 'created', externalId: String(id), detail: { ...detail, last_error: error instanceof Error ? error.message : String(error) } }, now);
    throw error;
  }
}
