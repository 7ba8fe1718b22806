import type { PlayerGameStat } from './entities.js';
import { isPlayedGame, minutesAverage, statAverages, type StatAverage } from './leaders.js';
import type { GradedSport } from './sports.js';
import type { StatType } from './stats.js';
import { normalizeName } from './names.js';

/**
 * The cascade (docs/stats.md): what happens to a player's teammates when he is out, as a
 * with/without split of real game lines, never a model guess. For each teammate, his played games
 * for the team split by whether the player also played; minutes and per-stat averages on both
 * sides with their n; a teammate is shown only when both sides reach CASCADE_MIN_GAMES.
 */

/** Both sides of a teammate's split need at least this many of his played games to be shown. */
export const CASCADE_MIN_GAMES = 5;

export interface SplitSide {
  /** The teammate's played games on this side. */
  n: number;
  /** Minutes per game, with its own n (null for MLB, which has no minutes). */
  minutes: { avg: number; n: number } | null;
  stats: StatAverage[];
}

export interface TeammateSplit {
  player: string;
  key: string;
  with: SplitSide;
  without: SplitSide;
  /** without − with: minutes, and each stat present on both sides. */
  delta: { minutesAvg: number | null; stats: Array<{ stat: StatType; deltaAvg: number }> };
}

export interface CascadeResult {
  team: string;
  /** Team games in the window (distinct games the team has stored lines for). */
  teamGames: number;
  /** Of those, games the player played / did not play (a 0-minute line or no line). */
  gamesWith: number;
  gamesWithout: number;
  minGames: number;
  teammates: TeammateSplit[];
  /** Teammates with played games on the team whose split stays under minGames on a side. */
  belowMinimum: number;
}

const gameOf = (l: Pick<PlayerGameStat, 'gameId' | 'date'>) => l.gameId ?? l.date;

function side(sport: GradedSport, lines: readonly PlayerGameStat[]): SplitSide {
  return { n: lines.length, minutes: sport === 'mlb' ? null : minutesAverage(lines), stats: statAverages(sport, lines) };
}

/**
 * `teamLines`: every stored line of the team in the window (all players, the player included).
 * A team game counts "with" when the player has a played line in it; every other team game
 * (his 0-minute line, or no line at all) counts "without".
 */
export function cascadeSplit(
  sport: GradedSport,
  playerKey: string,
  team: string,
  teamLines: readonly PlayerGameStat[],
  minGames = CASCADE_MIN_GAMES,
): CascadeResult {
  const lines = teamLines.filter((l) => l.team === team);
  const games = new Set(lines.map(gameOf));
  const withGames = new Set(lines.filter((l) => l.playerKey === playerKey && isPlayedGame(sport, l)).map(gameOf));
  const byMate = new Map<string, PlayerGameStat[]>();
  for (const l of lines) {
    if (l.playerKey === playerKey || !isPlayedGame(sport, l)) continue;
    const list = byMate.get(l.playerKey) ?? [];
    list.push(l);
    byMate.set(l.playerKey, list);
  }
  const teammates: TeammateSplit[] = [];
  let belowMinimum = 0;
  for (const [key, own] of byMate) {
    const withLines = own.filter((l) => withGames.has(gameOf(l)));
    const withoutLines = own.filter((l) => !withGames.has(gameOf(l)));
    if (withLines.length < minGames || withoutLines.length < minGames) {
      belowMinimum += 1;
      continue;
    }
    const a = side(sport, withLines);
    const b = side(sport, withoutLines);
    const latest = own.reduce((x, y) => (y.date > x.date ? y : x));
    teammates.push({
      // One display rule for names everywhere (the slate's): "Kelly Oubre Jr." shows as "Kelly Oubre Jr".
      player: normalizeName(latest.playerName).display,
      key,
      with: a,
      without: b,
      delta: {
        minutesAvg: a.minutes && b.minutes ? b.minutes.avg - a.minutes.avg : null,
        stats: b.stats.flatMap((s) => {
          const w = a.stats.find((x) => x.stat === s.stat);
          return w ? [{ stat: s.stat, deltaAvg: s.avg - w.avg }] : [];
        }),
      },
    });
  }
  // Who gains most when he sits first: minutes (basketball), else the first stat's change; a
  // teammate with neither change measured sorts after every measured one, not as a zero.
  const gain = (t: TeammateSplit) => t.delta.minutesAvg ?? t.delta.stats[0]?.deltaAvg ?? null;
  teammates.sort((x, y) => {
    const [gx, gy] = [gain(x), gain(y)];
    if (gx === null || gy === null) return (gx === null ? 1 : 0) - (gy === null ? 1 : 0) || x.player.localeCompare(y.player, 'en');
    return gy - gx || x.player.localeCompare(y.player, 'en');
  });
  return { team, teamGames: games.size, gamesWith: withGames.size, gamesWithout: games.size - withGames.size, minGames, teammates, belowMinimum };
}
