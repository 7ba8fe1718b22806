import { and, eq } from 'drizzle-orm';
import type { Store } from '../db.js';
import { contentLog } from '../schema.js';

/**
 * content_log: one row per outbound thing per (kind, key), for idempotency and audit
 * (docs/content.md "What is recorded"). Kinds used by the content desk:
 *
 * - `desk_pack_ready`, key ET date: the notification (status sending | sent | failed).
 * - `listmonk_campaign`, key report date: the campaign (status creating | created | running | failed).
 * - `ghost_draft`, key `<date>:<slate_preview|settle>`: the Ghost post (status draft; external id = post id).
 */

export type ContentLogRow = typeof contentLog.$inferSelect;

export function readLog(store: Store, kind: string, key: string): ContentLogRow | null {
  return store.db.select().from(contentLog).where(and(eq(contentLog.kind, kind), eq(contentLog.key, key))).get() ?? null;
}

export interface LogPatch {
  status: string;
  externalId?: string | null;
  detail?: Record<string, unknown> | null;
}

/** Inserts or updates the (kind, key) row; `created_at` is kept from the first write. */
export function writeLog(store: Store, kind: string, key: string, patch: LogPatch, now: Date): ContentLogRow {
  const at = now.toISOString();
  const set = {
    status: patch.status,
    updatedAt: at,
    ...(patch.externalId !== undefined ? { externalId: patch.externalId } : {}),
    ...(patch.detail !== undefined ? { detail: patch.detail } : {}),
  };
  return store.db
    .insert(contentLog)
    .values({ kind, key, externalId: patch.externalId ?? null, status: patch.status, detail: patch.detail ?? null, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({ target: [contentLog.kind, contentLog.key], set })
    .returning()
    .get();
}

/**
 * Takes the (kind, key) row for this process when `claimable(row)` says so (the row is absent,
 * failed, or an in-progress claim older than `staleMs` left by a crashed run), setting `status`.
 * Runs in an IMMEDIATE transaction, so two processes never both claim it.
 */
export function claimLog(
  store: Store,
  kind: string,
  key: string,
  options: { status: string; now: Date; staleMs: number; inProgress: string; claimable: (row: ContentLogRow) => boolean },
): { claimed: true; previous: ContentLogRow | null; attempt: number } | { claimed: false; row: ContentLogRow } {
  const take = store.sqlite.transaction(() => {
    const row = readLog(store, kind, key);
    const stale = row !== null && row.status === options.inProgress && options.now.getTime() - new Date(row.updatedAt).getTime() >= options.staleMs;
    if (row !== null && !stale && !options.claimable(row)) return { claimed: false as const, row };
    const attempt = (typeof row?.detail?.['attempts'] === 'number' ? (row.detail['attempts'] as number) : 0) + 1;
    writeLog(store, kind, key, { status: options.status, detail: { ...(row?.detail ?? {}), attempts: attempt, claimed_at: options.now.toISOString() } }, options.now);
    return { claimed: true as const, previous: row, attempt };
  });
  return take.immediate();
}
