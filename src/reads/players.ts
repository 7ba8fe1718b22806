import { PlayerIndex, searchPlayers } from '../domain/player-index.js';
import type { GradedSport } from '../domain/sports.js';
import type { Store } from '../store/db.js';
import { nameTeamDates } from '../store/repo/game-stats.js';
import { gradedNameTeams } from '../store/repo/graded-rows.js';

/** What the player search knows of a name: the team and date it was last seen with. */
export interface Meta {
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
export async function buildPlayerIndex(store: Store, sport: GradedSport): Promise<PlayerIndex<Meta>> {
  const index = new PlayerIndex<Meta>();
  for (const r of await gradedNameTeams(store, sport)) index.add(r.player, { team: r.team, seen: r.seen });
  // Each distinct (name, team, date) once, where its first line by player key then id puts it
  // within its date (the key index orders one date's games by game key: see nameTeamDates).
  if (sport === 'mlb') for (const r of await nameTeamDates(store, 'mlb')) index.add(r.player, { team: r.team, seen: r.seen });
  return index;
}

export interface PlayerHit {
  player: string;
  key: string;
  team: string | null;
  lastSeen: string | null;
}

/**
 * The player search over stored names: ranked exact key, surname prefix, folded substring. Each
 * sport's index is built once and rebuilt after INDEX_TTL_MS of the given clock (or when the clock
 * goes back), so new snapshots and imports show up.
 */
export function playerSearch(store: Store): (sport: GradedSport, q: string, limit: number, now: Date) => Promise<PlayerHit[]> {
  const indexes = new Map<GradedSport, { builtAt: number; index: PlayerIndex<Meta> }>();
  const indexFor = async (sport: GradedSport, now: Date): Promise<PlayerIndex<Meta>> => {
    const hit = indexes.get(sport);
    if (hit && now.getTime() - hit.builtAt < INDEX_TTL_MS && now.getTime() >= hit.builtAt) return hit.index;
    const index = await buildPlayerIndex(store, sport);
    indexes.set(sport, { builtAt: now.getTime(), index });
    return index;
  };
  return async (sport, q, limit, now) => {
    const index = await indexFor(sport, now);
    return searchPlayers(index, q, limit).map((c) => {
      const meta = index.lookup(c.display)?.meta[0];
      return { player: c.display, key: c.key, team: meta?.team ?? null, lastSeen: meta?.seen ?? null };
    });
  };
}
