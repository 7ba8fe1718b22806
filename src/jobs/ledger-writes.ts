import type { GameEvent } from '../domain/entities.js';
import { bookSidePrice, type PropBooks } from '../domain/slate.js';
import { closeBooksOf, closeLeadMinutes, PINNACLE } from '../domain/close-lead.js';
import { computeClv } from '../domain/clv.js';
import { compareGrades, type Grade } from '../domain/grades.js';
import { fairOverForBook } from '../domain/model/market.js';
import type { Dispersion } from '../domain/model/params.js';
import type { GradedSport } from '../domain/sports.js';
import type { StatType } from '../domain/stats.js';
import { easternDate } from '../domain/time.js';
import type { Store } from '../store/db.js';
import {
  insertLedgerEntries,
  pendingBeforeStart,
  publicEntriesForEvents,
  upsertClosingPrices,
  writeClosings,
  type ClosingCapture,
  type LedgerEntry,
  type PinnacleCapture,
  type NewLedgerEntry,
} from '../store/repo/ledger.js';
import type { SlateRow } from '../store/repo/snapshots.js';

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

/** `now`: the run's data clock, recorded as each new entry's entered_at (a rung locked earlier enters when its line becomes main). */
export async function recordPreGrades(store: Store, sport: GradedSport, rows: readonly SlateRow[], events: readonly GameEvent[], now: Date): Promise<number> {
  const enteredAt = now.toISOString();
  const picks = selectPreGrades(rows);
  const existing = await publicEntriesForEvents(store, events.map((e) => e.id));
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
      gradeUncapped: r.gradeUncapped ?? null,
      capReason: r.capReason ?? null,
      projection: r.projection ?? null,
      pWin: r.pWin ?? null,
      // The price the grade was computed on (its lock's), never a later snapshot's best price.
      book: r.lockedBook ?? null,
      lockedPrice: r.lockedOdds ?? null,
      lockedFairProb: r.lockedFairProb ?? null,
      lockedFairSource: r.lockedFairSource,
      lockedAt: r.gradedAt,
      enteredAt,
      outcome: 'pending',
      revisedFromGrade: prior && prior.line !== r.line ? prior.grade : null,
    };
  });
  return insertLedgerEntries(store, entries);
}

/** What closing capture reads of a priced row: a snapshot's graded rows, or the close run's priced-only rows (jobs/close.ts). */
export type ClosingRow = Pick<SlateRow, 'eventId' | 'playerKey' | 'statType' | 'side' | 'line' | 'bookOdds' | 'fairProb' | 'book' | 'commenceTime'>;

/**
 * Closing capture, on every run: each pending entry whose game has not started takes this
 * snapshot's close, read on the one yardstick (docs/ledger.md): the market's fair for its side at
 * its locked line, by the rule that made the lock's fair (the other books' consensus against the
 * locked book; for a rung, the market-implied price; the book's own pair only where the lock used
 * it). Only when the locked line cannot be priced that way is the close the locked book's current
 * main line, whose line move then carries the verdict. Nothing to read leaves the previous capture
 * standing. The last capture before the start is the close.
 *
 * Each game's close is stamped `stampOf(eventId)`: when its odds were taken. Live that is the
 * run's clock `now` (the default); a replayed run passes when the recording it read was made
 * (jobs/close-due.ts recordedOddsClock), which is at or before `now` and may differ by game.
 */
export async function captureClosings(
  store: Store,
  sport: GradedSport,
  rows: readonly ClosingRow[],
  books: ReadonlyMap<string, PropBooks>,
  now: Date,
  dispersionFor: (stat: StatType) => Dispersion | null,
  stampOf: (eventId: string) => string = () => now.toISOString(),
): Promise<number> {
  // Asked for every price and entry: one answer per game.
  const stamps = new Map<string, string>();
  const capturedAtOf = (eventId: string) => {
    let stamp = stamps.get(eventId);
    if (stamp === undefined) stamps.set(eventId, (stamp = stampOf(eventId)));
    return stamp;
  };
  await upsertClosingPrices(
    store,
    rows
      // A price taken at or after its game's start is no close.
      .filter((r) => r.bookOdds !== null && r.bookOdds !== undefined && r.commenceTime > capturedAtOf(r.eventId))
      .map((r) => {
        const capturedAt = capturedAtOf(r.eventId);
        return { sport, eventId: r.eventId, playerKey: r.playerKey, statType: r.statType, side: r.side, line: r.line, price: r.bookOdds ?? null, fairProb: r.fairProb ?? null, book: r.book ?? null, capturedAt, commenceTime: r.commenceTime, closeLeadMinutes: closeLeadMinutes(capturedAt, r.commenceTime) };
      }),
  );
  const linesOf = new Map<string, PropBooks[]>();
  for (const p of books.values()) {
    const k = propKey({ eventId: p.eventId, playerKey: p.playerKey, statType: p.stat });
    linesOf.set(k, [...(linesOf.get(k) ?? []), p]);
  }
  const captures: ClosingCapture[] = [];
  const pinnacle: PinnacleCapture[] = [];
  for (const entry of await pendingBeforeStart(store, sport, now)) {
    if (entry.book === null) continue;
    const lines = linesOf.get(propKey(entry)) ?? [];
    if (lines.length === 0) continue;
    const capturedAt = capturedAtOf(entry.eventId);
    // Odds no newer than the lock's are the lock's own market, not a close. A lock is stamped with
    // its run's clock, and a stamp is never after this run's: this run's own locks are skipped, and
    // so is a replay reading the recording an earlier run locked on (recorded before that run).
    // (An entry here starts after `now`, so after the stamp.)
    if (entry.lockedAt >= capturedAt) continue;
    const lead = closeLeadMinutes(capturedAt, entry.commenceTime);
    const close = closeOnYardstick(lines, { ...entry, book: entry.book }, dispersionFor(lines[0]!.stat)) ?? closeAtBookMainLine(lines, entry.book, entry.line, entry.side);
    if (close) captures.push({ entryId: entry.id, ...close, capturedAt, closeLeadMinutes: lead });
    const pin = pinnacleClose(lines, entry, capturedAt);
    if (pin) pinnacle.push({ entryId: entry.id, leadMinutes: lead, ...pin });
  }
  await writeClosings(store, captures, pinnacle);
  return captures.length;
}

type Close = Omit<ClosingCapture, 'entryId' | 'capturedAt' | 'closeLeadMinutes'>;

/**
 * Pinnacle's own no-vig fair for the entry's side at its locked line (both sides priced there), and
 * the entry's CLV against it by the one CLV function; null where Pinnacle does not price the line.
 */
function pinnacleClose(lines: readonly PropBooks[], entry: LedgerEntry, capturedAt: string): Omit<PinnacleCapture, 'entryId' | 'leadMinutes'> | null {
  const own = bookSidePrice(lines.find((p) => p.line === entry.line), PINNACLE, entry.side);
  if (!own) return null;
  const r = computeClv({ ...entry, closingLine: entry.line, closingFairProb: own.fairProb, closingCapturedAt: capturedAt });
  return { fairProb: own.fairProb, clv: r.clv, clvPct: r.clvPct, verdict: r.verdict };
}

/** The market's fair at the locked line against the locked book, by the lock's rule; null when it cannot be read that way. */
function closeOnYardstick(lines: readonly PropBooks[], entry: LedgerEntry & { book: string }, dispersion: Dispersion | null): Close | null {
  const ladder = lines.map((p) => ({ line: p.line, quotes: [...p.books.values()] }));
  const fair = fairOverForBook(ladder, entry.line, entry.book, dispersion);
  // The book's own pair is a different yardstick from the others' consensus: only where the lock used it.
  if (fair === null || (fair.source === 'book' && entry.lockedFairSource !== 'book')) return null;
  const own = bookSidePrice(lines.find((p) => p.line === entry.line), entry.book, entry.side);
  return {
    closingLine: entry.line,
    closingPrice: own?.price ?? null,
    closingFairProb: entry.side === 'over' ? fair.pOver : 1 - fair.pOver,
    closingBook: own ? entry.book : null,
    closingFairSource: fair.source,
    closeBooks: closeBooksOf(ladder, entry.line, entry.book, fair),
  };
}

/** The locked book's side at its own main line (P(over) nearest 0.5), when it no longer prices the locked line. */
function closeAtBookMainLine(lines: readonly PropBooks[], book: string, line: number, side: 'over' | 'under'): Close | null {
  if (bookSidePrice(lines.find((p) => p.line === line), book, side)) return null;
  let best: { line: number; price: number; fairProb: number; distance: number } | null = null;
  for (const p of lines) {
    const over = bookSidePrice(p, book, 'over');
    const priced = bookSidePrice(p, book, side);
    if (!over || !priced) continue;
    const distance = Math.abs(over.fairProb - 0.5);
    if (!best || distance < best.distance) best = { line: p.line, ...priced, distance };
  }
  return best ? { closingLine: best.line, closingPrice: best.price, closingFairProb: null, closingBook: book, closingFairSource: null, closeBooks: book } : null;
}
