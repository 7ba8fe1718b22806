import type { GameEvent } from '../domain/entities.js';
import { bookSidePrice, type PropBooks } from '../domain/slate.js';
import { compareGrades, type Grade } from '../domain/grades.js';
import type { GradedSport } from '../domain/sports.js';
import { easternDate } from '../domain/time.js';
import type { Db } from '../store/db.js';
import {
  insertLedgerEntries,
  pendingBeforeStart,
  publicEntriesForEvents,
  upsertClosingPrices,
  writeClosings,
  type ClosingCapture,
  type NewLedgerEntry,
} from '../store/repo/ledger.js';
import type { SlateRow } from './snapshot.js';

/** Grades that enter the public record; F means "no play" and is not a pick. */
const PICK_GRADES: ReadonlySet<Grade> = new Set(['A+', 'A', 'B', 'C']);

const propKey = (r: { eventId: string; playerKey: string; statType: string }) => `${r.eventId}|${r.playerKey}|${r.statType}`;

/**
 * Public pre-grades: per prop (game, player, stat) the main line's side whose price holds the more
 * expected value against the market (the claim a letter makes; docs/model.md §3), when it grades
 * A+ to C. Ladder rungs stay off the record so one opinion is never counted several times.
 * A moved main line is a new entry carrying `revised_from_grade`.
 */
export function selectPreGrades(rows: readonly SlateRow[]): SlateRow[] {
  const best = new Map<string, { row: SlateRow; ev: number }>();
  for (const r of rows) {
    if (!r.isMainLine || r.grade === null || r.grade === undefined || r.evPct === null || r.evPct === undefined) continue;
    const k = propKey(r);
    const cur = best.get(k);
    if (!cur || r.evPct > cur.ev || (r.evPct === cur.ev && compareGrades(r.grade as Grade, cur.row.grade as Grade) < 0)) best.set(k, { row: r, ev: r.evPct });
  }
  return [...best.values()].map((b) => b.row).filter((r) => PICK_GRADES.has(r.grade as Grade));
}

export function recordPreGrades(db: Db, sport: GradedSport, rows: readonly SlateRow[], events: readonly GameEvent[]): number {
  const picks = selectPreGrades(rows);
  const existing = publicEntriesForEvents(db, events.map((e) => e.id));
  const lastGrade = new Map<string, { line: number; grade: string | null }>();
  for (const e of existing) lastGrade.set(propKey(e), { line: e.line, grade: e.grade });
  const entries: NewLedgerEntry[] = picks.map((r) => {
    const prior = lastGrade.get(propKey(r));
    return {
      userId: null,
      source: 'pipeline',
      sport,
      eventId: r.eventId,
      commenceTime: r.commenceTime,
      gameDate: easternDate(new Date(r.commenceTime)),
      player: r.player,
      playerKey: r.playerKey,
      team: r.team ?? null,
      opponent: r.opponent ?? null,
      statType: r.statType,
      line: r.line,
      side: r.side,
      grade: r.grade ?? null,
      projection: r.projection ?? null,
      pWin: r.pWin ?? null,
      book: r.book ?? null,
      lockedPrice: r.bookOdds ?? null,
      lockedFairProb: r.fairProb ?? null,
      lockedAt: r.gradedAt,
      outcome: 'pending',
      revisedFromGrade: prior && prior.line !== r.line ? prior.grade : null,
    };
  });
  return insertLedgerEntries(db, entries);
}

/**
 * Closing capture, on every run: each pending entry whose game has not started takes this
 * snapshot's close at its own book (CLV compares one book's de-vigged pair with itself, as
 * docs/ledger.md requires): its side at its own line while the book still quotes it, else the
 * book's current main line for the prop (the close then records that line). A book that no
 * longer quotes the prop gives no capture, and the previous one stands. The last capture
 * before the start is the close.
 */
export function captureClosings(db: Db, sport: GradedSport, rows: readonly SlateRow[], books: ReadonlyMap<string, PropBooks>, now: Date): number {
  const capturedAt = now.toISOString();
  upsertClosingPrices(
    db,
    rows
      .filter((r) => r.bookOdds !== null && r.bookOdds !== undefined && r.commenceTime > capturedAt)
      .map((r) => ({ sport, eventId: r.eventId, playerKey: r.playerKey, statType: r.statType, side: r.side, line: r.line, price: r.bookOdds ?? null, fairProb: r.fairProb ?? null, book: r.book ?? null, capturedAt, commenceTime: r.commenceTime })),
  );
  const linesOf = new Map<string, PropBooks[]>();
  for (const p of books.values()) {
    const k = propKey({ eventId: p.eventId, playerKey: p.playerKey, statType: p.stat });
    linesOf.set(k, [...(linesOf.get(k) ?? []), p]);
  }
  const captures: ClosingCapture[] = [];
  for (const entry of pendingBeforeStart(db, sport, now)) {
    // A close read in the same snapshot that locked the entry is the lock itself, not a close.
    if (entry.lockedAt >= capturedAt || entry.book === null) continue;
    const close = closeAtBook(linesOf.get(propKey(entry)) ?? [], entry.book, entry.line, entry.side);
    if (close) captures.push({ entryId: entry.id, closingLine: close.line, closingPrice: close.price, closingFairProb: close.fairProb, closingBook: entry.book, capturedAt });
  }
  writeClosings(db, captures);
  return captures.length;
}

/** The book's price for the side at `line`, else at the book's own main line (P(over) nearest 0.5). */
function closeAtBook(lines: readonly PropBooks[], book: string, line: number, side: 'over' | 'under'): { line: number; price: number; fairProb: number } | null {
  const same = bookSidePrice(lines.find((p) => p.line === line), book, side);
  if (same) return { line, ...same };
  let best: { line: number; price: number; fairProb: number; distance: number } | null = null;
  for (const p of lines) {
    const over = bookSidePrice(p, book, 'over');
    const priced = bookSidePrice(p, book, side);
    if (!over || !priced) continue;
    const distance = Math.abs(over.fairProb - 0.5);
    if (!best || distance < best.distance) best = { line: p.line, ...priced, distance };
  }
  return best ? { line: best.line, price: best.price, fairProb: best.fairProb } : null;
}
