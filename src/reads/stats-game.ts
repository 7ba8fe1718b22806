import type { PlayerGameStat } from '../domain/entities.js';
import { GRADED_SPORTS, type GradedSport } from '../domain/sports.js';
import { statsForSport } from '../domain/stats.js';
import { easternDate } from '../domain/time.js';
import { espnLeague, fetchSummary } from '../feeds/espn/index.js';
import { fetchLiveFeed } from '../feeds/mlb-statsapi/index.js';
import { teamAbbr } from '../feeds/teams/index.js';
import { freshnessOf, type Freshness } from '../store/cache.js';
import { contextKey, loadLog, replayTracking, requireUpstream, type ContextDeps } from '../feeds/context.js';
import { gameKeyLinesBefore, teamsLinesOn } from '../store/repo/game-stats.js';
import { STATS_CACHE } from './stats-common.js';
import { normalizeName } from '../domain/names.js';

/**
 * GET /api/stats/game/{id} and `propgrade stats game`: the box score of one game, from the stored
 * history when the store holds it, else from the provider (ESPN summary for nba, wnba and soccer;
 * the MLB Stats API live feed for mlb) through the context cache (5 minutes).
 *
 * `id` is a provider game id (ESPN event id, MLB gamePk; the bundled replay's NBA games use The
 * Odds API event id, data/README.md), or `<yyyy-mm-dd>:<TEAM>` for a stored game whose source
 * carried no id (the imported NBA.com game logs): that team's lines on that date plus its opponent's.
 */

export interface BoxLine {
  player: string;
  key: string;
  minutes: number | null;
  didNotPlay: boolean;
  values: Record<string, number | null>;
}

export interface TeamBox {
  team: string | null;
  opponent: string | null;
  players: BoxLine[];
}

export interface GameBox {
  gameId: string;
  sport: GradedSport;
  source: 'store' | 'espn summary' | 'mlb statsapi live feed';
  date: string | null;
  /** Provider game status (final, in_progress...); null from the store, whose lines are final box scores. */
  status: string | null;
  teams: TeamBox[];
  /** Player lines in the box score. */
  players: number;
}

export type GameView = (GameBox & { available: true } & Freshness) | { gameId: string; sport: GradedSport | null; available: false; reason: string };

/** `2025-11-03:NY`: a stored game addressed by date and team. */
const DATE_TEAM = /^(\d{4}-\d{2}-\d{2}):([A-Za-z]{2,4})$/;

function boxLine(sport: GradedSport, l: PlayerGameStat): BoxLine {
  return {
    player: normalizeName(l.playerName).display,
    key: l.playerKey,
    minutes: l.minutes,
    didNotPlay: sport !== 'mlb' && l.minutes === 0,
    values: Object.fromEntries(statsForSport(sport).map((s) => [s, l.stats[s] ?? null])),
  };
}

/** Lines grouped per team (the order they first appear), players by minutes then name. */
export function teamBoxes(sport: GradedSport, lines: readonly PlayerGameStat[]): TeamBox[] {
  const teams = new Map<string, TeamBox>();
  for (const l of lines) {
    const k = l.team ?? '?';
    const t = teams.get(k) ?? { team: l.team, opponent: l.opponent, players: [] };
    t.players.push(boxLine(sport, l));
    teams.set(k, t);
  }
  for (const t of teams.values()) t.players.sort((a, b) => (b.minutes ?? -1) - (a.minutes ?? -1) || a.player.localeCompare(b.player, 'en'));
  return [...teams.values()];
}

/** A stored game: by provider id, or by date and team (with the opponent's lines of that date). */
export async function storedGame(deps: Pick<ContextDeps, 'store' | 'now'>, id: string, sport?: GradedSport): Promise<{ sport: GradedSport; lines: PlayerGameStat[] } | { ambiguous: GradedSport[] } | null> {
  const today = easternDate(deps.now);
  const sports = sport ? [sport] : GRADED_SPORTS;
  const store = deps.store;
  const m = DATE_TEAM.exec(id);
  const found: Array<{ sport: GradedSport; lines: PlayerGameStat[] }> = [];
  for (const s of sports) {
    let lines: PlayerGameStat[];
    if (m) {
      const [, date, code] = m as unknown as [string, string, string];
      if (date >= today) continue;
      const team = teamAbbr(s, code) ?? code.toUpperCase();
      const own = await teamsLinesOn(store, s, date, [team]);
      const opponents = [...new Set(own.map((l) => l.opponent).filter((o): o is string => o !== null))];
      const theirs = await teamsLinesOn(store, s, date, opponents);
      lines = [...own, ...theirs.filter((l) => l.opponent === team)];
    } else {
      lines = await gameKeyLinesBefore(store, s, id, today);
    }
    if (lines.length > 0) found.push({ sport: s, lines });
  }
  if (found.length > 1) return { ambiguous: found.map((f) => f.sport) };
  return found[0] ?? null;
}

async function providerGame(deps: ContextDeps, id: string, sport: GradedSport): Promise<{ ok: true; value: GameBox } | { ok: false; reason: string }> {
  const log = loadLog(deps.log);
  if (sport === 'mlb') {
    if (!/^\d{1,10}$/.test(id)) return { ok: false, reason: `'${id}' is not an MLB gamePk (digits)` };
    const feed = await fetchLiveFeed(deps.providers.keyless, Number(id), log);
    if (feed === null) return { ok: false, reason: log.why(`no MLB Stats API live feed for game ${id}`) };
    const lines = feed.lines.map((l) => l.stat);
    return { ok: true, value: { gameId: id, sport, source: 'mlb statsapi live feed', date: feed.officialDate, status: feed.status, teams: teamBoxes(sport, lines), players: lines.length } };
  }
  const summary = await fetchSummary(deps.providers.keyless, espnLeague(sport), id, log);
  if (summary === null) return { ok: false, reason: log.why(`no ESPN summary for ${sport} game ${id}`) };
  const date = summary.lines[0]?.date ?? (summary.commenceTime ? easternDate(new Date(summary.commenceTime)) : null);
  return { ok: true, value: { gameId: id, sport, source: 'espn summary', date, status: summary.status, teams: teamBoxes(sport, summary.lines), players: summary.lines.length } };
}

export async function readGame(deps: ContextDeps, id: string, options: { sport?: GradedSport; refresh?: boolean } = {}): Promise<GameView> {
  const stored = await storedGame(deps, id, options.sport);
  if (stored && 'ambiguous' in stored) {
    return { gameId: id, sport: null, available: false, reason: `game ${id} is stored in ${stored.ambiguous.join(' and ')}: pass the sport` };
  }
  if (stored) {
    const box: GameBox = { gameId: id, sport: stored.sport, source: 'store', date: stored.lines[0]!.date, status: null, teams: teamBoxes(stored.sport, stored.lines), players: stored.lines.length };
    return { ...box, available: true, fetchedAt: deps.now.toISOString(), ageSeconds: 0, stale: false };
  }
  const sport = options.sport ?? 'nba';
  if (DATE_TEAM.test(id)) return { gameId: id, sport, available: false, reason: `no stored ${sport} game lines for ${id} before ${easternDate(deps.now)}` };
  // Not stored: only a provider could answer, and a replayed store without its recording asks none.
  requireUpstream(deps, `game ${id} (not in the stored history)`);
  const read = await deps.cache.read<GameBox>(contextKey(deps.providers, 'stats-game', sport, id), STATS_CACHE.game, deps.now, {
    ...replayTracking(deps),
    ...(options.refresh ? { refresh: true } : {}),
    load: () => providerGame(deps, id, sport),
  });
  if (!read.ok) return { gameId: id, sport, available: false, reason: `not in the stored history, and the provider had none: ${read.reason}` };
  return { ...read.value, available: true, ...freshnessOf(read) };
}
