import { and, eq } from 'drizzle-orm';
import type { Store } from '../db.js';
import type { contentLog } from '../schema.js';
import { on, onWrite } from './handle.js';
import { immediate } from './tx.js';

/**
 * content_log: one row per outbound thing per (kind, key), for idempotency and audit
 * (docs/content.md "What is recorded"). Kinds used by the content desk:
 *
 * - `desk_pack_ready`, key ET date: the notification (status sending | sent | failed).
 * - `listmonk_campaign`, key report date: the campaign (status creating | created | running | failed).
 * - `ghost_draft`, key `<date>:<slate_preview|settle>`: the Ghost post (status draft; external id = post id).
 */

export type ContentLogRow = typeof contentLog.$inferSelect;

export async function readLog(store: Store, kind: string, key: string): Promise<ContentLogRow | null> {
  const { db, t } = await on(store);
  const [row] = await db.select().from(t.contentLog).where(and(eq(t.contentLog.kind, kind), eq(t.contentLog.key, key))).limit(1);
  return row ?? null;
}

export interface LogPatch {
  status: string;
  externalId?: string | null;
  detail?: Record<string, unknown> | null;
}

/** Inserts or updates the (kind, key) row; `created_at` is kept from the first write. */
export async function writeLog(store: Store, kind: string, key: string, patch: LogPatch, now: Date): Promise<ContentLogRow> {
  return onWrite(store, async ({ db, t }) => {
    const at = now.toISOString();
    const set = {
      status: patch.status,
      updatedAt: at,
      ...(patch.externalId !== undefined ? { externalId: patch.externalId } : {}),
      ...(patch.detail !== undefined ? { detail: patch.detail } : {}),
    };
    const [row] = await db
      .insert(t.contentLog)
      .values({ kind, key, externalId: patch.externalId ?? null, status: patch.status, detail: patch.detail ?? null, createdAt: at, updatedAt: at })
      .onConflictDoUpdate({ target: [t.contentLog.kind, t.contentLog.key], set })
      .returning();
    if (!row) throw new Error(`the content_log write of ${kind}/${key} returned no row`);
    return row;
  });
}

/**
 * Takes the (kind, key) row for this process when `claimable(row)` says so (the row is absent,
 * failed, or an in-progress claim older than `staleMs` left by a crashed run), setting `status`.
 * Runs in an exclusive transaction (tx.ts immediate), so two processes never both claim it.
 */
export async function claimLog(
  store: Store,
  kind: string,
  key: string,
  options: { status: string; now: Date; staleMs: number; inProgress: string; claimable: (row: ContentLogRow) => boolean },
): Promise<{ claimed: true; previous: ContentLogRow | null; attempt: number } | { claimed: false; row: ContentLogRow }> {
  return immediate(store, async (tx) => {
    const row = await readLog(tx, kind, key);
    const stale = row !== null && row.status === options.inProgress && options.now.getTime() - new Date(row.updatedAt).getTime() >= options.staleMs;
    if (row !== null && !stale && !options.claimable(row)) return { claimed: false as const, row };
    const attempt = (typeof row?.detail?.['attempts'] === 'number' ? (row.detail['attempts'] as number) : 0) + 1;
    await writeLog(tx, kind, key, { status: options.status, detail: { ...(row?.detail ?? {}), attempts: attempt, claimed_at: options.now.toISOString() } }, options.now);
    return { claimed: true as const, previous: row, attempt };
  });
}
