import { and, asc, desc, eq, gte, isNull, lt, lte, ne } from 'drizzle-orm';
import { fairAmerican } from '../../domain/odds.js';
import { RECORD_WINDOW_DAYS, recordWindow } from '../../domain/records.js';
import { GRADED_SPORTS } from '../../domain/sports.js';
import { addDays, easternDate, instantOf } from '../../domain/time.js';
import type { Store } from '../db.js';
import { gradedRows, gradeLocks, ledgerEntries, snapshots } from '../schema.js';
import type { ContentFacts, LedgerFact, SlateFact, SlateRowFact } from '../../domain/facts.js';

/**
 * The content desk's one read of the store: the day's slates, the settle and the 30-day record.
 * Reads only; the builders that turn these facts into documents are pure.
 */


/** The grade lock of a row keyed like it (event, player, stat, line, side): where its claim was made. */
function lockOf(t: typeof gradedRows | typeof ledgerEntries) {
  return and(eq(gradeLocks.eventId, t.eventId), eq(gradeLocks.playerKey, t.playerKey), eq(gradeLocks.statType, t.statType), eq(gradeLocks.line, t.line), eq(gradeLocks.side, t.side));
}

function slateOf(store: Store, sport: string, date: string): SlateFact | null {
  const snap = store.db
    .select()
    .from(snapshots)
    .where(and(eq(snapshots.sport, sport), eq(snapshots.slateDate, date)))
    .orderBy(desc(snapshots.takenAt), desc(snapshots.id))
    .limit(1)
    .get();
  if (!snap) return null;
  const prev = store.db
    .select({ id: snapshots.id, takenAt: snapshots.takenAt })
    .from(snapshots)
    .where(and(eq(snapshots.sport, sport), lt(snapshots.takenAt, snap.takenAt), ne(snapshots.id, snap.id)))
    .orderBy(desc(snapshots.takenAt), desc(snapshots.id))
    .limit(1)
    .get();
  const rows: SlateRowFact[] = store.db
    .select({ r: gradedRows, lockId: gradeLocks.id, lockDetail: gradeLocks.modelDetail })
    .from(gradedRows)
    .leftJoin(gradeLocks, lockOf(gradedRows))
    .where(eq(gradedRows.snapshotId, snap.id))
    .orderBy(asc(gradedRows.id))
    .all()
    .map(({ r, lockId, lockDetail }) => {
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

/** Public entries with game dates in [from, to], each with the archetype its grade lock carried. */
function publicEntries(store: Store, from: string, to: string): LedgerFact[] {
  return store.db
    .select({ e: ledgerEntries, archetype: gradeLocks.archetype })
    .from(ledgerEntries)
    .leftJoin(gradeLocks, lockOf(ledgerEntries))
    .where(and(isNull(ledgerEntries.userId), gte(ledgerEntries.gameDate, from), lte(ledgerEntries.gameDate, to)))
    .orderBy(asc(ledgerEntries.commenceTime), asc(ledgerEntries.id))
    .all()
    .map(({ e, archetype }) => ({
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
      archetype: archetype ?? null,
    }));
}

const isSettled = (e: LedgerFact) => e.outcome !== 'pending';

/**
 * Reads everything the documents for `date` may say. `date` defaults to the ET date of `now`.
 * The settle is `date`'s when any of its entries is settled (a report built after the games),
 * else the day before's (the morning report).
 */
export function readContentFacts(store: Store, options: { now: Date; date?: string | undefined }): ContentFacts {
  const date = options.date ?? easternDate(options.now);
  const slates = GRADED_SPORTS.map((s) => slateOf(store, s, date)).filter((s): s is SlateFact => s !== null);
  const window = recordWindow(instantOf(date), RECORD_WINDOW_DAYS);
  const record = publicEntries(store, window.from, window.to);
  const yesterday = addDays(date, -1);
  const settleDate = record.some((e) => e.gameDate === date && isSettled(e)) ? date : record.some((e) => e.gameDate === yesterday && isSettled(e)) ? yesterday : null;
  const settle = settleDate === null ? [] : record.filter((e) => e.gameDate === settleDate);
  return { date, now: options.now.toISOString(), slates, settleDate, settle, window, record };
}
