import { and, eq } from 'drizzle-orm';
import { normalizeName } from '../domain/names.js';
import { PlayerIndex, searchPlayers } from '../domain/player-index.js';
import type { GradedSport } from '../domain/sports.js';
import type { Store } from '../store/db.js';
import { latestSnapshot } from '../store/repo/snapshots.js';
import { gradedRows, playerGameStats } from '../store/schema.js';

/**
 * Resolves a typed player name against the players the store knows: every name in the stored
 * game history plus every name on the sport's latest snapshot (a rookie with no history yet is
 * still a real player on the board). Never guesses: an exact key or a unique surname resolves,
 * anything else is ambiguous (naming the candidates) or unknown.
 */

export interface PlayerCandidate {
  name: string;
  key: string;
  sport: GradedSport;
}

export type PlayerResolution =
  | { status: 'resolved'; sport: GradedSport; key: string; name: string }
  | { status: 'ambiguous'; candidates: PlayerCandidate[] }
  | { status: 'unknown'; candidates: [] };

/** How many candidates an ambiguous answer names. */
export const MAX_CANDIDATES = 8;

export function knownPlayers(store: Store, sport: GradedSport): PlayerIndex {
  const index = new PlayerIndex();
  const history = store.db
    .selectDistinct({ name: playerGameStats.playerName })
    .from(playerGameStats)
    .where(eq(playerGameStats.sport, sport))
    .all();
  for (const h of history) index.add(h.name);
  const snapshot = latestSnapshot(store.db, sport);
  if (snapshot) {
    const board = store.db.selectDistinct({ name: gradedRows.player }).from(gradedRows).where(eq(gradedRows.snapshotId, snapshot.id)).all();
    for (const b of board) index.add(b.name);
  }
  return index;
}

/**
 * Fast path for an exact key: the stored rows already carry normalized keys (both indexed), so a
 * full name resolves without building the index. The longest stored spelling is the display.
 */
function exactKey(store: Store, sport: GradedSport, key: string): PlayerCandidate | null {
  const names = store.db
    .selectDistinct({ name: playerGameStats.playerName })
    .from(playerGameStats)
    .where(and(eq(playerGameStats.sport, sport), eq(playerGameStats.playerKey, key)))
    .all()
    .map((r) => r.name);
  const snapshot = latestSnapshot(store.db, sport);
  if (snapshot) {
    const board = store.db
      .selectDistinct({ name: gradedRows.player })
      .from(gradedRows)
      .where(and(eq(gradedRows.sport, sport), eq(gradedRows.playerKey, key), eq(gradedRows.snapshotId, snapshot.id)))
      .all();
    names.push(...board.map((r) => r.name));
  }
  if (names.length === 0) return null;
  const index = new PlayerIndex();
  for (const n of names) index.add(n);
  const entry = index.lookup(names[0]!);
  return { name: entry?.display ?? normalizeName(names[0]!).display, key, sport };
}

export function resolvePlayer(store: Store, query: string, sports: readonly GradedSport[]): PlayerResolution {
  const key = normalizeName(query).key;
  if (key.length === 0) return { status: 'unknown', candidates: [] };
  const exact = sports.map((sport) => exactKey(store, sport, key)).filter((c): c is PlayerCandidate => c !== null);
  const [first] = exact;
  if (exact.length === 1 && first) return { status: 'resolved', ...first };
  // The same name in two sports (points exists in nba and wnba) is not ours to pick.
  if (exact.length > 1) return { status: 'ambiguous', candidates: exact };

  const indexes = sports.map((sport) => ({ sport, index: knownPlayers(store, sport) }));
  const hits: PlayerCandidate[] = [];
  for (const { sport, index } of indexes) {
    const m = index.lookup(query);
    if (m) hits.push({ name: m.display, key: m.key, sport });
  }
  const [only] = hits;
  if (hits.length === 1 && only) return { status: 'resolved', ...only };
  if (hits.length > 1) return { status: 'ambiguous', candidates: hits };
  const candidates = indexes.flatMap(({ sport, index }) => searchPlayers(index, query, MAX_CANDIDATES).map((c) => ({ name: c.display, key: c.key, sport })));
  if (candidates.length === 0) return { status: 'unknown', candidates: [] };
  return { status: 'ambiguous', candidates: candidates.slice(0, MAX_CANDIDATES) };
}
