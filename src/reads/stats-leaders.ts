import { badInput } from '../errors.js';
import { cutLeaders, LEADER_MIN_GAMES_SHARE, parseSeason, rankPlayers, seasonContaining, type LeaderRow, type SeasonWindow } from '../domain/leaders.js';
import type { GradedSport } from '../domain/sports.js';
import { parseStat, STATS, statsForSport, type StatType } from '../domain/stats.js';
import { easternDate } from '../domain/time.js';
import type { Freshness } from '../store/cache.js';
import type { ContextDeps } from '../feeds/context.js';
import { dataVersion, sportLines, statsMemos, storeDerived } from './stats-common.js';

/**
 * GET /api/stats/leaders and `propgrade stats leaders`: per-game leaders of one stat in one season
 * from the stored real game lines, with the documented minimum of games played (70% of the most
 * games any team has stored in the season so far; docs/stats.md).
 */

export const LEADERS_DEFAULT_LIMIT = 10;

export interface LeadersRequest {
  sport: GradedSport;
  stat: string;
  season?: string;
  minGames?: number;
  limit?: number;
  refresh?: boolean;
}

export type LeadersView =
  | ({
      sport: GradedSport;
      stat: StatType;
      label: string;
      season: string;
      from: string;
      /** Lines before this ET date count (the clock's date, or the season's end). */
      until: string;
      available: true;
      minGames: number;
      minGamesRule: string;
      teamGamesMax: number;
      players: number;
      qualified: number;
      leaders: LeaderRow[];
      coverage: string;
    } & Freshness)
  | { sport: GradedSport; stat: StatType; season: string; available: false; reason: string };

/** The stat and season of a request, or BAD_INPUT naming what was typed. */
export function leadersInput(sport: GradedSport, statText: string, seasonText: string | undefined, today: string): { stat: StatType; window: SeasonWindow } {
  const stat = parseStat(statText);
  if (stat === null || !statsForSport(sport).includes(stat)) {
    throw badInput(`stat: '${statText}' is not a ${sport} stat (one of ${statsForSport(sport).join(', ')})`);
  }
  const window = seasonText === undefined ? seasonContaining(sport, today) : parseSeason(sport, seasonText);
  if (window === null) throw badInput(`season: '${seasonText}' is not a ${sport} season (${sport === 'nba' || sport === 'soccer' ? 'e.g. 2024-25 or 2024' : 'e.g. 2025'})`);
  return { stat, window };
}

export async function readLeaders(deps: ContextDeps, req: LeadersRequest): Promise<LeadersView> {
  const today = easternDate(deps.now);
  const { stat, window } = leadersInput(req.sport, req.stat, req.season, today);
  const limit = req.limit ?? LEADERS_DEFAULT_LIMIT;
  if (window.from >= today) return { sport: req.sport, stat, season: window.label, available: false, reason: `the ${window.label} season has not started by ${today}` };
  const until = window.until < today ? window.until : today;
  // Every player ranked once per stat, season and stored data; a minimum and a limit only cut it.
  // The season's lines are read once for all the sport's stats: each is kept under its own key.
  const version = await dataVersion(deps.store, req.sport);
  const keyOf = (s: StatType) => ['leaders', req.sport, s, window.label, until, version].join(':');
  const read = await storeDerived('leaders', deps, keyOf(stat), req.refresh, async () => {
    const lines = await sportLines(deps.store, req.sport, window.from, window.until, today);
    const at = deps.now.toISOString();
    for (const other of statsForSport(req.sport)) if (other !== stat) statsMemos.leaders.set(deps.store, keyOf(other), { at, value: rankPlayers(req.sport, other, lines) });
    return rankPlayers(req.sport, stat, lines);
  });
  if (read.value.players === 0) return { sport: req.sport, stat, season: window.label, available: false, reason: `no stored ${req.sport} game lines with ${STATS[stat].label.toLowerCase()} in ${window.label} before ${until}` };
  const board = cutLeaders(read.value, { ...(req.minGames !== undefined ? { minGames: req.minGames } : {}), limit });
  return {
    sport: req.sport,
    stat,
    label: STATS[stat].label,
    season: window.label,
    from: window.from,
    until,
    available: true,
    minGames: board.minGames,
    minGamesRule:
      req.minGames !== undefined
        ? `asked for: ${req.minGames}+ played games`
        : `${Math.round(LEADER_MIN_GAMES_SHARE * 100)}% of the most games any team has stored this season (${board.teamGamesMax}), rounded up`,
    teamGamesMax: board.teamGamesMax,
    players: board.players,
    qualified: board.qualified,
    leaders: board.leaders,
    coverage: 'players with stored game lines only (the imported history and settled box scores); a player the store does not hold is not ranked',
    fetchedAt: read.fetchedAt,
    ageSeconds: read.ageSeconds,
    stale: read.stale,
  };
}
