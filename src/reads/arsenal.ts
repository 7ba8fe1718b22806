import { normalizeName } from '../domain/names.js';
import { PlayerIndex, searchPlayers } from '../domain/player-index.js';
import { easternDate } from '../domain/time.js';
import { buildArsenalIndex, fetchArsenalRows, pitcherArsenal, type ArsenalIndex, type ArsenalStatRow, type AvgSpeedRow } from '../feeds/savant/index.js';
import { freshnessOf, type Freshness } from '../store/cache.js';
import { contextKey, loadLog, replayTracking, requireUpstream, type ContextDeps } from '../feeds/context.js';
import { rankSuggestions, type PlayerSuggestion } from './player-lookup.js';
import { STATS_CACHE } from './stats-common.js';

/**
 * GET /api/stats/pitcher/{name}/arsenal and `propgrade stats arsenal` (spec: Pitcher arsenal):
 * Baseball Savant's two season exports (pitch-arsenal-stats: usage, whiff %, per-pitch K%;
 * pitch-arsenals avg_speed: velocity) joined on the MLBAM id, per pitch type ranked by usage, plus
 * the pitcher's strikeout %. Cached 24 hours per season (both CSVs in one entry). A missing velocity
 * or whiff value stays null, never 0. An unknown pitcher, an unknown data shape or an upstream error
 * answers `{found: false}` with the reason; an ambiguous name answers the candidates, never a guess.
 */

export interface ArsenalPitchView {
  pitchType: string;
  pitchName: string | null;
  /** Share of the pitcher's pitches, %; its n is `pitches`. */
  usagePct: number;
  /** Whiffs / swings, %; null when Savant's cell is empty (never 0). The export carries no swing count. */
  whiffPct: number | null;
  /** Average velocity in mph from the avg_speed export; null when it has no cell or no row for him. */
  velocityMph: number | null;
  /** Strikeouts / PAs ending on this pitch type, %; its n is `pa`. */
  kPct: number | null;
  pitches: number | null;
  pa: number | null;
}

export interface ArsenalCandidate {
  name: string;
  key: string;
  mlbamId: number;
  team: string | null;
}

export type ArsenalView =
  | ({
      found: true;
      season: number;
      pitcher: { name: string; key: string; mlbamId: number; team: string | null };
      pitches: ArsenalPitchView[];
      /** PA-weighted per-pitch K% (the adapter's strikeoutPct); n is `pa`. */
      strikeoutPct: number | null;
      pa: number | null;
      source: string;
    } & Freshness)
  | { found: false; season: number; query: string; reason: string; suggestions?: PlayerSuggestion[] }
  | { status: 'ambiguous'; query: string; season: number; candidates: ArsenalCandidate[] };

/**
 * The season a request means when it names none: the clock's year from April (regular-season
 * exports exist from opening day, late March), else the previous year (an off-season read means
 * the season just played).
 */
export function defaultArsenalSeason(now: Date): number {
  const today = easternDate(now);
  const year = Number(today.slice(0, 4));
  return Number(today.slice(5, 7)) >= 4 ? year : year - 1;
}

interface ArsenalRows {
  stats: ArsenalStatRow[];
  speeds: AvgSpeedRow[];
}

/** The joined index of the last rows read, per cache entry (rebuilding 3,500 rows per request is waste). */
const built = new Map<string, ArsenalIndex>();

function indexOf(cacheKey: string, fetchedAt: string, rows: ArsenalRows): ArsenalIndex {
  const memo = `${cacheKey}@${fetchedAt}`;
  const hit = built.get(memo);
  if (hit) return hit;
  const index = buildArsenalIndex(rows.stats, rows.speeds);
  if (built.size >= 4) built.delete(built.keys().next().value!);
  built.set(memo, index);
  return index;
}

type Lookup = { status: 'resolved'; mlbamId: number } | { status: 'ambiguous'; candidates: ArsenalCandidate[] } | { status: 'unknown'; suggestions: PlayerSuggestion[] };

/** A pitcher among the season's export by MLBAM id or normalized name: one identity resolves; two share a key: ambiguous (Savant 2025 has two Luis Garcias). */
export function findPitcher(stats: readonly ArsenalStatRow[], query: string): Lookup {
  const people = new Map<number, ArsenalCandidate>();
  for (const r of stats) {
    if (people.has(r.mlbamId)) continue;
    const n = normalizeName(r.pitcherName);
    people.set(r.mlbamId, { name: n.display, key: n.key, mlbamId: r.mlbamId, team: r.team });
  }
  const index = new PlayerIndex<ArsenalCandidate>({ identityOf: (c) => c.mlbamId });
  for (const c of people.values()) index.add(c.name, c);
  const byKey = (key: string) => [...people.values()].filter((c) => c.key === key);
  // An MLBAM id names one pitcher whatever his name: the way out of an ambiguous name.
  if (/^\d{3,8}$/.test(query.trim())) {
    const id = Number(query.trim());
    return people.has(id) ? { status: 'resolved', mlbamId: id } : { status: 'unknown', suggestions: [] };
  }
  const key = normalizeName(query).key;
  const exact = byKey(key);
  if (exact.length === 1) return { status: 'resolved', mlbamId: exact[0]!.mlbamId };
  if (exact.length > 1) return { status: 'ambiguous', candidates: exact.map(candidate) };
  const hit = index.lookup(query);
  if (hit && hit.meta.length > 0) return { status: 'resolved', mlbamId: hit.meta[0]!.mlbamId };
  const near = searchPlayers(index, query, 8).flatMap((c) => byKey(c.key));
  if (near.length > 0) return { status: 'ambiguous', candidates: near.slice(0, 8).map(candidate) };
  return { status: 'unknown', suggestions: rankSuggestions([...people.values()].map((c) => ({ name: c.name, key: c.key, sport: 'mlb' as const })), query) };
}

function candidate(c: ArsenalCandidate): ArsenalCandidate {
  return { name: c.name, key: c.key, mlbamId: c.mlbamId, team: c.team };
}

export async function readArsenal(deps: ContextDeps, name: string, options: { season?: number; refresh?: boolean } = {}): Promise<ArsenalView> {
  const season = options.season ?? defaultArsenalSeason(deps.now);
  requireUpstream(deps, 'the Baseball Savant arsenal');
  const key = contextKey(deps.providers, 'arsenal', String(season));
  const read = await deps.cache.read<ArsenalRows>(key, STATS_CACHE.arsenal, deps.now, {
    ...replayTracking(deps),
    ...(options.refresh ? { refresh: true } : {}),
    load: async () => {
      const log = loadLog(deps.log);
      const rows = await fetchArsenalRows(deps.providers.keyless, season, log);
      return rows === null ? { ok: false, reason: log.why(`no readable Baseball Savant arsenal exports for ${season}`) } : { ok: true, value: rows };
    },
  });
  if (!read.ok) return { found: false, season, query: name, reason: read.reason };
  const who = findPitcher(read.value.stats, name);
  if (who.status === 'ambiguous') return { status: 'ambiguous', query: name, season, candidates: who.candidates };
  if (who.status === 'unknown') {
    return { found: false, season, query: name, reason: `no pitcher '${name}' in the ${season} Baseball Savant arsenal export`, suggestions: who.suggestions };
  }
  const index = indexOf(key, read.fetchedAt, read.value);
  const arsenal = pitcherArsenal(index, who.mlbamId);
  if (!arsenal.found) return { found: false, season, query: name, reason: `no arsenal rows for MLBAM id ${who.mlbamId} in ${season}` };
  const own = index.stats.get(who.mlbamId) ?? [];
  const pas = own.map((r) => r.pa);
  return {
    found: true,
    season,
    pitcher: { name: arsenal.pitcher.name, key: arsenal.pitcher.key, mlbamId: arsenal.pitcher.mlbamId, team: arsenal.pitcher.team },
    pitches: arsenal.pitches.map((p) => {
      const row = own.find((r) => r.pitchType === p.pitchType);
      return { pitchType: p.pitchType, pitchName: p.pitchName, usagePct: p.usagePct, whiffPct: p.whiffPct, velocityMph: p.velocity, kPct: p.kPct, pitches: row?.pitches ?? null, pa: row?.pa ?? null };
    }),
    strikeoutPct: arsenal.strikeoutPct,
    pa: pas.every((n): n is number => n !== null) ? pas.reduce((a, b) => a + b, 0) : null,
    source: `Baseball Savant ${season} pitch-arsenal-stats and pitch-arsenals (avg_speed) exports`,
    ...freshnessOf(read),
  };
}
