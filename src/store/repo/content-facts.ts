import { and, asc, desc, eq, gte, isNull, lt, lte, ne } from 'drizzle-orm';
import { closeAsOf, entryAsOf } from '../../domain/ledger.js';
import { fairAmerican } from '../../domain/odds.js';
import { RECORD_WINDOW_DAYS, recordWindow } from '../../domain/records.js';
import { GRADED_SPORTS } from '../../domain/sports.js';
import { addDays, easternDate, instantOf } from '../../domain/time.js';
import type { Store } from '../db.js';
import type { gradedRows, ledgerEntries } from '../schema.js';
import { on, type Handle } from './handle.js';
import type { ContentFacts, LedgerFact, SlateFact, SlateRowFact, SportRecordWindow } from '../../domain/facts.js';
import { enteredBy } from './ledger.js';

/**
 * The content desk's one read of the store: the day's slates, the settle and the 30-day record.
 * Reads only; the builders that turn these facts into documents are pure.
 */


/** The grade lock of a row keyed like it (event, player, stat, line, side): where its claim was made. */
function lockOf(gradeLocks: Handle['t']['gradeLocks'], r: typeof gradedRows | typeof ledgerEntries) {
  return and(eq(gradeLocks.eventId, r.eventId), eq(gradeLocks.playerKey, r.playerKey), eq(gradeLocks.statType, r.statType), eq(gradeLocks.line, r.line), eq(gradeLocks.side, r.side));
}

/** The newest snapshot of the sport's `date` slate (taken at or before `asOf` when given, never after it) with the one before it. */
async function slateOf(store: Store, sport: string, date: string, asOf: Date | null): Promise<SlateFact | null> {
  const { db, t } = await on(store);
  const { snapshots, gradedRows, gradeLocks } = t;
  const [snap] = await db
    .select()
    .from(snapshots)
    .where(and(eq(snapshots.sport, sport), eq(snapshots.slateDate, date), ...(asOf !== null ? [lte(snapshots.takenAt, asOf.toISOString())] : [])))
    .orderBy(desc(snapshots.takenAt), desc(snapshots.id))
    .limit(1);
  if (!snap) return null;
  const [prev] = await db
    .select({ id: snapshots.id, takenAt: snapshots.takenAt })
    .from(snapshots)
    .where(and(eq(snapshots.sport, sport), lt(snapshots.takenAt, snap.takenAt), ne(snapshots.id, snap.id)))
    .orderBy(desc(snapshots.takenAt), desc(snapshots.id))
    .limit(1);
  const joined = await db
    .select({ r: gradedRows, lockId: gradeLocks.id, lockDetail: gradeLocks.modelDetail })
    .from(gradedRows)
    .leftJoin(gradeLocks, lockOf(gradeLocks, gradedRows))
    .where(eq(gradedRows.snapshotId, snap.id))
    .orderBy(asc(gradedRows.id));
  const rows: SlateRowFact[] = joined.map(({ r, lockId, lockDetail }) => {
      const sample = r.modelDetail?.['sampleSize'];
      const books = lockDetail?.['consensusBooks'];
      return {
        id: r.id,
        sport: r.sport,
        eventId: r.eventId,
        commenceTime: r.commenceTime,
        homeTeam: r.homeTeam,
        awayTeam: r.awayTeam,
        player: r.player,
        playerKey: r.playerKey,
        team: r.team,
        opponent: r.opponent,
        statType: r.statType,
        line: r.line,
        side: r.side,
        grade: r.grade,
        gradeUncapped: r.gradeUncapped,
        capReason: r.capReason,
        projection: r.projection,
        book: r.book,
        bookOdds: r.bookOdds,
        fairOdds: r.fairOdds,
        consensusBooks: r.consensusBooks,
        thinConsensus: r.thinConsensus,
        outlierPrice: r.outlierPrice,
        fairSource: r.fairSource,
        isMainLine: r.isMainLine,
        archetype: r.archetype,
        previousLine: r.previousLine,
        lineDelta: r.lineDelta,
        lineDirection: r.lineDirection,
        sampleSize: typeof sample === 'number' && Number.isFinite(sample) ? sample : null,
        evPct: r.evPct,
        takenAt: snap.takenAt,
        gradedAt: r.gradedAt,
        lockedBook: r.lockedBook,
        lockedOdds: r.lockedOdds,
        lockedFairProb: r.lockedFairProb,
        lockedFairOdds: fairAmerican(r.lockedFairProb),
        lockedConsensusBooks: typeof books === 'number' && Number.isFinite(books) ? books : null,
        lockedFairSource: typeof lockDetail?.['fairSource'] === 'string' ? lockDetail['fairSource'] : null,
        lockId: lockId ?? null,
        evNowPct: r.evNowPct,
        edgeNow: r.edgeNow,
        projectionAgrees: r.projectionAgrees,
      };
    });
  return {
    sport,
    snapshotId: snap.id,
    takenAt: snap.takenAt,
    slateDate: snap.slateDate,
    gradedCount: snap.gradedCount,
    rowCount: snap.rowCount,
    previous: prev ? { snapshotId: prev.id, takenAt: prev.takenAt } : null,
    rows,
  };
}

/**
 * Public entries with game dates in [from, to], each with the archetype its grade lock carried; as
 * of `asOf` when given (docs/ledger.md "As of a time"): only those locked and entered by then, each outcome as it
 * stood then.
 */
async function publicEntries(store: Store, from: string, to: string, asOf: Date | null): Promise<LedgerFact[]> {
  const { db, t } = await on(store);
  const { ledgerEntries, gradeLocks } = t;
  const joined = await db
    .select({ e: ledgerEntries, archetype: gradeLocks.archetype })
    .from(ledgerEntries)
    .leftJoin(gradeLocks, lockOf(gradeLocks, ledgerEntries))
    .where(and(isNull(ledgerEntries.userId), gte(ledgerEntries.gameDate, from), lte(ledgerEntries.gameDate, to), ...(asOf !== null ? [lte(ledgerEntries.lockedAt, asOf.toISOString()), enteredBy(ledgerEntries, asOf.toISOString())] : [])))
    .orderBy(asc(ledgerEntries.commenceTime), asc(ledgerEntries.id));
  return joined.map(({ e: stored, archetype }) => ({ e: closeAsOf(entryAsOf(stored, asOf), asOf), archetype })).map(({ e, archetype }) => ({
      id: e.id,
      sport: e.sport,
      eventId: e.eventId,
      commenceTime: e.commenceTime,
      gameDate: e.gameDate,
      player: e.player,
      playerKey: e.playerKey,
      team: e.team,
      opponent: e.opponent,
      statType: e.statType,
      line: e.line,
      side: e.side,
      grade: e.grade,
      book: e.book,
      price: e.lockedPrice,
      pWin: e.pWin,
      gradedAt: e.lockedAt,
      outcome: e.outcome,
      actualValue: e.actualValue,
      clvVerdict: e.clvVerdict,
      clvPct: e.clvPct,
      closeMethod: e.closeMethod,
      closeLeadMinutes: e.closeLeadMinutes,
      pinnacleClvVerdict: e.pinnacleClvVerdict,
      pinnacleCloseLeadMinutes: e.pinnacleCloseLeadMinutes,
      archetype: archetype ?? null,
    }));
}

const isSettled = (e: LedgerFact) => e.outcome !== 'pending';

/**
 * The record's windows, as `propgrade record` counts them (reads/record.ts sportWindows): each graded
 * sport's 30 days ending on its own data clock, or every sport's ending on `date` when the caller
 * names no clock (a pack for a chosen date, or a live store, where every clock is one instant).
 */
function recordWindows(date: string, clockFor: ((sport: string) => Date) | undefined): SportRecordWindow[] {
  return GRADED_SPORTS.map((sport) => ({ sport, ...recordWindow(clockFor ? clockFor(sport) : instantOf(date), RECORD_WINDOW_DAYS) }));
}

const inWindow = (windows: readonly SportRecordWindow[]) => (e: LedgerFact) => windows.some((w) => w.sport === e.sport && e.gameDate >= w.from && e.gameDate <= w.to);

/**
 * Reads everything the documents for `date` may say. `date` defaults to the ET date of `now`.
 * The record is read in `propgrade record`'s windows: each sport's on `clockFor(sport)` when given.
 * The settle is `date`'s when any of its entries is settled (a report built after the games),
 * else the day before's (the morning report). `asOf`: every outcome as it stood then (settled later:
 * pending), as the record reads it, and each slate from its newest snapshot taken by then (a later
 * one is not read); null or absent reads every outcome and snapshot the store holds.
 */
export async function readContentFacts(store: Store, options: { now: Date; date?: string | undefined; clockFor?: ((sport: string) => Date) | undefined; asOf?: Date | null | undefined }): Promise<ContentFacts> {
  const date = options.date ?? easternDate(options.now);
  const slates: SlateFact[] = [];
  for (const sport of GRADED_SPORTS) {
    const slate = await slateOf(store, sport, date, options.asOf ?? null);
    if (slate !== null) slates.push(slate);
  }
  const windows = recordWindows(date, options.clockFor);
  const yesterday = addDays(date, -1);
  // One read over every window and the settle's two days; each entry then counts only in its sport's window.
  const from = [yesterday, ...windows.map((w) => w.from)].sort()[0]!;
  const to = [date, ...windows.map((w) => w.to)].sort().at(-1)!;
  const read = await publicEntries(store, from, to, options.asOf ?? null);
  const record = read.filter(inWindow(windows));
  const window = { from: windows.map((w) => w.from).sort()[0]!, to: windows.map((w) => w.to).sort().at(-1)! };
  const settleDate = read.some((e) => e.gameDate === date && isSettled(e)) ? date : read.some((e) => e.gameDate === yesterday && isSettled(e)) ? yesterday : null;
  const settle = settleDate === null ? [] : read.filter((e) => e.gameDate === settleDate);
  return { date, now: options.now.toISOString(), slates, settleDate, settle, window, windows, record };
}
