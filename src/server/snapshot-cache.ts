import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompressSync, constants as zlib, gzip as gzipAsync, gzipSync } from 'node:zlib';
import { compareGrades, type Grade } from '../domain/grades.js';
import { GRADED_SPORTS } from '../domain/sports.js';
import type { StatType } from '../domain/stats.js';
import { shapeRow, tierSchema, type Tier } from '../domain/tiers.js';
import { readSlate, slateGames, type SlateRead } from '../reads/slate.js';
import { rowsOfSnapshot } from '../reads/snapshot-rows.js';
import { gradedRowView } from '../reads/views.js';
import type { Store } from '../store/db.js';
import { latestSnapshotWatcher, snapshotHeadById } from '../store/repo/snapshot-watch.js';
import type { GradedRowRecord } from '../store/repo/snapshots.js';
import { wireJson } from '../wire.js';

export { acceptsGzip, etagMatches, viewCoding } from './negotiate.js';

const gzipOffLoop = promisify(gzipAsync);
/** Lets other requests run between the pieces of a large build (a game's rows at a time). */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

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

/**
 * A narrower view of the latest snapshot (GET /api/snapshot/{sport} with query parameters):
 * `card` is the slate card (at most 6 graded props per game, one per player and stat, A+ to F);
 * the filters keep the rows of one game, one player (by name key), one stat, graded at least
 * `minGrade`, or main lines only. No filter and the full view is the seed route, served by get().
 */
export interface SnapshotView {
  view: 'full' | 'card';
  game?: string | undefined;
  playerKey?: string | undefined;
  /** As the caller wrote it, echoed in the body. */
  player?: string | undefined;
  stat?: StatType | undefined;
  minGrade?: Grade | undefined;
  mainOnly?: boolean | undefined;
}

/** A view's bytes: plain at once, gzip and brotli each made once, on the first request that takes it. */
export interface SerializedView {
  snapshotId: number;
  identity: EncodedBody;
  gzip(): EncodedBody;
  brotli(): EncodedBody;
  /** Every representation's strong ETag (plain, -gz, -br), known without compressing. */
  etags: { identity: string; gzip: string; brotli: string };
}

export interface SnapshotCache {
  /** The latest snapshot of the sport serialized for the tier, or null when none is stored. */
  get(sport: string, tier: Tier): Promise<SerializedSnapshot | null>;
  /**
   * A view of the latest snapshot for the tier (cached per snapshot, tier and view), or null when
   * none is stored. The view object's key is kept with the object: pass a view that does not change.
   */
  view(sport: string, tier: Tier, view: SnapshotView): Promise<SerializedView | null>;
  /**
   * Builds the full body of every tier for the latest snapshot of each sport given (default every
   * graded sport) that is not built yet: called when a snapshot lands, off any request's path, so
   * the first request after a run finds its bytes ready. Resolves with the snapshot ids prepared.
   */
  prepare(sports?: readonly string[]): Promise<number[]>;
  /** Whether the full body of `tier` for the latest snapshot of `sport` is built (no build started). */
  ready(sport: string, tier: Tier): Promise<boolean>;
  /** How many times a snapshot was serialized (once per snapshot per tier). */
  serializations(): number;
  /** How many times serialized bytes were gzipped (once per snapshot per tier, with the serialization). */
  compressions(): number;
}

/**
 * gzip level 9. Measured when chosen (issue 7) on the bundled 2025-11-05 NBA slate (free 3,399,744 B, desk 4,009,580 B
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
 * Brotli quality for the views. Measured on the bundled 2025-11-05 NBA slate (free tier):
 *   one game (337 KB plain):  gzip 9 14.1 KB in 3 ms; brotli 5 11.8 KB in 2 ms, 9 11.0 KB in 8 ms, 11 10.0 KB in 503 ms
 *   slate card (52 KB plain): gzip 9  4.3 KB in 1 ms; brotli 5  4.1 KB in 1 ms, 9  4.0 KB in 5 ms, 11  3.4 KB in 68 ms
 * A view is built on the request that first asks for it, so 11's half second is out; 9 is a
 * fifth smaller than gzip for a few ms, once per snapshot, tier and view.
 */
const BROTLI_QUALITY = 9;

/** Views kept per process (least recently used dropped first): a view is small, its build cheap. */
const VIEW_CACHE_SIZE = 64;

/**
 * The snapshot route's bytes, built once per stored snapshot and tier and reused for every
 * request until a newer snapshot appears (a run by this process, the cron, or another process:
 * see latestSnapshotWatcher in store/repo/snapshot-watch.ts for how each request learns which
 * snapshot is latest). A hit costs that one look-up; concurrent misses of one body share one build.
 */
/** `onLookup` hears each look-up's outcome (GET /metrics counts them). */
export function createSnapshotCache(store: Store, onLookup?: (hit: boolean) => void): SnapshotCache {
  const latestId = latestSnapshotWatcher(store);
  const entries = new Map<string, SerializedSnapshot>();
  // Views: bodies per tier and view, over the snapshot's rows (read once: reads/snapshot-rows.ts).
  const views = new Map<string, SerializedView>();
  // Builds under way, by body key and snapshot id: a request that misses while one runs waits for it.
  const building = new Map<string, Promise<unknown>>();
  let serialized = 0;
  let compressed = 0;

  // The slate (rows grouped and sorted per game) read once per sport and snapshot for every tier.
  const slates = new Map<string, { id: number; slate: Promise<SlateRead | null> }>();
  const slateOf = (sport: string, id: number): Promise<SlateRead | null> => {
    const kept = slates.get(sport);
    if (kept && kept.id === id) return kept.slate;
    const slate = readSlate(store, sport, { all: true });
    slates.set(sport, { id, slate });
    // A failed read is not kept: the next request reads again.
    slate.catch(() => slates.get(sport)?.slate === slate && slates.delete(sport));
    return slate;
  };

  /**
   * The full body, the same bytes as wireJson of the whole object: the head, then each game
   * serialized on its own with the loop free between games, and gzipped on the thread pool, so no
   * single step holds the event loop for the whole slate (194-308 ms of CPU before, issue 40).
   */
  const serializeFull = async (sport: string, tier: Tier, key: string, id: number): Promise<SerializedSnapshot | null> => {
    const slate = await slateOf(sport, id);
    if (!slate) return null;
    // games is the last key: its empty array is where the games' JSON goes.
    const head = wireJson({ sport, available: true, tier, snapshot: snapshotHead(slate.snapshot), games: [] });
    const parts: string[] = [];
    for (const g of slate.games) {
      await yieldToLoop();
      parts.push(wireJson({ eventId: g.eventId, game: g.game, commenceTime: g.commenceTime, rows: g.rows.map((r) => shapeRow(gradedRowView(r), tier)) }));
    }
    const bytes = Buffer.from(`${head.slice(0, -3)}[${parts.join(',')}]}`, 'utf8');
    serialized += 1;
    const hash = etagHash(bytes);
    const gzip = await gzipOffLoop(bytes, { level: GZIP_LEVEL });
    compressed += 1;
    const entry: SerializedSnapshot = {
      snapshotId: slate.snapshot.id,
      tier,
      identity: { bytes, etag: `"${hash}"` },
      gzip: { bytes: gzip, etag: `"${hash}-gz"` },
    };
    entries.set(key, entry);
    return entry;
  };

  const serializeView = async (sport: string, tier: Tier, view: SnapshotView, key: string, id: number): Promise<SerializedView | null> => {
    const snapshot = await snapshotHeadById(store, id);
    if (!snapshot) return null;
    const all: readonly GradedRowRecord[] = await rowsOfSnapshot(store, id);
    const rows = all.filter((r) => keeps(view, r));
    const card = view.view === 'card';
    const games = slateGames(rows, { all: !card, gradedOnly: card });
    const body = {
      sport,
      available: true,
      tier,
      view: view.view,
      filters: {
        game: view.game ?? null,
        player: view.player ?? null,
        stat: view.stat ?? null,
        minGrade: view.minGrade ?? null,
        mainOnly: view.mainOnly ?? false,
      },
      snapshot: snapshotHead(snapshot),
      games: games.map((g) => ({
        eventId: g.eventId,
        game: g.game,
        commenceTime: g.commenceTime,
        ...(card ? { hidden: g.hidden } : {}),
        rows: g.rows.map((r) => shapeRow(gradedRowView(r), tier)),
      })),
    };
    const bytes = Buffer.from(wireJson(body), 'utf8');
    const hash = etagHash(bytes);
    let gz: EncodedBody | null = null;
    let br: EncodedBody | null = null;
    const entry: SerializedView = {
      snapshotId: id,
      etags: { identity: `"${hash}"`, gzip: `"${hash}-gz"`, brotli: `"${hash}-br"` },
      identity: { bytes, etag: `"${hash}"` },
      gzip: () => (gz ??= { bytes: gzipSync(bytes, { level: GZIP_LEVEL }), etag: `"${hash}-gz"` }),
      brotli: () =>
        (br ??= {
          bytes: brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
          etag: `"${hash}-br"`,
        }),
    };
    views.set(key, entry);
    if (views.size > VIEW_CACHE_SIZE) views.delete(views.keys().next().value as string);
    return entry;
  };

  return {
    async get(sport, tier) {
      const id = await latestId(sport);
      if (id === undefined) return null;
      const key = `${sport}:${tier}`;
      const hit = entries.get(key);
      const fresh = hit !== undefined && hit.snapshotId === id;
      onLookup?.(fresh);
      if (fresh) return hit;
      return once(building, `${key}:${id}`, () => serializeFull(sport, tier, key, id));
    },
    async prepare(sports = GRADED_SPORTS) {
      const prepared: number[] = [];
      for (const sport of sports) {
        const id = await latestId(sport);
        if (id === undefined) continue;
        let built = false;
        for (const tier of tierSchema.options) {
          const key = `${sport}:${tier}`;
          if (entries.get(key)?.snapshotId === id) continue;
          await once(building, `${key}:${id}`, () => serializeFull(sport, tier, key, id));
          built = true;
        }
        if (built) prepared.push(id);
      }
      return prepared;
    },
    async ready(sport, tier) {
      const id = await latestId(sport);
      return id !== undefined && entries.get(`${sport}:${tier}`)?.snapshotId === id;
    },
    async view(sport, tier, view) {
      const id = await latestId(sport);
      if (id === undefined) return null;
      const key = `${sport}:${tier}:${viewKey(view)}`;
      const hit = views.get(key);
      onLookup?.(hit !== undefined && hit.snapshotId === id);
      if (hit && hit.snapshotId === id) {
        views.delete(key);
        views.set(key, hit);
        return hit;
      }
      return once(building, `${key}:${id}`, () => serializeView(sport, tier, view, key, id));
    },
    serializations: () => serialized,
    compressions: () => compressed,
  };
}

/** One build per key at a time: a caller that finds one under way shares its promise. */
function once<T>(building: Map<string, Promise<unknown>>, key: string, build: () => Promise<T>): Promise<T> {
  const running = building.get(key);
  if (running) return running as Promise<T>;
  const task = build().finally(() => building.delete(key));
  building.set(key, task);
  return task;
}

const etagHash = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64url').slice(0, 27);

function snapshotHead(s: { id: number; takenAt: string; slateDate: string; gradedCount: number; rowCount: number }) {
  return { id: s.id, takenAt: s.takenAt, slateDate: s.slateDate, graded: s.gradedCount, rows: s.rowCount };
}

/** Each view object's key, made once: the route hands the same view object back for a polled URL. */
const viewKeys = new WeakMap<SnapshotView, string>();

function viewKey(v: SnapshotView): string {
  let key = viewKeys.get(v);
  if (key === undefined) viewKeys.set(v, (key = JSON.stringify([v.view, v.game ?? null, v.playerKey ?? null, v.player ?? null, v.stat ?? null, v.minGrade ?? null, v.mainOnly ?? false])));
  return key;
}

/** Whether a row passes the view's filters (the card's graded-only rule is applied by the card itself). */
function keeps(v: SnapshotView, r: GradedRowRecord): boolean {
  if (v.game !== undefined && r.eventId !== v.game) return false;
  if (v.playerKey !== undefined && r.playerKey !== v.playerKey) return false;
  if (v.stat !== undefined && r.statType !== v.stat) return false;
  if (v.mainOnly && r.isMainLine !== true) return false;
  if (v.minGrade !== undefined && (r.grade === null || compareGrades(r.grade as Grade, v.minGrade) > 0)) return false;
  return true;
}

