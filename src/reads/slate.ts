import { compareStanding } from '../domain/claim.js';
import type { Store } from '../store/db.js';
import { rowsOfSnapshot } from './snapshot-rows.js';
import { latestSnapshot, snapshotRowsById, snapshotSortKeys, type GradedRowRecord, type Snapshot, type SortKeys } from '../store/repo/snapshots.js';

/** Props shown per game on a slate card before the expander. */
export const SLATE_CARD_SIZE = 6;

export interface SlateGame {
  eventId: string;
  game: string;
  commenceTime: string;
  rows: GradedRowRecord[];
  /** Rows not shown because of the card size (0 with `all`). */
  hidden: number;
}

export interface SlateRead {
  snapshot: Snapshot;
  games: SlateGame[];
}

/** The claim as it stands now (compareStanding: a gone edge never leads), refusals last; then by name for a stable order. */
export function compareRows(a: SortKeys, b: SortKeys): number {
  return compareStanding(a, b) || a.player.localeCompare(b.player) || a.statType.localeCompare(b.statType) || a.line - b.line || a.side.localeCompare(b.side);
}

/**
 * The card: the best-sorted rows, one per player and stat, so a ladder of alternate lines for
 * one prop does not fill the card; `--all` shows every rung.
 */
function cardRows<R extends SortKeys>(sorted: R[]): R[] {
  const seen = new Set<string>();
  const out: R[] = [];
  for (const r of sorted) {
    const k = `${r.playerKey}|${r.statType}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(r);
    if (out.length === SLATE_CARD_SIZE) break;
  }
  return out;
}

/** The cached slate from the latest snapshot: reads the store only, never a provider. */
export async function readSlate(store: Store, sport: string, options: { all: boolean; gradedOnly?: boolean }): Promise<SlateRead | null> {
  const snapshot = await latestSnapshot(store, sport);
  if (!snapshot) return null;
  if (options.all) return { snapshot, games: slateGames(await rowsOfSnapshot(store, snapshot.id), options) };
  // The card shows at most SLATE_CARD_SIZE rows a game: sort on the sort keys alone, then read
  // only the shown rows whole (same rows, same order as sorting the whole rows).
  const games = slateGames(await snapshotSortKeys(store, snapshot.id), options);
  const full = await snapshotRowsById(store, games.flatMap((g) => g.rows.map((r) => r.id)));
  return { snapshot, games: games.map((g) => ({ ...g, rows: g.rows.map((r) => full.get(r.id) as GradedRowRecord) })) };
}

export type GameOf<R> = Omit<SlateGame, 'rows'> & { rows: R[] };

/**
 * Rows per game, each game sorted by the claim as it stands (A+ to F, refusals last), games by start time (with `all: false`, the card: one
 * row per player and stat, at most SLATE_CARD_SIZE). The slate read and the API's views share it.
 */
export function slateGames<R extends SortKeys>(all: readonly R[], options: { all: boolean; gradedOnly?: boolean }): GameOf<R>[] {
  const byGame = new Map<string, R[]>();
  for (const r of all) {
    if (options.gradedOnly && r.grade === null) continue;
    const list = byGame.get(r.eventId) ?? [];
    list.push(r);
    byGame.set(r.eventId, list);
  }
  const games: GameOf<R>[] = [...byGame.entries()].map(([eventId, rows]) => {
    rows.sort(compareRows);
    const first = rows[0]!;
    const shown = options.all ? rows : cardRows(rows);
    return { eventId, game: `${first.awayTeam} @ ${first.homeTeam}`, commenceTime: first.commenceTime, rows: shown, hidden: rows.length - shown.length };
  });
  games.sort((a, b) => a.commenceTime.localeCompare(b.commenceTime) || a.game.localeCompare(b.game));
  return games;
}
