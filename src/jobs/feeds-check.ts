/**
 * `feeds check`: the operators' doctor. Fetches provider responses (from a replay folder, or a
 * fixed live probe list), runs each through the real adapter for its kind, and reports per
 * provider and kind what answered, how many records parsed, and every warning the adapters raised.
 * Never throws for bad data: an unreadable body is a failed entry with a warning.
 */
import { z } from 'zod';
import { GRADED_SPORTS, type Sport } from '../domain/sports.js';
import { easternDate } from '../domain/time.js';
import { espnLeague, type EspnLeague } from '../feeds/espn/common.js';
import {
  parseAthleteCoreStatistics,
  parseAthleteGamelog,
  parseAthleteSeasonStats,
  parseFightCards,
  parseInjuries,
  parseNews,
  parseRoster,
  parseScoreboard,
  parseSummary,
  scoreboardUrl,
} from '../feeds/espn/index.js';
import { readJson } from '../feeds/json.js';
import {
  parseBoxscore,
  parseGameLog,
  parseLiveFeed,
  parsePeople,
  parseSchedule,
  parseSeasonStats,
  parseTeamRoster,
  scheduleUrl,
} from '../feeds/mlb-statsapi/index.js';
import {
  creditHeadersSchema,
  eventsUrl,
  parseCreditHeaders,
  parseEventPropQuotes,
  parseEvents,
  parseJsonBody,
  parseMmaFightOdds,
  parseOutrights,
  parseSportsList,
  sportKeysFor,
  sportsUrl,
  unwrapHistorical,
  type CreditHeaders,
  type OddsFormat,
} from '../feeds/odds-api/index.js';
import { arsenalStatsUrl, avgSpeedUrl, parseArsenalStatsCsv, parseAvgSpeedCsv } from '../feeds/savant/index.js';
import { createCollectingLogger, type FeedLogger } from '../feeds/transport/log.js';
import { redactUrl } from '../feeds/transport/replay-key.js';
import { createReplayTransport, readReplayManifest, selectReplayEntry } from '../feeds/transport/replay.js';
import type { FetchRequest, ProviderId, Transport } from '../feeds/transport/types.js';

export const PROVIDER_IDS = ['odds-api', 'espn', 'mlb-statsapi', 'savant'] as const satisfies readonly ProviderId[];
const providerIdSchema = z.enum(PROVIDER_IDS);

// ---------------------------------------------------------------------------------------------
// The catalogue: every response kind propgrade reads, matched by path, parsed by its adapter.

/** One response kind. `parse` counts the records the real adapter produced; null = unreadable. */
export interface FeedKind {
  provider: ProviderId;
  kind: string;
  /** What `records` counts. */
  unit: string;
  match(url: URL): boolean;
  parse(body: string, url: URL, log: FeedLogger): number | null;
}

/** `'v4/sports/:sport/events'` against a URL path: the named segments, or null. Host-independent. */
function pathParams(url: URL, pattern: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) params[w.slice(1)] = g;
    else if (w !== g) return null;
  }
  return params;
}

const matches = (pattern: string, also: (p: Record<string, string>, url: URL) => boolean = () => true) => (url: URL) => {
  const p = pathParams(url, pattern);
  return p !== null && also(p, url);
};

function param(url: URL, pattern: string, name: string): string {
  // Only called from parse(), after match() accepted the same pattern.
  return pathParams(url, pattern)?.[name] ?? '';
}

function oddsJson(body: string, label: string, log: FeedLogger): unknown {
  return parseJsonBody(body, `odds-api ${label}`, log)?.value ?? null;
}

function requestedFormat(url: URL): { requestedFormat?: OddsFormat } {
  const f = url.searchParams.get('oddsFormat');
  return f === 'american' || f === 'decimal' ? { requestedFormat: f } : {};
}

/** Historical endpoints must answer in their wrapper; a bare payload is worth a warning. */
function warnIfNotWrapped(json: unknown, label: string, log: FeedLogger): void {
  if (unwrapHistorical(json).snapshot === null) log.warn(`odds-api ${label}: no historical wrapper {timestamp, data} around the payload`);
}

const ODDS_EVENTS = 'v4/sports/:sport/events';
const ODDS_HIST_EVENTS = 'v4/historical/sports/:sport/events';
const ODDS_EVENT_ODDS = 'v4/sports/:sport/events/:id/odds';
const ODDS_HIST_EVENT_ODDS = 'v4/historical/sports/:sport/events/:id/odds';
const ODDS_SPORT_ODDS = 'v4/sports/:sport/odds';

const ESPN_SITE = 'apis/site/v2/sports/:sport/:league';
const ESPN_WEB_ATHLETE = 'apis/common/v3/sports/:sport/:league/athletes/:id';

/** The ESPN league a site path names; null for leagues propgrade does not serve. */
function espnLeagueOf(sportSegment: string, league: string): EspnLeague | null {
  const key = `${sportSegment}/${league}`;
  const fixed: Record<string, Sport> = { 'basketball/nba': 'nba', 'basketball/wnba': 'wnba', 'baseball/mlb': 'mlb' };
  const sport = fixed[key];
  if (sport) return espnLeague(sport);
  if (sportSegment === 'soccer') return espnLeague('soccer', league);
  if (sportSegment === 'mma') return espnLeague('mma', league);
  return null;
}

function siteLeague(url: URL, rest: string): EspnLeague | null {
  const p = pathParams(url, `${ESPN_SITE}/${rest}`);
  return p ? espnLeagueOf(p['sport']!, p['league']!) : null;
}

/** JSON text (BOM tolerated) -> value; non-JSON is null plus a warning (ESPN and MLB Stats API bodies). */
const jsonBody = (body: string, what: string, log: FeedLogger): unknown => readJson(body, what, log);

/** Runs an ESPN site parser with the league its URL names. */
function siteKind(
  kind: string,
  unit: string,
  rest: string,
  parse: (json: unknown, league: EspnLeague, log: FeedLogger) => number | null,
  accept: (league: EspnLeague) => boolean = () => true,
): FeedKind {
  return {
    provider: 'espn',
    kind,
    unit,
    match: (url) => {
      const league = siteLeague(url, rest);
      return league !== null && accept(league);
    },
    parse: (body, url, log) => {
      const league = siteLeague(url, rest)!;
      const json = jsonBody(body, `espn ${kind}`, log);
      return json === null ? null : parse(json, league, log);
    },
  };
}

const count = <T>(list: readonly T[] | null): number | null => (list === null ? null : list.length);

const MLB_PEOPLE_STATS = 'api/v1/people/:id/stats';
const MLB_GAME_STATS = 'api/v1/people/:id/stats/game/:pk';
const isGameLogQuery = (url: URL) => url.searchParams.getAll('stats').some((s) => s.split(',').includes('gameLog'));

/**
 * Box scores and per-game stat splits carry no game date (nor, for the latter, the player's name);
 * the doctor only counts lines, so the lines it builds and discards get empty text rather than a
 * value guessed from elsewhere.
 */
const UNDATED = '';
const UNNAMED = '';

export const FEED_KINDS: readonly FeedKind[] = [
  // ---- The Odds API v4
  {
    provider: 'odds-api',
    kind: 'sports list',
    unit: 'sports',
    match: matches('v4/sports'),
    parse: (body, _url, log) => {
      const json = oddsJson(body, 'sports', log);
      return json === null ? null : parseSportsList(json, { log }).length;
    },
  },
  {
    provider: 'odds-api',
    kind: 'events',
    unit: 'events',
    match: matches(ODDS_EVENTS),
    parse: (body, _url, log) => {
      const json = oddsJson(body, 'events', log);
      return json === null ? null : parseEvents(json, { log }).length;
    },
  },
  {
    provider: 'odds-api',
    kind: 'historical events',
    unit: 'events',
    match: matches(ODDS_HIST_EVENTS),
    parse: (body, _url, log) => {
      const json = oddsJson(body, 'historical events', log);
      if (json === null) return null;
      warnIfNotWrapped(json, 'historical events', log);
      return parseEvents(json, { log }).length;
    },
  },
  {
    provider: 'odds-api',
    kind: 'event odds (player props)',
    unit: 'quotes',
    match: matches(ODDS_EVENT_ODDS),
    parse: (body, url, log) => {
      const json = oddsJson(body, 'event odds', log);
      return json === null ? null : parseEventPropQuotes(json, { log, ...requestedFormat(url) }).length;
    },
  },
  {
    provider: 'odds-api',
    kind: 'historical event odds',
    unit: 'quotes',
    match: matches(ODDS_HIST_EVENT_ODDS),
    parse: (body, url, log) => {
      const json = oddsJson(body, 'historical event odds', log);
      if (json === null) return null;
      warnIfNotWrapped(json, 'historical event odds', log);
      return parseEventPropQuotes(json, { log, ...requestedFormat(url) }).length;
    },
  },
  {
    provider: 'odds-api',
    kind: 'outrights (futures)',
    unit: 'boards',
    match: matches(ODDS_SPORT_ODDS, (p) => p['sport']!.endsWith('_winner')),
    parse: (body, url, log) => {
      const json = oddsJson(body, 'outrights', log);
      return json === null ? null : parseOutrights(json, { log, ...requestedFormat(url) }).length;
    },
  },
  {
    // propgrade reads featured markets (/odds) only for MMA; other sports' boards drop with a warning.
    provider: 'odds-api',
    kind: 'featured odds (mma h2h/totals)',
    unit: 'bouts',
    match: matches(ODDS_SPORT_ODDS, (p) => !p['sport']!.endsWith('_winner')),
    parse: (body, url, log) => {
      const json = oddsJson(body, 'featured odds', log);
      return json === null ? null : parseMmaFightOdds(json, { log, ...requestedFormat(url) }).length;
    },
  },

  // ---- ESPN
  siteKind('scoreboard', 'games', 'scoreboard', (json, league, log) => count(parseScoreboard(json, league, log)), (l) => l.sport !== 'mma'),
  siteKind(
    'fight cards',
    'bouts',
    'scoreboard',
    (json, league, log) => {
      const cards = parseFightCards(json, league, log);
      return cards === null ? null : cards.reduce((n, c) => n + c.bouts.length, 0);
    },
    (l) => l.sport === 'mma',
  ),
  siteKind('summary', 'player lines', 'summary', (json, league, log) => parseSummary(json, league, log)?.lines.length ?? null),
  siteKind('injuries', 'injuries', 'injuries', (json, league, log) => count(parseInjuries(json, league.sport, log))),
  siteKind('team roster', 'players', 'teams/:team/roster', (json, league, log) => count(parseRoster(json, league, log))),
  siteKind('news', 'items', 'news', (json, league, log) => count(parseNews(json, league, log))),
  {
    provider: 'espn',
    kind: 'news (now API)',
    unit: 'items',
    match: matches('v1/sports/news'),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'espn now news', log);
      // The all-sports feed names no league; the league only feeds team abbreviations, which the
      // doctor neither keeps nor reports.
      return json === null ? null : count(parseNews(json, espnLeague('mlb'), log));
    },
  },
  {
    provider: 'espn',
    kind: 'athlete season stats',
    unit: 'rows',
    match: matches(`${ESPN_WEB_ATHLETE}/stats`),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'espn athlete stats', log);
      return json === null ? null : count(parseAthleteSeasonStats(json, log));
    },
  },
  {
    provider: 'espn',
    kind: 'athlete game log',
    unit: 'games',
    match: matches(`${ESPN_WEB_ATHLETE}/gamelog`),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'espn athlete gamelog', log);
      return json === null ? null : count(parseAthleteGamelog(json, log));
    },
  },
  {
    provider: 'espn',
    kind: 'athlete core statistics',
    unit: 'stats',
    match: matches('v2/sports/:sport/leagues/:league/athletes/:id/statistics'),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'espn core statistics', log);
      const stats = json === null ? null : parseAthleteCoreStatistics(json, log);
      return stats === null ? null : Object.values(stats).reduce((n, cat) => n + Object.keys(cat).length, 0);
    },
  },

  // ---- MLB Stats API
  {
    provider: 'mlb-statsapi',
    kind: 'schedule',
    unit: 'games',
    match: matches('api/v1/schedule'),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'mlb schedule', log);
      return json === null ? null : count(parseSchedule(json, log));
    },
  },
  {
    provider: 'mlb-statsapi',
    kind: 'boxscore',
    unit: 'player lines',
    match: matches('api/v1/game/:pk/boxscore'),
    parse: (body, url, log) => {
      const json = jsonBody(body, 'mlb boxscore', log);
      const gamePk = Number(param(url, 'api/v1/game/:pk/boxscore', 'pk'));
      return json === null ? null : count(parseBoxscore(json, { gamePk, date: UNDATED }, log));
    },
  },
  {
    provider: 'mlb-statsapi',
    kind: 'live feed',
    unit: 'player lines',
    match: matches('api/v1.1/game/:pk/feed/live'),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'mlb live feed', log);
      return json === null ? null : (parseLiveFeed(json, log)?.lines.length ?? null);
    },
  },
  {
    provider: 'mlb-statsapi',
    kind: 'people',
    unit: 'people',
    match: (url) => matches('api/v1/people/:id')(url) || matches('api/v1/sports/:sportId/players')(url),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'mlb people', log);
      return json === null ? null : count(parsePeople(json, log));
    },
  },
  {
    provider: 'mlb-statsapi',
    kind: 'team roster',
    unit: 'players',
    match: matches('api/v1/teams/:id/roster'),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'mlb team roster', log);
      return json === null ? null : count(parseTeamRoster(json, log));
    },
  },
  {
    provider: 'mlb-statsapi',
    kind: 'season stats',
    unit: 'stat lines',
    match: matches(MLB_PEOPLE_STATS, (_p, url) => !isGameLogQuery(url)),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'mlb season stats', log);
      return json === null ? null : count(parseSeasonStats(json, log));
    },
  },
  {
    provider: 'mlb-statsapi',
    kind: 'game log',
    unit: 'games',
    match: (url) => matches(MLB_PEOPLE_STATS, (_p, u) => isGameLogQuery(u))(url) || matches(MLB_GAME_STATS)(url),
    parse: (body, url, log) => {
      const json = jsonBody(body, 'mlb game log', log);
      if (json === null) return null;
      const perGame = pathParams(url, MLB_GAME_STATS);
      const mlbamId = Number((perGame ?? pathParams(url, MLB_PEOPLE_STATS))?.['id']);
      const ctx = { mlbamId, playerName: UNNAMED, ...(perGame ? { gamePk: Number(perGame['pk']) } : {}) };
      return count(parseGameLog(json, ctx, log));
    },
  },

  // ---- Baseball Savant
  {
    provider: 'savant',
    kind: 'pitch arsenal stats',
    unit: 'pitchers',
    match: matches('leaderboard/pitch-arsenal-stats'),
    parse: (body, _url, log) => {
      const rows = parseArsenalStatsCsv(body, log);
      return rows === null ? null : new Set(rows.map((r) => r.mlbamId)).size;
    },
  },
  {
    provider: 'savant',
    kind: 'pitch velocity (avg speed)',
    unit: 'pitchers',
    match: matches('leaderboard/pitch-arsenals', (_p, url) => url.searchParams.get('type') === 'avg_speed'),
    parse: (body, _url, log) => count(parseAvgSpeedCsv(body, log)),
  },
];

/** The catalogued kind a provider URL answers, or null (reported as "unknown kind"). */
export function classifyFeed(provider: ProviderId, url: string): FeedKind | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  return FEED_KINDS.find((k) => k.provider === provider && k.match(parsed)) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Report

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

export const kindSummarySchema = z.object({
  kind: z.string(),
  unit: z.string().nullable(),
  entries: z.number().int(),
  parsed: z.number().int(),
  /** Failed, unreachable or unknown. */
  failed: z.number().int(),
  records: z.number().int(),
  warnings: z.number().int(),
});
export type KindSummary = z.infer<typeof kindSummarySchema>;

export const providerReportSchema = z.object({
  provider: providerIdSchema,
  /** Why the provider was not probed (live mode without a key); null when it was. */
  skipped: z.string().nullable(),
  /** Every request got an answer; null when nothing was asked. */
  reachable: z.boolean().nullable(),
  ok: z.boolean(),
  entries: z.number().int(),
  parsed: z.number().int(),
  failed: z.number().int(),
  unknown: z.number().int(),
  kinds: z.array(kindSummarySchema),
  /** The latest x-requests-* headers seen (Odds API). */
  credits: creditHeadersSchema.nullable(),
});
export type ProviderReport = z.infer<typeof providerReportSchema>;

export const feedsCheckReportSchema = z.object({
  mode: z.enum(['replay', 'live']),
  /** The replay folder, or "live". */
  source: z.string(),
  /** Live: the slate date probed (ET). */
  date: z.string().nullable(),
  ok: z.boolean(),
  providers: z.array(providerReportSchema),
  entries: z.array(checkEntrySchema),
  /** Problems with the folder itself (unreadable keys). */
  warnings: z.array(z.string()),
});
export type FeedsCheckReport = z.infer<typeof feedsCheckReportSchema>;

/** `absentReason`: how to describe a provider with no entries at all (replay folders hold a subset). */
function summarise(entries: readonly CheckEntry[], skipped: Partial<Record<ProviderId, string>>, absentReason: string | null): ProviderReport[] {
  return PROVIDER_IDS.map((provider) => {
    const mine = entries.filter((e) => e.provider === provider);
    const kinds = new Map<string, KindSummary>();
    let credits: CreditHeaders | null = null;
    for (const e of mine) {
      const k = kinds.get(e.kind) ?? { kind: e.kind, unit: e.unit, entries: 0, parsed: 0, failed: 0, records: 0, warnings: 0 };
      k.entries += 1;
      if (e.outcome === 'parsed') {
        k.parsed += 1;
        k.records += e.records ?? 0;
      } else k.failed += 1;
      k.warnings += e.warnings.length;
      kinds.set(e.kind, k);
      credits = e.credits ?? credits;
    }
    const tally = (o: CheckEntry['outcome']) => mine.filter((e) => e.outcome === o).length;
    const failed = tally('failed') + tally('unreachable');
    const unknown = tally('unknown-kind');
    const reachable = mine.length === 0 ? null : tally('unreachable') === 0;
    const skip = skipped[provider] ?? (mine.length === 0 && absentReason !== null ? absentReason : null);
    return {
      provider,
      skipped: skip,
      reachable,
      ok: skip !== null || (mine.length > 0 && failed === 0 && unknown === 0),
      entries: mine.length,
      parsed: tally('parsed'),
      failed,
      unknown,
      kinds: [...kinds.values()].sort((a, b) => a.kind.localeCompare(b.kind)),
      credits,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Fetch + parse one request

interface Probe {
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

async function checkOne(transport: Transport, probe: Probe, secretQuery?: Record<string, string>): Promise<CheckEntry> {
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

// ---------------------------------------------------------------------------------------------
// Replay mode

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
 * replay's snapshot selection is exercised), classified by URL and parsed by its adapter.
 * A missing or invalid manifest is a configuration error (AppError BAD_INPUT).
 */
export async function checkReplayFolder(dir: string): Promise<FeedsCheckReport> {
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
  const providers = summarise(entries, {}, 'no recordings for this provider in the folder');
  const used = providers.filter((p) => p.entries > 0);
  return {
    mode: 'replay',
    source: dir,
    date: null,
    ok: warnings.length === 0 && used.length > 0 && used.every((p) => p.ok),
    providers,
    entries,
    warnings,
  };
}

// ---------------------------------------------------------------------------------------------
// Live mode

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

export const NO_ODDS_KEY = 'ODDS_API_KEY is not set: Odds API probes skipped (ESPN, MLB Stats API and Savant need no key)';

export interface LiveCheckOptions {
  /** Slate date (yyyy-mm-dd); default: today in US Eastern time by `now`. */
  date?: string;
  now: Date;
  oddsApiKey?: string | undefined;
  bases?: ProbeBases;
}

/** Probes every provider live through `transport` (live or record); the key travels only as a secret query. */
export async function checkLive(transport: Transport, opts: LiveCheckOptions): Promise<FeedsCheckReport> {
  const date = opts.date ?? easternDate(opts.now);
  const withOddsApi = Boolean(opts.oddsApiKey);
  const probes = liveProbes(date, { withOddsApi, ...(opts.bases ? { bases: opts.bases } : {}) });
  const secret = opts.oddsApiKey ? { apiKey: opts.oddsApiKey } : undefined;
  const entries = await Promise.all(probes.map((p) => checkOne(transport, p, p.provider === 'odds-api' ? secret : undefined)));
  const providers = summarise(entries, withOddsApi ? {} : { 'odds-api': NO_ODDS_KEY }, null);
  return {
    mode: 'live',
    source: 'live',
    date,
    ok: providers.every((p) => p.ok),
    providers,
    entries,
    warnings: [],
  };
}
