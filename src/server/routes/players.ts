import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { gradedSportSchema, type GradedSport } from '../../domain/sports.js';
import { PlayerIndex, searchPlayers } from '../../domain/player-index.js';
import type { Store } from '../../store/db.js';
import { gradedRows, playerGameStats } from '../../store/schema.js';
import type { ServerDeps } from '../context.js';
import { defineRoute, type Route } from '../route.js';
import { playerSearchSchema } from '../wire/answers-core.js';

export const playerSearchQuerySchema = z.object({
  q: z.string().trim().min(2, 'at least 2 characters').max(60),
  sport: gradedSportSchema.default('mlb'),
  limit: z.coerce.number().int().min(1).max(25).default(10),
});

interface Meta {
  team: string | null;
  seen: string;
}

/** Index rebuilds after this long, so new snapshots and imports show up. */
const INDEX_TTL_MS = 15 * 60 * 1000;

/**
 * The names a search may return, from the store only. MLB: every player with a stored box-score
 * line or a graded row. Other sports: the cached names only, i.e. players the stored snapshots
 * graded. Newest rows first, so a player's first meta is his current team.
 */
export function buildPlayerIndex(store: Store, sport: GradedSport): PlayerIndex<Meta> {
  const index = new PlayerIndex<Meta>();
  const graded = store.db
    .selectDistinct({ player: gradedRows.player, team: gradedRows.team, seen: gradedRows.gradedAt })
    .from(gradedRows)
    .where(eq(gradedRows.sport, sport))
    .orderBy(desc(gradedRows.gradedAt))
    .all();
  for (const r of graded) index.add(r.player, { team: r.team, seen: r.seen });
  if (sport === 'mlb') {
    // Each distinct (name, team, date) once, where its first line by player key then id puts it
    // within its date: the order a DISTINCT over the lines in (player key, date, id) order gave
    // them, which no index reads any more (the key index orders one date's games by game key).
    const lines = store.db
      .select({ player: playerGameStats.playerName, team: playerGameStats.team, seen: playerGameStats.date })
      .from(playerGameStats)
      .where(eq(playerGameStats.sport, 'mlb'))
      .orderBy(desc(playerGameStats.date), playerGameStats.playerKey, playerGameStats.id)
      .all();
    const seen = new Set<string>();
    for (const r of lines) {
      const key = JSON.stringify([r.player, r.team, r.seen]);
      if (seen.has(key)) continue;
      seen.add(key);
      index.add(r.player, { team: r.team, seen: r.seen });
    }
  }
  return index;
}

export function playerRoutes(deps: ServerDeps): Route[] {
  const indexes = new Map<GradedSport, { builtAt: number; index: PlayerIndex<Meta> }>();
  const indexFor = (sport: GradedSport, now: Date) => {
    const hit = indexes.get(sport);
    if (hit && now.getTime() - hit.builtAt < INDEX_TTL_MS && now.getTime() >= hit.builtAt) return hit.index;
    const index = buildPlayerIndex(deps.store, sport);
    indexes.set(sport, { builtAt: now.getTime(), index });
    return index;
  };
  return [
    defineRoute({
      method: 'GET',
      path: '/api/players/search',
      tag: 'players',
      access: 'public',
      response: playerSearchSchema,
      summary: 'Player search over stored names',
      description:
        'Ranked exact normalized key, then surname prefix, then folded substring. MLB searches every stored MLB player; other sports search cached names only (players the stored snapshots graded). No provider call.',
      query: playerSearchQuerySchema,
      maxAge: 300,
      statsLimited: true,
      handle: ({ query }) => {
        const index = indexFor(query.sport, deps.now());
        const found = searchPlayers(index, query.q, query.limit);
        return {
          sport: query.sport,
          q: query.q,
          results: found.map((c) => {
            const meta = index.lookup(c.display)?.meta[0];
            return { player: c.display, key: c.key, team: meta?.team ?? null, lastSeen: meta?.seen ?? null };
          }),
        };
      },
    }),
  ];
}
