import { and, asc, desc, eq, gt, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Store } from '../db.js';
import { opsOf } from '../engine-ops.js';
import { on, type Handle } from './handle.js';
import type { GradedRowRecord } from './snapshots.js';

/**
 * The read models' reads of graded rows beyond a whole snapshot (snapshots.ts): names on a board,
 * one player's upcoming rows, a team's rows, the hero candidates. Reads only.
 */

/** The distinct player names on a snapshot's board. */
export async function boardNames(store: Store, snapshotId: number): Promise<string[]> {
  const { db, t } = await on(store);
  const rows = await db.selectDistinct({ name: t.gradedRows.player }).from(t.gradedRows).where(eq(t.gradedRows.snapshotId, snapshotId));
  return rows.map((r) => r.name);
}

/** The distinct spellings of one player key on a snapshot's board. */
export async function boardNamesOf(store: Store, snapshotId: number, sport: string, playerKey: string): Promise<string[]> {
  const { db, t } = await on(store);
  const g = t.gradedRows;
  const rows = await db
    .selectDistinct({ name: g.player })
    .from(g)
    .where(and(eq(g.sport, sport), eq(g.playerKey, playerKey), eq(g.snapshotId, snapshotId)));
  return rows.map((r) => r.name);
}

/** The board columns a scan reads; the row's model detail (large JSON) is never needed there. */
function boardColumns(g: Handle['t']['gradedRows']) {
  return {
    eventId: g.eventId,
    commenceTime: g.commenceTime,
    homeTeam: g.homeTeam,
    awayTeam: g.awayTeam,
    player: g.player,
    team: g.team,
    opponent: g.opponent,
    statType: g.statType,
    line: g.line,
    side: g.side,
    book: g.book,
    overOdds: g.overOdds,
    underOdds: g.underOdds,
    bookOdds: g.bookOdds,
    fairOdds: g.fairOdds,
    fairProb: g.fairProb,
    overround: g.overround,
    devigMethod: g.devigMethod,
    fairSource: g.fairSource,
    consensusBooks: g.consensusBooks,
    thinConsensus: g.thinConsensus,
    outlierPrice: g.outlierPrice,
    outlierBook: g.outlierBook,
  };
}
export type BoardRow = { [K in keyof ReturnType<typeof boardColumns>]: GradedRowRecord[K] };

/** A player's rows on a snapshot for games starting after `afterIso`, earliest game first (sport + key hit the lookup index). */
export async function upcomingRowsOf(store: Store, snapshotId: number, sport: string, playerKey: string, afterIso: string): Promise<BoardRow[]> {
  const { db, t } = await on(store);
  const g = t.gradedRows;
  return db
    .select(boardColumns(g))
    .from(g)
    .where(and(eq(g.sport, sport), eq(g.playerKey, playerKey), eq(g.snapshotId, snapshotId), gt(g.commenceTime, afterIso)))
    .orderBy(asc(g.commenceTime));
}

/** A snapshot's rows for the team codes. */
export async function teamRows(store: Store, snapshotId: number, teams: readonly string[]): Promise<GradedRowRecord[]> {
  const { db, t } = await on(store);
  const ops = opsOf(store);
  return db
    .select()
    .from(t.gradedRows)
    .where(and(eq(t.gradedRows.snapshotId, snapshotId), inArray(t.gradedRows.team, [...teams])))
    // The (snapshot, event, player, stat, line, side) index order SQLite answers in; PostgreSQL has no order without it.
    .orderBy(...[t.gradedRows.eventId, t.gradedRows.playerKey, t.gradedRows.statType].map((c) => ops.byBytes(c)), t.gradedRows.line, ops.byBytes(t.gradedRows.side));
}

/** Each distinct (player, team, graded at) of a sport's stored rows, newest grade first. */
export async function gradedNameTeams(store: Store, sport: string): Promise<Array<{ player: string; team: string | null; seen: string }>> {
  const { db, t } = await on(store);
  const g = t.gradedRows;
  return db.selectDistinct({ player: g.player, team: g.team, seen: g.gradedAt }).from(g).where(eq(g.sport, sport)).orderBy(desc(g.gradedAt));
}

/** Hero candidates: A or B with both a projection and a line (line is never null in the store). */
// Main lines only: an alternate rung far from the projection is a ladder artefact, not a hero.
// The hero leads with the projection's gap, so a projection on the other side of the line never
// competes (it would be offered as support for a side it contradicts), nor a claim whose edge is
// gone at the best price now (docs/api.md).
// `coalesce(projection_agrees, true)` reads on both engines (SQLite's true is 1, PostgreSQL's a boolean).
function heroWhere(g: Handle['t']['gradedRows']) {
  return and(
    inArray(g.grade, ['A', 'B']),
    isNotNull(g.projection),
    eq(g.isMainLine, true),
    sql`coalesce(${g.projectionAgrees}, true)`,
    sql`coalesce(${g.edgeNow}, '') != 'gone'`,
  );
}
const gap = (g: Handle['t']['gradedRows']) => sql`abs(${g.projection} - ${g.line})`;

/** The hero candidate of the snapshots with the largest |projection - line| (newest grade, then lowest id, on a tie). */
export async function heroOfSnapshots(store: Store, snapshotIds: readonly number[]): Promise<GradedRowRecord | null> {
  const { db, t } = await on(store);
  const g = t.gradedRows;
  const [row] = await db
    .select()
    .from(g)
    .where(and(inArray(g.snapshotId, [...snapshotIds]), heroWhere(g)))
    .orderBy(desc(gap(g)), desc(g.gradedAt), g.id)
    .limit(1);
  return row ?? null;
}

/**
 * The hero candidate of the sports' newest snapshot holding one, by the largest gap; as of a time
 * (`asOf`, issue 41 item 5) only snapshots taken at or before it.
 */
export async function latestHeroOf(store: Store, sports: readonly string[], asOf: Date | null = null): Promise<GradedRowRecord | null> {
  const { db, t } = await on(store);
  const g = t.gradedRows;
  const byThen = asOf === null ? [] : [inArray(g.snapshotId, db.select({ id: t.snapshots.id }).from(t.snapshots).where(lte(t.snapshots.takenAt, asOf.toISOString())))];
  const [row] = await db
    .select()
    .from(g)
    .where(and(inArray(g.sport, [...sports]), heroWhere(g), ...byThen))
    .orderBy(desc(g.snapshotId), desc(gap(g)), g.id)
    .limit(1);
  return row ?? null;
}
