import type { Env } from '../config.js';
import type { GameEvent } from '../domain/entities.js';
import type { GradedSport } from '../domain/sports.js';
import { marketsForSport } from '../domain/stats.js';
import { easternDate } from '../domain/time.js';
import type { InjuryChip } from '../domain/display-state.js';
import { espnLeague, fetchInjuries, fetchScoreboard, fetchSummary } from './espn/index.js';
import { fetchBoxscore, fetchSchedule } from './mlb-statsapi/index.js';
import { createBudget, fetchEventPropQuotes, fetchEvents, sportKeysFor, type BookSelection, type CreditBudget } from './odds-api/index.js';
import type { CreditReport, GameResults, OddsSource, ResultsSource, RunLogger, StatusSource } from './sources.js';
import { createLiveTransport, createRecordTransport, createReplayTransport, createTransport, LIVE_DEFAULTS, originMap, readReplayManifest, type OriginMap } from './transport/index.js';
import type { LiveTransportOptions } from './transport/live.js';
import type { FeedLogger } from './transport/log.js';
import { trackRecordings, type ReplaySeed } from './transport/replay.js';
import type { Transport } from './transport/types.js';
import type { RecordingTracker } from '../store/cache.js';

/**
 * Builds every source from the provider adapters over one transport (replay, record or live):
 * the runs' odds, status and results sources, and the transports the context reads go through.
 * This is the only module that knows which provider serves which need.
 */
export interface SourceOptions {
  /** Odds API credits earlier runs already spent today (the daily budget spans runs). */
  creditsSpentToday?: number;
  replayDir: string | null;
  recordDir: string | null;
  now: Date;
  log: RunLogger;
  /** A transport given by the caller (tests inject a loopback or replayed one); else built from the config. */
  transport?: Transport;
  /** The live transport's patience and wall-clock timers (tests shorten them); its origins come from the config. */
  live?: Partial<LiveTransportOptions>;
}

/** Where live requests go: ODDS_API_BASE_URL, ESPN_BASE_URL, ... (validated in src/config.ts); unset = the provider's host. */
export function providerOrigins(config: Env): OriginMap {
  return originMap(config);
}

/**
 * Adapter warnings go to the run log; adapters only ever warn. Over the network (`live`) a warning
 * carries the transport's reason (it names the provider, never a key) so a failed run says why; a
 * replay's unrecorded request stays the short line it was.
 */
export function feedLog(log: RunLogger, live = false): FeedLogger {
  return {
    warn: (message, detail) => {
      const reason = live && typeof detail === 'object' && detail !== null && 'reason' in detail ? (detail as { reason: unknown }).reason : null;
      log.warn(typeof reason === 'string' && reason !== '' ? `${message}: ${reason}` : message);
    },
  };
}

/** The books Odds API calls ask for: ALLOWED_BOOKS when set, else ODDS_API_REGIONS (empty items dropped). */
export function bookSelection(config: Env): BookSelection {
  return config.ALLOWED_BOOKS ? { bookmakers: config.ALLOWED_BOOKS } : { regions: config.ODDS_API_REGIONS.split(',').map((r) => r.trim()).filter(Boolean) };
}

/**
 * The books a run asks for per sport. A replayed folder whose manifest names the regions it was
 * recorded with (`oddsRegions`: one list, or per sport) is asked in those regions, as the recording
 * was: the bundled EPL matchday's Australian books answer regions=au without the user setting
 * ODDS_API_REGIONS. ALLOWED_BOOKS still picks the books; a live or recording run keeps the configuration.
 */
export function replayBookSelection(config: Env, replayDir: string | null): (sport: GradedSport) => BookSelection {
  const configured = bookSelection(config);
  const recorded = replayDir && !config.ALLOWED_BOOKS ? readReplayManifest(replayDir).oddsRegions : undefined;
  if (recorded === undefined) return () => configured;
  return (sport) => {
    const regions = typeof recorded === 'string' ? recorded : recorded[sport];
    return regions === undefined ? configured : bookSelection({ ...config, ODDS_API_REGIONS: regions });
  };
}

/**
 * The Odds API sport keys a replayed folder holds an events list for: a replayed run asks only those
 * of a sport's keys (soccer spans eight leagues and the bundled matchday recorded the EPL's, so the
 * other seven are not asked for and warned about), or all of them when it recorded none. Null live.
 */
export function recordedSportKeys(replayDir: string | null): ReadonlySet<string> | null {
  if (!replayDir) return null;
  const keys = new Set<string>();
  for (const e of readReplayManifest(replayDir).entries) {
    const m = /^odds-api GET \S+\/v4\/sports\/([^/?]+)\/events\?/.exec(e.key);
    if (m?.[1]) keys.add(m[1]);
  }
  return keys;
}

function transportFor(config: Env, opts: SourceOptions): Transport {
  if (opts.transport) return opts.transport;
  return createTransport({
    ...(opts.replayDir ? { replayDir: opts.replayDir } : {}),
    ...(opts.recordDir ? { recordDir: opts.recordDir } : {}),
    env: { ODDS_API_KEY: config.ODDS_API_KEY, PROPGRADE_REPLAY: config.PROPGRADE_REPLAY },
    now: () => opts.now,
    log: feedLog(opts.log),
    live: { ...opts.live, origins: providerOrigins(config) },
  });
}

export interface OddsSources {
  odds: OddsSource;
  status: StatusSource;
  /** History the replay folder carries for its recorded days. */
  seed: ReplaySeed | undefined;
  budget: CreditBudget;
  close(): Promise<void>;
}

export async function buildOddsSource(config: Env, opts: SourceOptions): Promise<OddsSources> {
  const transport = transportFor(config, opts);
  const log = feedLog(opts.log, transport.kind !== 'replay');
  const budget = createBudget(config.ODDS_API_DAILY_BUDGET ?? null, opts.creditsSpentToday ?? 0);
  const replayDir = transport.kind === 'replay' ? (opts.replayDir ?? config.PROPGRADE_REPLAY ?? null) : null;
  const booksFor = replayBookSelection(config, replayDir);
  const recorded = recordedSportKeys(replayDir);
  const keysOf = (sport: GradedSport): string[] => {
    const keys = sportKeysFor(sport);
    const held = recorded ? keys.filter((k) => recorded.has(k)) : [];
    return held.length > 0 ? held : keys;
  };
  // Soccer spans several league keys; remember which key listed each event.
  const sportKeyOf = new Map<string, string>();
  let lastCredits: CreditReport | null = null;
  let lastFailure: string | null = null;
  const noteCredits = (c: { remaining: number | null; used: number | null; last: number | null } | null) => {
    if (c) lastCredits = { used: c.used, remaining: c.remaining, last: c.last, spent: budget.state().spent };
  };

  const odds: OddsSource = {
    async events(sport: GradedSport) {
      const all: GameEvent[] = [];
      let failures = 0;
      const keys = keysOf(sport);
      for (const key of keys) {
        const res = await fetchEvents(transport, key, { apiKey: config.ODDS_API_KEY, log, budget });
        noteCredits(res.credits);
        if (res.error !== null) {
          lastFailure = res.error;
          failures += 1;
          continue;
        }
        for (const e of res.events) {
          sportKeyOf.set(e.id, key);
          all.push(e);
        }
      }
      return failures === keys.length ? null : all;
    },
    async propQuotes(sport: GradedSport, event: GameEvent) {
      const key = sportKeyOf.get(event.id) ?? sportKeysFor(sport)[0];
      if (!key) return null;
      const res = await fetchEventPropQuotes(transport, key, event.id, marketsForSport(sport), { apiKey: config.ODDS_API_KEY, log, books: booksFor(sport), budget });
      noteCredits(res.credits);
      if (res.error !== null) lastFailure = res.error;
      return res.error === null ? res.quotes : null;
    },
    credits() {
      const state = budget.state();
      if (state.calls === 0 && lastCredits === null) return null;
      return lastCredits ?? { used: null, remaining: state.providerRemaining, last: null, spent: state.spent };
    },
    lastFailure: () => lastFailure,
  };
  return {
    odds,
    status: statusSource(transport, log),
    seed: opts.replayDir ? (readReplayManifest(opts.replayDir).seed as ReplaySeed | undefined) : undefined,
    budget,
    close: async () => transport.close?.(),
  };
}

export interface ResultsSources {
  results: ResultsSource;
  close(): Promise<void>;
}

/**
 * Final box scores: MLB from the MLB Stats API (schedule, then each final game's boxscore: ESPN's
 * MLB summary has no full batting lines); the other sports from ESPN's scoreboard and summaries.
 */
export async function buildResultsSource(config: Env, opts: SourceOptions): Promise<ResultsSources> {
  // ESPN and the MLB Stats API are keyless: without a replay or record folder, results go live
  // whether or not ODDS_API_KEY is set (the transport factory asks for the key only for odds).
  const keyless = !opts.replayDir && !opts.recordDir && !config.PROPGRADE_REPLAY;
  const transport = keyless ? createLiveTransport({ ...LIVE_DEFAULTS, ...opts.live, origins: providerOrigins(config) }) : transportFor(config, opts);
  const log = feedLog(opts.log, transport.kind !== 'replay');
  const results: ResultsSource = {
    async results(sport, date) {
      if (sport === 'mlb') return mlbResults(transport, date, log);
      const league = espnLeague(sport);
      const games = await fetchScoreboard(transport, league, date, log);
      if (games === null) return null;
      const out: GameResults[] = [];
      for (const g of games) {
        // A scoreboard lists games by its own day; keep the ones on the requested ET date.
        if (easternDate(new Date(g.event.commenceTime)) !== date) continue;
        let players: GameResults['players'] = null;
        if (g.status === 'final') {
          const summary = await fetchSummary(transport, league, g.event.id, log);
          players = summary ? summary.lines.map((l) => ({ ...l, date })) : null;
        }
        out.push({ gameId: g.event.id, status: g.status, homeAbbr: g.event.homeAbbr, awayAbbr: g.event.awayAbbr, homeTeam: g.event.homeTeam, awayTeam: g.event.awayTeam, players });
      }
      return out;
    },
  };
  return { results, close: async () => transport.close?.() };
}

/** Injury chips from ESPN's league injury list; MLB lineups from the MLB Stats API schedule. */
function statusSource(transport: Transport, log: FeedLogger): StatusSource {
  return {
    async injuries(sport) {
      const list = await fetchInjuries(transport, espnLeague(sport), log);
      if (list === null) return null;
      const out = new Map<string, InjuryChip>();
      for (const i of list) if (i.chip) out.set(i.playerKey, i.chip);
      return out;
    },
    async lineups(sport, date) {
      if (sport !== 'mlb') return null;
      const games = await fetchSchedule(transport, date, log);
      if (games === null) return null;
      const confirmed = new Map<string, number>();
      const postedTeams = new Set<string>();
      const teams = new Map<string, string>();
      for (const g of games) {
        const sides = [
          [g.event.homeAbbr, g.homeLineup, g.homeProbable],
          [g.event.awayAbbr, g.awayLineup, g.awayProbable],
        ] as const;
        for (const [team, lineup, probable] of sides) {
          if (team !== null && probable) teams.set(probable.playerKey, team);
          if (lineup === null) continue; // not posted: every player stays PROJECTED
          if (team !== null) postedTeams.add(team);
          for (const entry of lineup) {
            confirmed.set(entry.playerKey, entry.battingSlot);
            if (team !== null) teams.set(entry.playerKey, team);
          }
        }
      }
      return { confirmed, postedTeams, teams };
    },
  };
}

async function mlbResults(transport: Transport, date: string, log: FeedLogger): Promise<GameResults[] | null> {
  const games = await fetchSchedule(transport, date, log);
  if (games === null) return null;
  const out: GameResults[] = [];
  for (const g of games) {
    let players: GameResults['players'] = null;
    if (g.status === 'final') {
      const lines = await fetchBoxscore(transport, { gamePk: g.gamePk, date: g.officialDate ?? date }, log);
      players = lines ? lines.map((l) => l.stat) : null;
    }
    out.push({ gameId: String(g.gamePk), status: g.status, homeAbbr: g.event.homeAbbr, awayAbbr: g.event.awayAbbr, homeTeam: g.event.homeTeam, awayTeam: g.event.awayTeam, players });
  }
  return out;
}

// ---- the context reads' transports ----

/**
 * The transports behind the context routes. ESPN and the MLB Stats API need no key, so without a
 * replay folder they are read live; The Odds API needs ODDS_API_KEY (or a replay folder), and
 * without one the odds-backed parts say so instead of calling.
 */
export interface ContextProviders {
  /** 'replay' answers from a recorded folder; its cache entries never mix with live ones. */
  source: 'live' | 'replay';
  keyless: Transport;
  /** null: no ODDS_API_KEY and no replay folder. */
  odds: Transport | null;
  oddsApiKey?: string;
  /** The Odds API base URL (tests point it at a loopback server). */
  oddsBase?: string;
  /** Why `odds` is null. */
  oddsMissing?: string;
  /** A replayed store without its recording: why no provider is read (the reads answer UNAVAILABLE_ON_REPLAY). */
  offline?: string;
  /**
   * Replay only: runs a cached read's load and says when the recording it read was made (the
   * newest manifest recordedAt it was served), so a replayed answer says it was recorded, and
   * when, instead of an age on the data clock (store/cache.ts keeps it with the value).
   */
  recording?: RecordingTracker;
  close(): Promise<void>;
}

/**
 * Live HTTP for a request path: one retry and a 10 s deadline, so a reader is never parked for
 * the snapshot runs' long backoff; the cache's stale fallback covers a failure.
 */
export const CONTEXT_LIVE = { timeoutMs: 10_000, retries: 1, concurrencyPerHost: 4, userAgent: 'propgrade/0.1.0' } as const;

export interface ProviderOptions {
  replayDir: string | null;
  recordDir?: string | null;
  /** The clock the replay selects recordings by and the recorder stamps them with. */
  now: () => Date;
  log?: FeedLogger;
  /** The transport live reads go through, when the caller injects one (tests); else undici over the network. */
  live?: Transport;
  /**
   * Set on a replayed store without a readable recording (feeds/context.ts contextSourceFor): the
   * providers refuse every request without a network call, and the reads answer UNAVAILABLE_ON_REPLAY.
   */
  offline?: string;
}

/** The transport of a replayed store without its recording: answers every request with a failure, never calls out. */
export function offlineTransport(why: string): Transport {
  return { kind: 'replay', fetch: async () => ({ ok: false, status: null, reason: why }) };
}

export function contextProviders(config: Env, opts: ProviderOptions): ContextProviders {
  if (opts.offline !== undefined) {
    const none = offlineTransport(opts.offline);
    return { source: 'replay', offline: opts.offline, keyless: none, odds: none, close: async () => {} };
  }
  // As createTransport: --record wins over PROPGRADE_REPLAY (both as flags is refused by the CLI).
  const replayDir = opts.recordDir ? null : (opts.replayDir ?? config.PROPGRADE_REPLAY ?? null);
  const log = opts.log ?? { warn: () => {} };
  if (replayDir) {
    readReplayManifest(replayDir); // fail fast on a missing or invalid folder
    const replay = createReplayTransport(replayDir, { now: opts.now });
    return { source: 'replay', keyless: replay, odds: replay, recording: trackRecordings, close: async () => {} };
  }
  const live = opts.live ?? createLiveTransport({ ...CONTEXT_LIVE, origins: providerOrigins(config) });
  const transport = opts.recordDir ? createRecordTransport(live, opts.recordDir, { now: opts.now, log }) : live;
  const key = config.ODDS_API_KEY;
  return {
    source: 'live',
    keyless: transport,
    odds: key ? transport : null,
    ...(key ? { oddsApiKey: key } : { oddsMissing: 'ODDS_API_KEY is not set (or run with --replay data/replay)' }),
    // An injected transport belongs to its caller, who closes it.
    close: () => (opts.live ? Promise.resolve() : (transport.close?.() ?? Promise.resolve())),
  };
}

// ---- the feeds doctor's transport ----

/**
 * The live transport `feeds check` probes through (recorded into a replay folder with --record).
 * `live`: the doctor's patience (tests shorten it).
 */
export function probeTransport(opts: { recordDir: string | null; now: () => Date; live?: Partial<LiveTransportOptions>; origins?: OriginMap }): Transport {
  const live = createLiveTransport({ ...LIVE_DEFAULTS, ...opts.live, ...(opts.origins ? { origins: opts.origins } : {}) });
  // Closing the recorder closes the live transport under it.
  return opts.recordDir ? createRecordTransport(live, opts.recordDir, { now: opts.now }) : live;
}
