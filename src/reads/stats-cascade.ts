import { CASCADE_MIN_GAMES, cascadeSplit, type CascadeResult } from '../domain/cascade.js';
import type { GradedSport } from '../domain/sports.js';
import { easternDate } from '../domain/time.js';
import type { Freshness } from '../store/cache.js';
import type { ContextDeps } from '../feeds/context.js';
import { dataVersion, playerLines, resolveStatsPlayer, storeDerived, teamLines, type Unresolved } from './stats-common.js';

/**
 * GET /api/stats/cascade and `propgrade stats cascade`: what happens to a player's teammates when
 * he is out, as a with/without split of their real game lines (src/domain/cascade.ts). The window
 * is his current stint with his team: his stored games for that team back from his latest one,
 * until an earlier game for another team (a trade) or the start of the stored history.
 */

export type CascadeData = {
  sport: GradedSport;
  player: string;
  key: string;
  asOf: string;
} & (
  | ({ available: true; window: { from: string; until: string }; rule: string } & CascadeResult)
  | { available: false; reason: string }
);

export type CascadeView = (CascadeData & Freshness) | Unresolved;

/** First date of the player's current stint: his lines (newest first) while they are for his latest team. */
export function stintStart(lines: ReadonlyArray<{ team: string | null; date: string }>): { team: string; from: string } | null {
  const team = lines[0]?.team ?? null;
  if (team === null) return null;
  let from = lines[0]!.date;
  for (const l of lines) {
    if (l.team !== team) break;
    from = l.date;
  }
  return { team, from };
}

/** What a player's cascade is cut from: his stint and the split at the documented minimum, computed once per stored data. */
type CascadeBase =
  | { available: false; reason: string }
  | { available: true; stint: { team: string; from: string }; split: CascadeResult };

/**
 * The split at a higher minimum, cut from the split at the documented one: a teammate stays when
 * both his sides reach it (his sides do not depend on the minimum), in the same order.
 */
export function raiseMinimum(split: CascadeResult, minGames: number): CascadeResult {
  if (minGames <= split.minGames) return split;
  const teammates = split.teammates.filter((t) => t.with.n >= minGames && t.without.n >= minGames);
  return { ...split, minGames, teammates, belowMinimum: split.belowMinimum + split.teammates.length - teammates.length };
}

export async function readCascade(deps: ContextDeps, name: string, options: { sport?: GradedSport; minGames?: number; refresh?: boolean } = {}): Promise<CascadeView> {
  const who = await resolveStatsPlayer(deps.store, name, options.sport);
  if (who.status !== 'resolved') return who;
  const today = easternDate(deps.now);
  const minGames = Math.max(CASCADE_MIN_GAMES, options.minGames ?? CASCADE_MIN_GAMES);
  const key = ['cascade', who.sport, who.key, today, await dataVersion(deps.store, who.sport)].join(':');
  const read = await storeDerived('cascade', deps, key, options.refresh, async (): Promise<CascadeBase> => {
    const stint = stintStart(await playerLines(deps.store, who.sport, who.key, today));
    if (stint === null) return { available: false, reason: `no stored game lines with a team for ${who.name} before ${today}` };
    return { available: true, stint, split: cascadeSplit(who.sport, who.key, stint.team, await teamLines(deps.store, who.sport, stint.team, stint.from, today), CASCADE_MIN_GAMES) };
  });
  const base = { sport: who.sport, player: who.name, key: who.key, asOf: today };
  const freshness = { fetchedAt: read.fetchedAt, ageSeconds: read.ageSeconds, stale: read.stale };
  if (!read.value.available) return { ...base, available: false, reason: read.value.reason, ...freshness };
  const { stint } = read.value;
  const split = raiseMinimum(read.value.split, minGames);
  if (split.gamesWithout < minGames || split.gamesWith < minGames) {
    return {
      ...base,
      available: false,
      reason: `${stint.team} has ${split.gamesWith} stored game${split.gamesWith === 1 ? '' : 's'} with ${who.name} and ${split.gamesWithout} without him since ${stint.from}; a split needs ${minGames} on each side`,
      ...freshness,
    };
  }
  return {
    ...base,
    available: true,
    window: { from: stint.from, until: today },
    rule: `teammates with ${minGames}+ played games on each side; a game counts "without" when he has no played line in it (a 0-minute line or none)`,
    ...split,
    ...freshness,
  };
}
