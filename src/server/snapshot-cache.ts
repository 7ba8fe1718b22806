import { createHash } from 'node:crypto';
import { shapeRow, type Tier } from '../domain/tiers.js';
import { readSlate } from '../pipeline/slate-read.js';
import { gradedRowView } from '../pipeline/views.js';
import type { Store } from '../store/db.js';

export interface SerializedSnapshot {
  snapshotId: number;
  tier: Tier;
  bytes: Buffer;
  /** Strong validator: a hash of the exact bytes. */
  etag: string;
}

export interface SnapshotCache {
  /** The latest snapshot of the sport serialized for the tier, or null when none is stored. */
  get(sport: string, tier: Tier): SerializedSnapshot | null;
  /** How many times a snapshot was serialized (once per snapshot per tier). */
  serializations(): number;
}

/**
 * The snapshot route's bytes, built once per stored snapshot and tier and reused for every
 * request until a newer snapshot appears (a run by this process, the cron, or another process:
 * each request asks the store which snapshot is latest, a single indexed lookup).
 */
export function createSnapshotCache(store: Store): SnapshotCache {
  const latest = store.sqlite.prepare('select id from snapshots where sport = ? order by taken_at desc, id desc limit 1').pluck();
  const entries = new Map<string, SerializedSnapshot>();
  let count = 0;
  return {
    get(sport, tier) {
      const id = latest.get(sport) as number | undefined;
      if (id === undefined) return null;
      const key = `${sport}:${tier}`;
      const hit = entries.get(key);
      if (hit && hit.snapshotId === id) return hit;
      const slate = readSlate(store, sport, { all: true });
      if (!slate) return null;
      const body = {
        sport,
        available: true,
        tier,
        snapshot: { id: slate.snapshot.id, taken_at: slate.snapshot.takenAt, slate_date: slate.snapshot.slateDate, graded: slate.snapshot.gradedCount, rows: slate.snapshot.rowCount },
        games: slate.games.map((g) => ({ event_id: g.eventId, game: g.game, commence_time: g.commenceTime, rows: g.rows.map((r) => shapeRow(gradedRowView(r), tier)) })),
      };
      const bytes = Buffer.from(JSON.stringify(body), 'utf8');
      const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
      const entry = { snapshotId: slate.snapshot.id, tier, bytes, etag };
      entries.set(key, entry);
      count += 1;
      return entry;
    },
    serializations: () => count,
  };
}

/** If-None-Match matching (weak comparison, as RFC 9110 prescribes for this header). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}
