import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { shapeRow, type Tier } from '../domain/tiers.js';
import { readSlate } from '../pipeline/slate-read.js';
import { gradedRowView } from '../pipeline/views.js';
import type { Store } from '../store/db.js';
import { wireJson } from '../wire.js';

/** One representation of a snapshot body: the exact bytes on the wire and their strong validator. */
export interface EncodedBody {
  bytes: Buffer;
  etag: string;
}

export interface SerializedSnapshot {
  snapshotId: number;
  tier: Tier;
  /** The JSON bytes; the ETag is a hash of them. */
  identity: EncodedBody;
  /** The same bytes gzipped once; the ETag is the identity one suffixed `-gz` (a different representation, a different strong validator). */
  gzip: EncodedBody;
}

export interface SnapshotCache {
  /** The latest snapshot of the sport serialized for the tier, or null when none is stored. */
  get(sport: string, tier: Tier): SerializedSnapshot | null;
  /** How many times a snapshot was serialized (once per snapshot per tier). */
  serializations(): number;
  /** How many times serialized bytes were gzipped (once per snapshot per tier, with the serialization). */
  compressions(): number;
}

/**
 * gzip level 9. Measured on the bundled 2025-11-05 NBA slate (free 3,399,744 B, desk 4,009,580 B
 * of JSON), node:zlib gzipSync, median of 7:
 *   level 1: free 283,677 B in  8 ms, desk 494,638 B in 14 ms
 *   level 6: free 206,008 B in 22 ms, desk 395,141 B in 33 ms
 *   level 9: free 191,028 B in 32 ms, desk 378,424 B in 44 ms
 * The time is spent once per snapshot and tier, on the cache miss that already takes 130-300 ms
 * to read and serialize the slate; the size is sent on every 60 s poll of every client. Level 9
 * is 7 % (free) and 4 % (desk) smaller than 6 for about 10 ms more once, so the top level wins.
 */
const GZIP_LEVEL = 9;

/**
 * The snapshot route's bytes, built once per stored snapshot and tier and reused for every
 * request until a newer snapshot appears (a run by this process, the cron, or another process:
 * each request asks the store which snapshot is latest, a single indexed lookup).
 */
export function createSnapshotCache(store: Store): SnapshotCache {
  const latest = store.sqlite.prepare('select id from snapshots where sport = ? order by taken_at desc, id desc limit 1').pluck();
  const entries = new Map<string, SerializedSnapshot>();
  let serialized = 0;
  let compressed = 0;
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
      const bytes = Buffer.from(wireJson(body), 'utf8');
      serialized += 1;
      const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 27);
      const gzip = gzipSync(bytes, { level: GZIP_LEVEL });
      compressed += 1;
      const entry: SerializedSnapshot = {
        snapshotId: slate.snapshot.id,
        tier,
        identity: { bytes, etag: `"${hash}"` },
        gzip: { bytes: gzip, etag: `"${hash}-gz"` },
      };
      entries.set(key, entry);
      return entry;
    },
    serializations: () => serialized,
    compressions: () => compressed,
  };
}

/** If-None-Match matching (weak comparison, as RFC 9110 prescribes for this header). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/** RFC 9110 qvalue: 0 to 1 with at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The weight of each coding an Accept-Encoding header lists (names lower-cased). A malformed
 * weight counts as 0, and a coding listed twice keeps its lowest weight: when the header is
 * unclear the plain bytes, which every client reads, are the safe answer.
 */
function codingWeights(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const item of header.split(',')) {
    const [name = '', ...params] = item.split(';');
    const coding = name.trim().toLowerCase();
    if (coding === '') continue;
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*(\S*)\s*$/i.exec(param);
      if (m) q = QVALUE.test(m[1] ?? '') ? Number(m[1]) : 0;
    }
    weights.set(coding, Math.min(q, weights.get(coding) ?? 1));
  }
  return weights;
}

/**
 * Whether a request's Accept-Encoding lets us answer in gzip (RFC 9110 §12.5.3): `gzip` (or its
 * alias `x-gzip`, or `*` when gzip is not named) with a weight above 0, and not below a weight the
 * header gives identity (named, or through `*`). No header means the plain bytes, as before.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  const weights = codingWeights(header);
  const gzip = weights.get('gzip') ?? weights.get('x-gzip') ?? weights.get('*') ?? 0;
  if (gzip <= 0) return false;
  const identity = weights.get('identity') ?? weights.get('*');
  return identity === undefined || gzip >= identity;
}
