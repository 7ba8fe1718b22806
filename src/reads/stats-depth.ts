import { isPlayedGame, minutesAverage, seasonContaining } from '../domain/leaders.js';
import type { GradedSport } from '../domain/sports.js';
import { easternDate } from '../domain/time.js';
import { espnLeague, fetchRosterPage, type RosterPage, type RosterPlayer } from '../feeds/espn/index.js';
import { MLB_TEAMS, NBA_TEAMS, teamAbbr, WNBA_TEAMS } from '../feeds/teams/index.js';
import { hasTeamLines } from '../store/repo/game-stats.js';
import { freshnessOf, type Freshness } from '../store/cache.js';
import { contextKey, loadLog, replayTracking, requireUpstream, type ContextDeps } from '../feeds/context.js';
import { STATS_CACHE, teamLines } from './stats-common.js';

/**
 * GET /api/stats/depth and `propgrade stats depth`: a team's depth chart per position from the
 * provider's roster (ESPN team roster, cached one hour), with the roster's own time. ESPN's roster
 * carries positions but no depth order, so within a position the order is read from the stored
 * real game lines of this season (minutes per game for basketball, games for MLB), and players
 * with no stored games follow in the roster's own order. Each position says which basis it used.
 */

export const DEPTH_SPORTS = ['nba', 'wnba', 'mlb'] as const satisfies readonly GradedSport[];
export type DepthSport = (typeof DEPTH_SPORTS)[number];

/** Positions in the order a depth chart reads them; anything else follows alphabetically. */
const POSITION_ORDER: Record<DepthSport, readonly string[]> = {
  nba: ['PG', 'SG', 'G', 'SF', 'PF', 'F', 'C'],
  wnba: ['PG', 'SG', 'G', 'SF', 'PF', 'F', 'C'],
  mlb: ['SP', 'RP', 'P', 'C', '1B', '2B', 'SS', '3B', 'IF', 'LF', 'CF', 'RF', 'OF', 'DH'],
};

export interface DepthPlayer {
  depth: number;
  player: string;
  key: string;
  jersey: string | null;
  position: string | null;
  injury: { status: string; chip: string | null } | null;
  /**
   * Stored played games for this team this season: 0 only where the store holds the team's full box
   * scores (basketball) and none of them has him; null where it cannot say (no line stored for the
   * team this season, or MLB, whose stored history is starting pitchers' logs only).
   */
  games: number | null;
  minutesAvg: number | null;
}

export interface DepthPosition {
  position: string;
  basis: string;
  players: DepthPlayer[];
}

export type DepthView =
  | ({
      sport: DepthSport;
      team: { abbr: string; name: string };
      available: true;
      source: string;
      /** The roster payload's own timestamp: when the provider built it. */
      providerTime: string | null;
      providerSeason: string | null;
      /** The season the stored games are counted in. */
      statsSeason: string;
      positions: DepthPosition[];
      players: number;
    } & Freshness)
  | { sport: DepthSport; team: { abbr: string; name: string }; available: false; reason: string }
  | { status: 'unknown_team'; query: string; sport: DepthSport | null };

function teamName(sport: DepthSport, abbr: string): string {
  const table = sport === 'mlb' ? MLB_TEAMS : sport === 'nba' ? NBA_TEAMS : WNBA_TEAMS;
  return table.find((t) => t.espn === abbr)?.name ?? abbr;
}

/** Which team a code means: the asked sport, else the tabled sport whose store holds lines for it, else the first that tables it. */
export async function depthTeam(deps: Pick<ContextDeps, 'store'>, input: string, sport?: DepthSport): Promise<{ sport: DepthSport; abbr: string } | null> {
  const options = (sport ? [sport] : DEPTH_SPORTS).flatMap((s) => {
    const abbr = teamAbbr(s, input);
    return abbr ? [{ sport: s, abbr }] : [];
  });
  for (const o of options) if (await hasTeamLines(deps.store, o.sport, [o.abbr])) return o;
  return options[0] ?? null;
}

/** Pure: the roster by position, each ordered by the stored games (see the module comment). */
export function depthChart(sport: DepthSport, page: RosterPage, usage: ReadonlyMap<string, { games: number; minutesAvg: number | null }>): DepthPosition[] {
  // A missing player is a real 0 only where the store holds every box score line of the team.
  const zeroIsReal = sport !== 'mlb' && usage.size > 0;
  const order = POSITION_ORDER[sport];
  const byPosition = new Map<string, Array<{ p: RosterPlayer; i: number }>>();
  page.groups.flatMap((g) => g.players).forEach((p, i) => {
    const pos = p.position ?? '-';
    const list = byPosition.get(pos) ?? [];
    list.push({ p, i });
    byPosition.set(pos, list);
  });
  const rank = (pos: string) => (order.includes(pos) ? order.indexOf(pos) : order.length);
  const metric = (key: string) => {
    const u = usage.get(key);
    if (!u || u.games === 0) return null;
    return sport === 'mlb' ? u.games : (u.minutesAvg ?? null);
  };
  return [...byPosition.entries()]
    .sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0]))
    .map(([position, list]) => {
      const sorted = [...list].sort((a, b) => {
        const x = metric(a.p.playerKey);
        const y = metric(b.p.playerKey);
        if (x !== null && y !== null && x !== y) return y - x;
        if (x !== null && y === null) return -1;
        if (x === null && y !== null) return 1;
        return a.i - b.i;
      });
      const anyStored = sorted.some((s) => metric(s.p.playerKey) !== null);
      return {
        position,
        basis: anyStored
          ? `${sport === 'mlb' ? 'stored games' : 'minutes per played game'} for the team this season, then the roster order for players with none stored`
          : 'the roster order (the provider publishes no depth order and the store holds no games for these players this season)',
        players: sorted.map(({ p }, i) => {
          const u = usage.get(p.playerKey);
          return {
            depth: i + 1,
            player: p.playerName,
            key: p.playerKey,
            jersey: p.jersey,
            position: p.position,
            injury: p.injury ? { status: p.injury.status, chip: p.injury.chip } : null,
            games: u?.games ?? (zeroIsReal ? 0 : null),
            minutesAvg: u?.minutesAvg ?? null,
          };
        }),
      };
    });
}

export async function readDepth(deps: ContextDeps, input: string, options: { sport?: DepthSport; refresh?: boolean } = {}): Promise<DepthView> {
  const team = await depthTeam(deps, input, options.sport);
  if (team === null) return { status: 'unknown_team', query: input, sport: options.sport ?? null };
  const { sport, abbr } = team;
  const ref = { abbr, name: teamName(sport, abbr) };
  requireUpstream(deps, 'depth charts');
  const read = await deps.cache.read<RosterPage>(contextKey(deps.providers, 'stats-depth', sport, abbr), STATS_CACHE.depth, deps.now, {
    ...replayTracking(deps),
    ...(options.refresh ? { refresh: true } : {}),
    load: async () => {
      const log = loadLog(deps.log);
      const page = await fetchRosterPage(deps.providers.keyless, espnLeague(sport), abbr, log);
      if (page === null) return { ok: false, reason: log.why(`no ESPN ${sport} roster for ${abbr}`) };
      if (page.groups.every((g) => g.players.length === 0)) return { ok: false, reason: `the ESPN ${sport} roster for ${abbr} lists no players` };
      return { ok: true, value: page };
    },
  });
  if (!read.ok) return { sport, team: ref, available: false, reason: read.reason };
  const today = easternDate(deps.now);
  const season = seasonContaining(sport, today);
  const lines = (await teamLines(deps.store, sport, abbr, season.from, today)).filter((l) => isPlayedGame(sport, l));
  const usage = new Map<string, { games: number; minutesAvg: number | null }>();
  const byPlayer = new Map<string, typeof lines>();
  for (const l of lines) byPlayer.set(l.playerKey, [...(byPlayer.get(l.playerKey) ?? []), l]);
  for (const [key, own] of byPlayer) usage.set(key, { games: own.length, minutesAvg: sport === 'mlb' ? null : (minutesAverage(own)?.avg ?? null) });
  const positions = depthChart(sport, read.value, usage);
  return {
    sport,
    team: ref,
    available: true,
    source: `ESPN ${sport.toUpperCase()} team roster`,
    providerTime: read.value.timestamp,
    providerSeason: read.value.season,
    statsSeason: season.label,
    positions,
    players: positions.reduce((n, p) => n + p.players.length, 0),
    ...freshnessOf(read),
  };
}
