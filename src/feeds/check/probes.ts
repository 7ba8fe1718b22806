import { z } from 'zod';
import { GRADED_SPORTS } from '../../domain/sports.js';
import { espnLeague, type EspnLeague } from '../espn/common.js';
import { scoreboardUrl } from '../espn/index.js';
import { scheduleUrl } from '../mlb-statsapi/index.js';
import { creditHeadersSchema, eventsUrl, parseCreditHeaders, sportKeysFor, sportsUrl } from '../odds-api/index.js';
import { arsenalStatsUrl, avgSpeedUrl } from '../savant/index.js';
import { createCollectingLogger } from '../transport/log.js';
import { redactUrl } from '../transport/replay-key.js';
import { createReplayTransport, readReplayManifest, selectReplayEntry } from '../transport/replay.js';
import type { FetchRequest, ProviderId, Transport } from '../transport/types.js';
import { providerIdSchema } from './kind.js';
import { classifyFeed, type FeedKind } from './kinds.js';

/**
 * The probes of `propgrade feeds check`: fetch one provider request (a recorded entry or a live
 * URL), classify it into a catalogued kind and run its body through the real adapter. Never
 * throws for bad data: an unreadable body is a failed entry with a warning.
 */

export const UNKNOWN_KIND = 'unknown kind';

export const checkEntrySchema = z.object({
  provider: providerIdSchema,
  /** The catalogued kind, or "unknown kind". */
  kind: z.string(),
  unit: z.string().nullable(),
  /** Credentials masked. */
  url: z.string(),
  /** Replay only: the recorded file. */
  file: z.string().nullable(),
  recordedAt: z.string().nullable(),
  /** parsed: the adapter read it; failed: answered but unreadable; unreachable: no answer; unknown-kind: not catalogued. */
  outcome: z.enum(['parsed', 'failed', 'unreachable', 'unknown-kind']),
  status: z.number().int().nullable(),
  reason: z.string().nullable(),
  /** Records the adapter produced; null unless parsed. */
  records: z.number().int().nullable(),
  warnings: z.array(z.string()),
  credits: creditHeadersSchema.nullable(),
});
export type CheckEntry = z.infer<typeof checkEntrySchema>;

export interface Probe {
  provider: ProviderId;
  url: string;
  file?: string;
  recordedAt?: string;
}

function acceptOf(provider: ProviderId): FetchRequest['accept'] {
  return provider === 'savant' ? 'text' : 'json';
}

/** The identity half of a report entry. */
function describe(probe: Probe, def: FeedKind | null) {
  return {
    provider: probe.provider,
    kind: def?.kind ?? UNKNOWN_KIND,
    unit: def?.unit ?? null,
    url: redactUrl(probe.url),
    file: probe.file ?? null,
    recordedAt: probe.recordedAt ?? null,
  };
}

export async function checkOne(transport: Transport, probe: Probe, secretQuery?: Record<string, string>): Promise<CheckEntry> {
  const def = classifyFeed(probe.provider, probe.url);
  const base = describe(probe, def);
  const outcome = await transport.fetch({ provider: probe.provider, url: probe.url, accept: acceptOf(probe.provider), ...(secretQuery ? { secretQuery } : {}) });
  if (!outcome.ok) {
    return { ...base, outcome: 'unreachable', status: outcome.status, reason: outcome.reason, records: null, warnings: [], credits: null };
  }
  const credits = probe.provider === 'odds-api' ? parseCreditHeaders(outcome.headers) : null;
  if (!def) {
    return { ...base, outcome: 'unknown-kind', status: outcome.status, reason: 'no catalogued kind answers this URL', records: null, warnings: [], credits };
  }
  const log = createCollectingLogger();
  let records: number | null;
  try {
    records = def.parse(outcome.body, new URL(probe.url), log);
  } catch (err) {
    // Adapters promise never to throw; if one does, the doctor says so instead of dying.
    log.warn(`${def.kind}: adapter threw: ${err instanceof Error ? err.message : String(err)}`);
    records = null;
  }
  if (records === null && log.warnings.length === 0) log.warn(`${def.kind}: the adapter read nothing from the body`);
  return {
    ...base,
    outcome: records === null ? 'failed' : 'parsed',
    status: outcome.status,
    reason: records === null ? 'unreadable body' : null,
    records,
    warnings: log.warnings.map((w) => w.msg),
    credits,
  };
}

/** The latest instant a Date can hold: "no time limit" for untimed recordings. */
const END_OF_TIME = new Date(8.64e15);

/** `"<provider> GET <url>"` back into its parts. */
function splitKey(key: string): { provider: ProviderId; url: string } | null {
  const m = /^(\S+) GET (\S+)$/.exec(key);
  const provider = providerIdSchema.safeParse(m?.[1]);
  return m?.[2] && provider.success ? { provider: provider.data, url: m[2] } : null;
}

/**
 * Every manifest entry, fetched through the replay transport at its own recordedAt (so the
 * replay's snapshot selection is exercised), classified by URL and parsed by its adapter; an entry
 * the replay would never serve is unreachable. `warnings`: problems with the folder itself.
 * A missing or invalid manifest is a configuration error (AppError BAD_INPUT).
 */
export async function probeReplayFolder(dir: string): Promise<{ entries: CheckEntry[]; warnings: string[] }> {
  const manifest = readReplayManifest(dir);
  let clock = END_OF_TIME;
  const transport = createReplayTransport(dir, { now: () => clock });
  const entries: CheckEntry[] = [];
  const warnings: string[] = [];
  for (const entry of manifest.entries) {
    const target = splitKey(entry.key);
    if (!target) {
      warnings.push(`entry for ${entry.file}: key is not "<provider> GET <url>": ${entry.key}`);
      continue;
    }
    clock = entry.recordedAt ? new Date(entry.recordedAt) : END_OF_TIME;
    const probe: Probe = { ...target, file: entry.file, ...(entry.recordedAt ? { recordedAt: entry.recordedAt } : {}) };
    const served = selectReplayEntry(manifest.entries, entry.key, clock);
    if (served !== entry) {
      entries.push({
        ...describe(probe, classifyFeed(probe.provider, probe.url)),
        outcome: 'unreachable',
        status: null,
        reason: `never served: the replay answers this request at ${entry.recordedAt ?? 'any time'} with ${served?.file ?? 'nothing'}`,
        records: null,
        warnings: [],
        credits: null,
      });
      continue;
    }
    entries.push(await checkOne(transport, probe));
  }
  return { entries, warnings };
}

/** Origins to send probes to instead of the real hosts (tests point them at a loopback server). */
export type ProbeBases = Partial<Record<ProviderId, string>>;

/** The same path and query on another origin. */
function rebase(url: string, base: string | undefined): string {
  if (!base) return url;
  const target = new URL(base);
  const u = new URL(url);
  return `${target.origin}${u.pathname}${u.search}`;
}

/** ESPN scoreboards probed in live mode: one league per sport. */
const ESPN_PROBE_LEAGUES: readonly EspnLeague[] = [espnLeague('nba'), espnLeague('wnba'), espnLeague('mlb'), espnLeague('soccer'), espnLeague('mma')];

/**
 * The fixed live probe list for a slate date (yyyy-mm-dd, ET), built with the adapters' own URL
 * builders: Odds API sports list and events of every graded sport key (both free; only with a
 * key), an ESPN scoreboard per sport, the MLB schedule, and both Savant CSVs for the date's season.
 */
export function liveProbes(date: string, opts: { withOddsApi: boolean; bases?: ProbeBases }): Probe[] {
  const bases = opts.bases ?? {};
  const odds = bases['odds-api'] ? { base: new URL(bases['odds-api']).origin } : {};
  const season = Number(date.slice(0, 4));
  const probes: Probe[] = [];
  if (opts.withOddsApi) {
    probes.push({ provider: 'odds-api', url: sportsUrl(odds) });
    for (const key of GRADED_SPORTS.flatMap((s) => sportKeysFor(s))) probes.push({ provider: 'odds-api', url: eventsUrl(key, odds) });
  }
  for (const league of ESPN_PROBE_LEAGUES) probes.push({ provider: 'espn', url: rebase(scoreboardUrl(league, date), bases.espn) });
  probes.push({ provider: 'mlb-statsapi', url: rebase(scheduleUrl(date), bases['mlb-statsapi']) });
  probes.push({ provider: 'savant', url: rebase(arsenalStatsUrl(season), bases.savant) });
  probes.push({ provider: 'savant', url: rebase(avgSpeedUrl(season), bases.savant) });
  return probes;
}

/** Runs the live probes at once through `transport` (live or record); the Odds API key travels only as a secret query. */
export function probeLive(transport: Transport, probes: readonly Probe[], oddsApiKey: string | undefined): Promise<CheckEntry[]> {
  const secret = oddsApiKey ? { apiKey: oddsApiKey } : undefined;
  return Promise.all(probes.map((p) => checkOne(transport, p, p.provider === 'odds-api' ? secret : undefined)));
}
