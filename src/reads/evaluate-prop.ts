import { clockAt, type DataClock } from '../domain/data-clock.js';
import { gradeProp } from '../domain/model/index.js';
import { sportsForStat, type GameRef, type PropEvaluation, type PropQuery } from '../domain/prop-evaluation.js';
import { storedMarketPricing } from '../domain/slate.js';
import type { GradedSport } from '../domain/sports.js';
import { easternDate } from '../domain/time.js';
import type { Store } from '../store/db.js';
import { historyBefore, latestTeam } from '../store/repo/game-stats.js';
import { upcomingRowsOf, type BoardRow } from '../store/repo/graded-rows.js';
import { latestSnapshot } from '../store/repo/snapshots.js';
import { resolvePlayer } from './player-lookup.js';

/**
 * One prop graded on the store: the snapshot's engine (gradeProp) on the stored history, never a
 * provider call. A read: parlay legs call it here, and the scan job (jobs/scan.ts) is handed it
 * by its caller, so jobs/ and reads/ never import each other.
 */

/**
 * The player's rows in the latest snapshot taken at or before `now` (never one taken after the
 * clock, issue 41 item 5) for games that have not started, earliest game first (sport + key hit the
 * lookup index).
 */
async function upcomingBoardRows(store: Store, sport: GradedSport, playerKey: string, now: Date): Promise<BoardRow[]> {
  const snapshot = await latestSnapshot(store, sport, now);
  if (!snapshot) return [];
  return upcomingRowsOf(store, snapshot.id, sport, playerKey, now.toISOString());
}

/**
 * Resolves the player and grades the prop with gradeProp on history strictly before the graded
 * game's ET date. With the player's game on the latest snapshot the grade uses that game (and the
 * board's market at exactly this line, when the board had the line); a line the board never priced
 * is refused, because a grade is a claim about a price against the market.
 */
export async function evaluateProp(store: Store, q: PropQuery, clock: DataClock): Promise<PropEvaluation<BoardRow>> {
  const sports = sportsForStat(q.stat, q.sport);
  const who = await resolvePlayer(store, q.player, sports);
  if (who.status === 'ambiguous') return { resolved: false, status: 'ambiguous', candidates: who.candidates };
  if (who.status === 'unknown') return { resolved: false, status: 'unknown_player', candidates: [], suggestions: who.suggestions };
  const { sport, key } = who;
  // The player's sport decides the clock: on a replayed store each sport reads as of its own snapshot.
  const now = clockAt(clock, sport);

  const board = await upcomingBoardRows(store, sport, key, now);
  const first = board[0];
  const gameRows = first ? board.filter((r) => r.eventId === first.eventId) : [];
  const boardRow = gameRows.find((r) => r.statType === q.stat && r.line === q.line && r.side === q.side) ?? null;
  const game: GameRef | null = first
    ? { eventId: first.eventId, label: `${first.awayTeam} @ ${first.homeTeam}`, commenceTime: first.commenceTime, opponent: first.opponent }
    : null;
  const gameDate = first ? easternDate(new Date(first.commenceTime)) : easternDate(now);
  const history = await historyBefore(store, sport, key, gameDate);
  const team = first ? first.team : await latestTeam(store, sport, key, gameDate);
  const outcome = gradeProp({
    sport,
    stat: q.stat,
    line: q.line,
    side: q.side,
    market: boardRow ? storedMarketPricing(boardRow) : null,
    history,
    gameDate,
  });
  // The board's spelling wins when the player is on it; else the resolver's (longest variant).
  const name = first?.player ?? who.name;
  const explained = boardRow === null && outcome.insufficientData && outcome.projection !== null ? { ...outcome, reason: offBoardReason(name, q, sport, gameRows) } : outcome;
  return { resolved: true, status: explained.insufficientData ? 'refused' : 'graded', sport, now, player: { name, key }, team, game, gameDate, boardRow, history, outcome: explained };
}

/** Why a line off the board has no grade, and which lines would have one. */
function offBoardReason(name: string, q: PropQuery, sport: GradedSport, gameRows: readonly BoardRow[]): string {
  if (gameRows.length === 0) return `${name} has no upcoming game on the latest ${sport} snapshot, so there is no market price to grade ${q.stat} ${q.side} ${q.line} against`;
  const lines = [...new Set(gameRows.filter((r) => r.statType === q.stat && r.side === q.side && r.bookOdds !== null).map((r) => r.line))].sort((a, b) => a - b);
  const hint = lines.length > 0 ? `; lines it priced: ${lines.join(', ')}` : `; it priced no ${q.stat} ${q.side} for ${name}`;
  return `the latest ${sport} snapshot has no market price for ${name} ${q.stat} ${q.side} ${q.line}, and a grade is a claim about a price${hint}`;
}
