import { displayState, type LineupBoard } from '../domain/display-state.js';
import type { GradedSport } from '../domain/sports.js';
import { easternDate } from '../domain/time.js';
import { fetchLiveFeed, fetchSchedule, startingLineup, type LineupEntry, type MlbPlayerLine, type MlbScheduleGame } from '../feeds/mlb-statsapi/index.js';
import { latestSnapshot, snapshotRows } from '../store/repo/snapshots.js';
import { freshnessOf, type Freshness } from '../store/cache.js';
import { contextKey, loadLog, replayTracking, requireUpstream, type ContextDeps } from '../feeds/context.js';
import { STATS_CACHE } from './stats-common.js';

/**
 * GET /api/stats/lineup and `propgrade stats lineup`: the day's lineups per team with each
 * player's CONFIRMED (batting slot) / NOT_IN / PROJECTED state. The state comes from the same rule
 * the snapshot stores for /api/schedule/{sport}/lineups (displayState over a LineupBoard,
 * src/domain/display-state.ts); the board comes from the MLB Stats API (cached 10 minutes):
 * the schedule's posted lineups, and for a game already started whose schedule carries none, its
 * starting nine from the live feed (a started game's lineup was posted). A started game whose feed
 * cannot be read says so and shows no states (it is not "not posted").
 */

export type LineupState = 'CONFIRMED' | 'NOT_IN' | 'PROJECTED';

interface TeamLineupData {
  team: string | null;
  side: 'home' | 'away';
  /** true: a lineup is posted; false: not posted yet; null: unknown (the source could not be read). */
  posted: boolean | null;
  source: string | null;
  note: string | null;
  lineup: LineupEntry[];
  /** Players who came in for a starter (the live feed's substitutes): in the game, not in the posted lineup. */
  substitutes: Array<{ playerName: string; playerKey: string }>;
}

interface GameLineupData {
  gameId: string;
  game: string;
  commenceTime: string;
  status: string;
  teams: TeamLineupData[];
}

export interface LineupPlayer {
  player: string;
  key: string;
  state: LineupState;
  battingSlot: number | null;
}

export interface TeamLineup {
  team: string | null;
  side: 'home' | 'away';
  posted: boolean | null;
  source: string | null;
  note: string | null;
  players: LineupPlayer[];
}

export type LineupView =
  | ({ sport: 'mlb'; date: string; available: true; rule: string; games: Array<Omit<GameLineupData, 'teams'> & { teams: TeamLineup[] }>; counts: Record<LineupState, number> } & Freshness)
  | { sport: GradedSport; date: string; available: false; reason: string };

/** Stats whose rows carry a lineup state (display-state's LINEUP_STATS): the batters a snapshot graded. */
const BATTING_STATS = new Set(['hits', 'total_bases', 'home_runs']);

async function loadSlate(deps: ContextDeps, date: string): Promise<{ ok: true; value: GameLineupData[] } | { ok: false; reason: string }> {
  const log = loadLog(deps.log);
  const games = await fetchSchedule(deps.providers.keyless, date, log);
  if (games === null) return { ok: false, reason: log.why(`no MLB Stats API schedule for ${date}`) };
  // Games are read in parallel (the transport bounds concurrency per host); the order stays the schedule's.
  return { ok: true, value: await Promise.all(games.map((g) => gameLineup(deps, g))) };
}

async function gameLineup(deps: ContextDeps, g: MlbScheduleGame): Promise<GameLineupData> {
  const started = g.status === 'in_progress' || g.status === 'final' || g.status === 'suspended';
  let feed: { lines: MlbPlayerLine[] } | null | undefined;
  let feedWhy = '';
  const teams: TeamLineupData[] = [];
  for (const [side, team, posted] of [
    ['away', g.event.awayAbbr, g.awayLineup],
    ['home', g.event.homeAbbr, g.homeLineup],
  ] as const) {
    if (posted !== null) {
      teams.push({ team, side, posted: true, source: 'MLB Stats API schedule (posted lineup)', note: null, lineup: posted, substitutes: [] });
      continue;
    }
    if (!started) {
      teams.push({ team, side, posted: false, source: 'MLB Stats API schedule', note: 'lineup not posted yet', lineup: [], substitutes: [] });
      continue;
    }
    if (feed === undefined) {
      const feedLog = loadLog(deps.log);
      feed = await fetchLiveFeed(deps.providers.keyless, g.gamePk, feedLog);
      feedWhy = feedLog.why('live feed unavailable');
    }
    const starters = feed ? startingLineup(feed.lines, side) : [];
    if (!feed || starters.length === 0) {
      teams.push({ team, side, posted: null, source: null, note: `game ${g.status}, but its starting lineup could not be read (${feed ? 'no batting order in the live feed' : feedWhy}): no states shown`, lineup: [], substitutes: [] });
      continue;
    }
    const substitutes = feed.lines
      .filter((l) => l.side === side && l.battingOrder !== null && !l.starter)
      .map((l) => ({ playerName: l.stat.playerName, playerKey: l.stat.playerKey }));
    teams.push({ team, side, posted: true, source: 'MLB Stats API live feed (starting batting order)', note: null, lineup: starters, substitutes });
  }
  return { gameId: String(g.gamePk), game: `${g.event.awayTeam} @ ${g.event.homeTeam}`, commenceTime: g.event.commenceTime, status: g.status, teams };
}

/** Pure: each team's players with their state from the board all posted lineups make, plus the snapshot's graded batters. */
export function lineupStates(games: readonly GameLineupData[], graded: ReadonlyArray<{ player: string; playerKey: string; team: string | null }>): Array<Omit<GameLineupData, 'teams'> & { teams: TeamLineup[] }> {
  const confirmed = new Map<string, number>();
  const postedTeams = new Set<string>();
  for (const g of games) {
    for (const t of g.teams) {
      if (t.posted !== true) continue;
      if (t.team !== null) postedTeams.add(t.team);
      for (const e of t.lineup) confirmed.set(e.playerKey, e.battingSlot);
    }
  }
  const board: LineupBoard = { confirmed, postedTeams };
  const order: Record<LineupState, number> = { CONFIRMED: 0, NOT_IN: 1, PROJECTED: 2 };
  return games.map((g) => ({
    ...g,
    teams: g.teams.map((t) => {
      if (t.posted === null) return { team: t.team, side: t.side, posted: null, source: t.source, note: t.note, players: [] };
      const names = new Map<string, string>();
      for (const e of t.lineup) names.set(e.playerKey, e.playerName);
      for (const s of t.substitutes) if (!names.has(s.playerKey)) names.set(s.playerKey, s.playerName);
      for (const r of graded) if (t.team !== null && r.team === t.team && !names.has(r.playerKey)) names.set(r.playerKey, r.player);
      const players: LineupPlayer[] = [...names.entries()].flatMap(([key, player]) => {
        const s = displayState(key, t.team, 'hits', null, board);
        return s.lineupStatus === null ? [] : [{ player, key, state: s.lineupStatus, battingSlot: s.battingSlot }];
      });
      players.sort((a, b) => order[a.state] - order[b.state] || (a.battingSlot ?? 99) - (b.battingSlot ?? 99) || a.player.localeCompare(b.player, 'en'));
      return { team: t.team, side: t.side, posted: t.posted, source: t.source, note: t.note, players };
    }),
  }));
}

export async function readLineups(deps: ContextDeps, sport: GradedSport, options: { date?: string; refresh?: boolean } = {}): Promise<LineupView> {
  const date = options.date ?? easternDate(deps.now);
  if (sport !== 'mlb') return { sport, date, available: false, reason: 'lineup states (CONFIRMED with batting slot, NOT_IN, PROJECTED) exist for MLB batting orders only' };
  requireUpstream(deps, 'MLB lineups');
  const read = await deps.cache.read<GameLineupData[]>(contextKey(deps.providers, 'stats-lineup', 'mlb', date), STATS_CACHE.lineup, deps.now, {
    ...replayTracking(deps),
    ...(options.refresh ? { refresh: true } : {}),
    load: () => loadSlate(deps, date),
  });
  if (!read.ok) return { sport, date, available: false, reason: read.reason };
  if (read.value.length === 0) return { sport, date, available: false, reason: `the MLB Stats API lists no games on ${date}` };
  // The newest MLB snapshot taken by the clock, never a later one (issue 41 item 5).
  const snapshot = await latestSnapshot(deps.store, 'mlb', deps.forSport ? deps.forSport('mlb') : deps.now);
  const graded = snapshot && snapshot.slateDate === date ? (await snapshotRows(deps.store, snapshot.id)).filter((r) => BATTING_STATS.has(r.statType)) : [];
  const games = lineupStates(read.value, graded);
  const counts: Record<LineupState, number> = { CONFIRMED: 0, NOT_IN: 0, PROJECTED: 0 };
  for (const g of games) for (const t of g.teams) for (const p of t.players) counts[p.state] += 1;
  return {
    sport: 'mlb',
    date,
    available: true,
    rule: 'CONFIRMED: in his team’s posted lineup (with the batting slot); NOT_IN: his team posted a lineup without him; PROJECTED: his team has not posted one',
    games,
    counts,
    ...freshnessOf(read),
  };
}
