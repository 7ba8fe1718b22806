import { CASCADE_MIN_GAMES, cascadeSplit, type CascadeResult } from '../domain/cascade.js';
import type { GradedSport } from '../domain/sports.js';
import { easternDate } from '../domain/time.js';
import { freshnessOf, type Freshness } from '../store/cache.js';
import { contextKey, type ContextDeps } from '../feeds/context.js';
import { dataVersion, playerLines, resolveStatsPlayer, STATS_CACHE, teamLines, type Unresolved } from './stats-common.js';

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

export async function readCascade(deps: ContextDeps, name: string, options: { sport?: GradedSport; minGames?: number; refresh?: boolean } = {}): Promise<CascadeView> {
  const who = await resolveStatsPlayer(deps.store, name, options.sport);
  if (who.status !== 'resolved') return who;
  const today = easternDate(deps.now);
  const minGames = Math.max(CASCADE_MIN_GAMES, options.minGames ?? CASCADE_MIN_GAMES);
  const key = contextKey(deps.providers, 'stats-cascade', who.sport, who.key, today, String(minGames), await dataVersion(deps.store, who.sport));
  const read = await deps.cache.read<CascadeData>(key, STATS_CACHE.store, deps.now, {
    ...(options.refresh ? { refresh: true } : {}),
    load: async () => {
      const base = { sport: who.sport, player: who.name, key: who.key, asOf: today };
      const stint = stintStart(await playerLines(deps.store, who.sport, who.key, today));
      if (stint === null) return { ok: true, value: { ...base, available: false, reason: `no stored game lines with a team for ${who.name} before ${today}` } };
      const split = cascadeSplit(who.sport, who.key, stint.team, await teamLines(deps.store, who.sport, stint.team, stint.from, today), minGames);
      if (split.gamesWithout < minGames || split.gamesWith < minGames) {
        return {
          ok: true,
          value: {
            ...base,
            available: false,
            reason: `${stint.team} has ${split.gamesWith} stored game${split.gamesWith === 1 ? '' : 's'} with ${who.name} and ${split.gamesWithout} without him since ${stint.from}; a split needs ${minGames} on each side`,
          },
        };
      }
      return {
        ok: true,
        value: {
          ...base,
          available: true,
          window: { from: stint.from, until: today },
          rule: `teammates with ${minGames}+ played games on each side; a game counts "without" when he has no played line in it (a 0-minute line or none)`,
          ...split,
        },
      };
    },
  });
  if (!read.ok) return { sport: who.sport, player: who.name, key: who.key, asOf: today, available: false, reason: read.reason, fetchedAt: deps.now.toISOString(), ageSeconds: 0, stale: false };
  return { ...read.value, ...freshnessOf(read) };
}
