import { and, asc, desc, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db.js';
import { gradedRows } from '../schema.js';
import type { GradedRowRecord } from './snapshots.js';

/**
 * The read models' reads of graded rows beyond a whole snapshot (snapshots.ts): names on a board,
 * one player's upcoming rows, a team's rows, the hero candidates. Reads only.
 */

/** The distinct player names on a snapshot's board. */
export function boardNames(db: Db, snapshotId: number): string[] {
  return db
    .selectDistinct({ name: gradedRows.player })
    .from(gradedRows)
    .where(eq(gradedRows.snapshotId, snapshotId))
    .all()
    .map((r) => r.name);
}

/** The distinct spellings of one player key on a snapshot's board. */
export function boardNamesOf(db: Db, snapshotId: number, sport: string, playerKey: string): string[] {
  return db
    .selectDistinct({ name: gradedRows.player })
    .from(gradedRows)
    .where(and(eq(gradedRows.sport, sport), eq(gradedRows.playerKey, playerKey), eq(gradedRows.snapshotId, snapshotId)))
    .all()
    .map((r) => r.name);
}

/** The board columns a scan reads; the row's model detail (large JSON) is never needed there. */
const BOARD_COLUMNS = {
  eventId: gradedRows.eventId,
  commenceTime: gradedRows.commenceTime,
  homeTeam: gradedRows.homeTeam,
  awayTeam: gradedRows.awayTeam,
  player: gradedRows.player,
  team: gradedRows.team,
  opponent: gradedRows.opponent,
  statType: gradedRows.statType,
  line: gradedRows.line,
  side: gradedRows.side,
  book: gradedRows.book,
  overOdds: gradedRows.overOdds,
  underOdds: gradedRows.underOdds,
  bookOdds: gradedRows.bookOdds,
  fairOdds: gradedRows.fairOdds,
  fairProb: gradedRows.fairProb,
  overround: gradedRows.overround,
  devigMethod: gradedRows.devigMethod,
  fairSource: gradedRows.fairSource,
  consensusBooks: gradedRows.consensusBooks,
  thinConsensus: gradedRows.thinConsensus,
  outlierPrice: gradedRows.outlierPrice,
  outlierBook: gradedRows.outlierBook,
};
export type BoardRow = { [K in keyof typeof BOARD_COLUMNS]: GradedRowRecord[K] };

/** A player's rows on a snapshot for games starting after `afterIso`, earliest game first (sport + key hit the lookup index). */
export function upcomingRowsOf(db: Db, snapshotId: number, sport: string, playerKey: string, afterIso: string): BoardRow[] {
  return db
    .select(BOARD_COLUMNS)
    .from(gradedRows)
    .where(and(eq(gradedRows.sport, sport), eq(gradedRows.playerKey, playerKey), eq(gradedRows.snapshotId, snapshotId), gt(gradedRows.commenceTime, afterIso)))
    .orderBy(asc(gradedRows.commenceTime))
    .all();
}

/** A snapshot's rows for the team codes. */
export function teamRows(db: Db, snapshotId: number, teams: readonly string[]): GradedRowRecord[] {
  return db
    .select()
    .from(gradedRows)
    .where(and(eq(gradedRows.snapshotId, snapshotId), inArray(gradedRows.team, [...teams])))
    .all();
}

/** Each distinct (player, team, graded at) of a sport's stored rows, newest grade first. */
export function gradedNameTeams(db: Db, sport: string): Array<{ player: string; team: string | null; seen: string }> {
  return db
    .selectDistinct({ player: gradedRows.player, team: gradedRows.team, seen: gradedRows.gradedAt })
    .from(gradedRows)
    .where(eq(gradedRows.sport, sport))
    .orderBy(desc(gradedRows.gradedAt))
    .all();
}

/** Hero candidates: A or B with both a projection and a line (line is never null in the store). */
// Main lines only: an alternate rung far from the projection is a ladder artefact, not a hero.
// The hero leads with the projection's gap, so a projection on the other side of the line never
// competes (it would be offered as support for a side it contradicts), nor a claim whose edge is
// gone at the best price now (docs/api.md).
const heroWhere = and(
  inArray(gradedRows.grade, ['A', 'B']),
  isNotNull(gradedRows.projection),
  eq(gradedRows.isMainLine, true),
  sql`coalesce(${gradedRows.projectionAgrees}, 1) = 1`,
  sql`coalesce(${gradedRows.edgeNow}, '') != 'gone'`,
);
const gap = sql`abs(${gradedRows.projection} - ${gradedRows.line})`;

/** The hero candidate of the snapshots with the largest |projection - line| (newest grade, then lowest id, on a tie). */
export function heroOfSnapshots(db: Db, snapshotIds: readonly number[]): GradedRowRecord | null {
  return (
    db
      .select()
      .from(gradedRows)
      .where(and(inArray(gradedRows.snapshotId, [...snapshotIds]), heroWhere))
      .orderBy(desc(gap), desc(gradedRows.gradedAt), gradedRows.id)
      .limit(1)
      .get() ?? null
  );
}

/** The hero candidate of the sports' newest snapshot holding one, by the largest gap. */
export function latestHeroOf(db: Db, sports: readonly string[]): GradedRowRecord | null {
  return (
    db
      .select()
      .from(gradedRows)
      .where(and(inArray(gradedRows.sport, [...sports]), heroWhere))
      .orderBy(desc(gradedRows.snapshotId), desc(gap), gradedRows.id)
      .limit(1)
      .get() ?? null
  );
}
