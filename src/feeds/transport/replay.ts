import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { gradedSportSchema, type GradedSport } from '../../domain/sports.js';
import { AppError, describeZodIssues } from '../../errors.js';
import { replayKey } from './replay-key.js';
import type { FetchOutcome, ReplayEntry, Transport } from './types.js';

export const MANIFEST_FILE = 'manifest.json';

/** Extra keys (the bundled folder also stores provider and url) are kept through a record rewrite. */
export const replayEntrySchema = z.looseObject({
  key: z.string().min(1),
  file: z.string().min(1),
  status: z.number().int(),
  headers: z.record(z.string(), z.string()),
  recordedAt: z.iso.datetime({ offset: true }).optional(),
}) satisfies z.ZodType<ReplayEntry>;

/** Unknown top-level keys are kept so a recorder rewriting the manifest does not drop them. */
export const replayManifestSchema = z.looseObject({
  version: z.literal(1),
  /** The clock a replay of this folder runs at when no --now is given. */
  defaultNow: z.iso.datetime({ offset: true }).optional(),
  /**
   * A sport whose recording is of another day than defaultNow's: its clock when no --now is given
   * (`snapshot all` runs each sport at its own recording's time).
   */
  clocks: z.record(z.string(), z.iso.datetime({ offset: true })).optional(),
  /**
   * The Odds API regions the recording's event-odds requests asked for where they are not the
   * configured ones: one list for the whole folder (an EPL or merged MLB season: "au", "us,eu,au")
   * or per sport (the bundled folder's EPL matchday: {"soccer": "au"}). A replayed run asks the same
   * (feeds/factory.ts replayBookSelection) unless ALLOWED_BOOKS picks the books; a live run never reads it.
   */
  oddsRegions: z.union([z.string().min(1), z.partialRecord(gradedSportSchema, z.string().min(1))]).optional(),
  /** Raw source files (relative) the recordings were written from: provenance only, never read by a run. */
  sources: z.array(z.string().min(1)).optional(),
  /** Free-form seeding data for the bundled demo (owned by whoever builds the folder). */
  seed: z.record(z.string(), z.unknown()).optional(),
  entries: z.array(replayEntrySchema),
});
export type ReplayManifest = z.infer<typeof replayManifestSchema>;

/** What a folder's `seed` carries: the game history its recorded days need (imported by jobs/import-history). */
export interface ReplaySeed {
  /** `games`: the WNBA games file (relative to the folder) that dates a box-score file. */
  gamelogs?: Array<{ sport: GradedSport; file: string; games?: string }>;
}

type Loaded = { ok: true; manifest: ReplayManifest } | { ok: false; reason: string };

/** Reads and validates `<dir>/manifest.json` without throwing. */
export function loadReplayManifest(dir: string): Loaded {
  const path = join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { ok: false, reason: `replay folder has no readable ${MANIFEST_FILE}: ${path}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: `replay manifest is not JSON: ${path}` };
  }
  const parsed = replayManifestSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: `replay manifest ${path} is invalid: ${describeZodIssues(parsed.error.issues)}` };
  return { ok: true, manifest: parsed.data };
}

/** The parsed manifest; a missing or invalid one is a configuration error (BAD_INPUT). */
export function readReplayManifest(dir: string): ReplayManifest {
  const loaded = loadReplayManifest(dir);
  if (!loaded.ok) throw new AppError('BAD_INPUT', loaded.reason);
  return loaded.manifest;
}

/**
 * The recording that answers `key` at `now`: the latest recordedAt at or before now; entries
 * without recordedAt match any time but lose to a timed one. `now` null = no time limit.
 * Among equals the later manifest entry wins (it was written last).
 */
export function selectReplayEntry(entries: readonly ReplayEntry[], key: string, now: Date | null): ReplayEntry | null {
  let best: ReplayEntry | null = null;
  let bestAt = Number.NEGATIVE_INFINITY;
  let fallback: ReplayEntry | null = null;
  const limit = now === null ? Number.POSITIVE_INFINITY : now.getTime();
  for (const entry of entries) {
    if (entry.key !== key) continue;
    if (entry.recordedAt === undefined) {
      fallback = entry;
      continue;
    }
    const at = Date.parse(entry.recordedAt);
    if (at <= limit && at >= bestAt) {
      best = entry;
      bestAt = at;
    }
  }
  return best ?? fallback;
}

/** The recordedAt of every entry served inside trackRecordings (null: an entry without a time). */
const served = new AsyncLocalStorage<Array<string | null>>();

/**
 * Runs `load` and says when the recording it read was made: the newest recordedAt among the
 * entries the replay transport served it (null when none had a time, or nothing was served).
 * A tracked load inside another hands its entries to the outer one too.
 */
export async function trackRecordings<R>(load: () => Promise<R>): Promise<{ result: R; recordedAt: string | null }> {
  const times: Array<string | null> = [];
  const outer = served.getStore();
  try {
    const result = await served.run(times, load);
    // The manifest's own text is kept (its times may carry an offset): compared as instants.
    const known = times.filter((t): t is string => t !== null);
    return { result, recordedAt: known.length === 0 ? null : known.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a)) };
  } finally {
    outer?.push(...times);
  }
}

export interface ReplayTransportOptions {
  /** The run's clock; defaults to the manifest's defaultNow, else no time limit. */
  now?: () => Date;
}

/** Answers only from a recorded folder; no network at all. Never throws. */
export function createReplayTransport(dir: string, options: ReplayTransportOptions = {}): Transport {
  let loaded: Loaded | null = null;
  const root = resolve(dir);

  return {
    kind: 'replay',
    async fetch(request): Promise<FetchOutcome> {
      try {
        loaded ??= loadReplayManifest(dir);
        if (!loaded.ok) return { ok: false, status: null, reason: loaded.reason };
        const { manifest } = loaded;
        const key = replayKey(request);
        const now = options.now ? options.now() : manifest.defaultNow ? new Date(manifest.defaultNow) : null;
        const entry = selectReplayEntry(manifest.entries, key, now);
        if (!entry) {
          const later = manifest.entries.some((e) => e.key === key);
          const why = later && now ? ` (only recordings after ${now.toISOString()})` : '';
          return { ok: false, status: null, reason: `not recorded: ${key}${why}` };
        }
        if (entry.status < 200 || entry.status >= 300) {
          return { ok: false, status: entry.status, reason: `recorded HTTP ${entry.status}: ${key}` };
        }
        const path = resolve(root, entry.file);
        const rel = relative(root, path);
        if (rel.startsWith('..') || isAbsolute(rel)) {
          return { ok: false, status: null, reason: `replay entry points outside the folder: ${entry.file}` };
        }
        let body: string;
        try {
          body = await readFile(path, 'utf8');
        } catch {
          return { ok: false, status: null, reason: `replay file missing: ${entry.file} (for ${key})` };
        }
        served.getStore()?.push(entry.recordedAt ?? null);
        return { ok: true, status: entry.status, headers: { ...entry.headers }, body, source: 'replay' };
      } catch (err) {
        return { ok: false, status: null, reason: `replay error: ${err instanceof Error ? err.message : String(err)}` };
      }
    },
  };
}
