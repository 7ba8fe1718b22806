import type { PlayerGameStat } from './entities.js';
import { seasonStart } from './season.js';
import type { GradedSport } from './sports.js';
import { statsForSport, type StatType } from './stats.js';

/**
 * Pure figures over stored real game lines (docs/stats.md): which line counts as a played game,
 * per-stat averages that carry their n, season windows and stat leaders. A stat with no real value
 * on any played game has no average (absent), never 0.
 */

// ---- played games and averages ----

/**
 * A played game: basketball and soccer need real minutes (> 0; a 0-minute DNP row is not a
 * played game, as in the projection, docs/model.md §1); an MLB line exists only for a player who
 * batted or pitched, so every MLB line counts.
 */
export function isPlayedGame(sport: GradedSport, line: Pick<PlayerGameStat, 'minutes'>): boolean {
  if (sport === 'mlb') return true;
  return line.minutes !== null && line.minutes > 0;
}

/** One stat's average over the games that carry a real value of it: n is that count. */
export interface StatAverage {
  stat: StatType;
  avg: number;
  n: number;
  total: number;
}

/** Per-stat averages of `lines` (already the played games), in the sport's stat order; stats with n = 0 are left out. */
export function statAverages(sport: GradedSport, lines: ReadonlyArray<Pick<PlayerGameStat, 'stats'>>): StatAverage[] {
  const out: StatAverage[] = [];
  for (const stat of statsForSport(sport)) {
    let total = 0;
    let n = 0;
    for (const l of lines) {
      const v = l.stats[stat];
      if (typeof v === 'number' && Number.isFinite(v)) {
        total += v;
        n += 1;
      }
    }
    if (n > 0) out.push({ stat, avg: total / n, n, total });
  }
  return out;
}

/** Minutes per played game with its n; null (not 0) when no played game has minutes (MLB). */
export function minutesAverage(lines: ReadonlyArray<Pick<PlayerGameStat, 'minutes'>>): { avg: number; n: number } | null {
  let total = 0;
  let n = 0;
  for (const l of lines) {
    if (l.minutes !== null && Number.isFinite(l.minutes)) {
      total += l.minutes;
      n += 1;
    }
  }
  return n === 0 ? null : { avg: total / n, n };
}

// ---- seasons ----

export interface SeasonWindow {
  /** "2024-25" (NBA, soccer) or "2025" (MLB, WNBA). */
  label: string;
  /** First day, yyyy-mm-dd (inclusive). */
  from: string;
  /** Day after the season window, yyyy-mm-dd (exclusive). */
  until: string;
}

/** NBA and soccer seasons straddle the new year and start August 1; MLB and WNBA seasons are calendar years (as the team hub counts them). */
const STRADDLES = (sport: GradedSport) => sport === 'nba' || sport === 'soccer';

function windowFor(sport: GradedSport, startYear: number): SeasonWindow {
  if (STRADDLES(sport)) {
    return { label: `${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}`, from: `${startYear}-08-01`, until: `${startYear + 1}-08-01` };
  }
  return { label: String(startYear), from: `${startYear}-01-01`, until: `${startYear + 1}-01-01` };
}

/** The season that contains `date` (ET yyyy-mm-dd). */
export function seasonContaining(sport: GradedSport, date: string): SeasonWindow {
  // The start is the one season rule (season.ts) the scan and the team hub read too.
  return windowFor(sport, Number(seasonStart(sport, date).slice(0, 4)));
}

/**
 * A season asked for by label: "2024-25" or its start year "2024" for NBA and soccer, "2025" for
 * MLB and WNBA. Null when the text is not a season of that sport.
 */
export function parseSeason(sport: GradedSport, text: string): SeasonWindow | null {
  const t = text.trim();
  const m = /^(\d{4})(?:-(\d{2}|\d{4}))?$/.exec(t);
  if (!m) return null;
  const start = Number(m[1]);
  if (start < 1900 || start > 2100) return null;
  if (m[2] !== undefined) {
    if (!STRADDLES(sport)) return null;
    const end = Number(m[2]);
    if (m[2].length === 2 ? end !== (start + 1) % 100 : end !== start + 1) return null;
  }
  return windowFor(sport, start);
}

// ---- leaders ----

/**
 * Who qualifies for a leaderboard: at least 70% of the games the team with the most stored games
 * in the window has played, rounded up (the NBA's own rule for per-game leaders is 70% of the
 * team's games: 58 of 82). Early in a season the bar scales down with it (8 team games: 6).
 */
export const LEADER_MIN_GAMES_SHARE = 0.7;

export function leaderMinGames(teamGamesMax: number): number {
  return Math.max(1, Math.ceil(LEADER_MIN_GAMES_SHARE * teamGamesMax));
}

export interface LeaderRow {
  rank: number;
  player: string;
  key: string;
  /** The team of the player's latest game in the window. */
  team: string | null;
  /** Played games with a real value of the stat: the average's n. */
  games: number;
  avg: number;
  total: number;
}

export interface Leaderboard {
  /** Most stored games of any one team in the window (distinct games). */
  teamGamesMax: number;
  minGames: number;
  /** Players with at least one played game carrying the stat. */
  players: number;
  /** Of those, how many reach minGames. */
  qualified: number;
  leaders: LeaderRow[];
}

/** Distinct games per team in `lines` (a game is its provider id, or its date when the source has none). */
export function teamGameCounts(lines: ReadonlyArray<Pick<PlayerGameStat, 'team' | 'date' | 'gameId'>>): Map<string, number> {
  const games = new Map<string, Set<string>>();
  for (const l of lines) {
    if (l.team === null) continue;
    const set = games.get(l.team) ?? new Set<string>();
    set.add(l.gameId ?? l.date);
    games.set(l.team, set);
  }
  return new Map([...games].map(([team, set]) => [team, set.size]));
}

/**
 * Per-game leaders of one stat over `lines` (every stored line of the sport in the window): the
 * average over each player's played games that carry the stat, ranked highest first (ties share a
 * rank; then more games, then name). `minGames` overrides the 70% rule.
 */
export function statLeaders(
  sport: GradedSport,
  stat: StatType,
  lines: readonly PlayerGameStat[],
  options: { minGames?: number; limit: number },
): Leaderboard {
  return cutLeaders(rankPlayers(sport, stat, lines), options);
}

/** Every player with a played game carrying the stat, in rank order (highest average first; then more games, then name). */
export function rankPlayers(sport: GradedSport, stat: StatType, lines: readonly PlayerGameStat[]): RankedPlayers {
  const teamGamesMax = Math.max(0, ...teamGameCounts(lines).values());
  const byPlayer = new Map<string, { name: string; team: string | null; latest: string; total: number; n: number }>();
  for (const l of lines) {
    const v = l.stats[stat];
    if (!isPlayedGame(sport, l) || typeof v !== 'number' || !Number.isFinite(v)) continue;
    const p = byPlayer.get(l.playerKey) ?? { name: l.playerName, team: l.team, latest: l.date, total: 0, n: 0 };
    p.total += v;
    p.n += 1;
    if (l.date >= p.latest) {
      p.latest = l.date;
      p.team = l.team;
      p.name = l.playerName;
    }
    byPlayer.set(l.playerKey, p);
  }
  const ranked = [...byPlayer.entries()]
    .map(([key, p]) => ({ key, player: p.name, team: p.team, games: p.n, avg: p.total / p.n, total: p.total }))
    .sort((a, b) => b.avg - a.avg || b.games - a.games || a.player.localeCompare(b.player, 'en'));
  return { teamGamesMax, players: byPlayer.size, ranked };
}

/** Every player of a board in rank order, before the minimum and the limit: what a board is cut from. */
export interface RankedPlayers {
  teamGamesMax: number;
  players: number;
  ranked: ReadonlyArray<Omit<LeaderRow, 'rank'>>;
}

/**
 * The leaderboard cut from every ranked player: those with at least `minGames` (default the 70%
 * rule), the first `limit` of them, ranked (ties share a rank). Pure and cheap, so a board computed
 * once per stored data serves every minimum and limit (reads/stats-leaders.ts).
 */
export function cutLeaders(all: RankedPlayers, options: { minGames?: number; limit: number }): Leaderboard {
  const minGames = options.minGames ?? leaderMinGames(all.teamGamesMax);
  const qualified = all.ranked.filter((p) => p.games >= minGames);
  const leaders: LeaderRow[] = [];
  qualified.slice(0, options.limit).forEach((row, i) => {
    const prev = leaders[i - 1];
    const rank = prev && Math.abs(prev.avg - row.avg) < 1e-9 ? prev.rank : i + 1;
    leaders.push({ rank, ...row });
  });
  return { teamGamesMax: all.teamGamesMax, minGames, players: all.players, qualified: qualified.length, leaders };
}
