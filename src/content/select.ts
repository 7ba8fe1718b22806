import { compareGrades, type Grade } from '../domain/grades.js';
import { createRecordTally, modelAggregate, outcomeCode, tierCalibration, tierIndex, yardstickVerdict, type ModelAggregate, type RecordRow, type TierCalibration } from '../domain/records.js';
import { hasClaimPrice, type ClaimedRow, type ContentFacts, type LedgerFact, type SlateFact, type SlateRowFact } from '../domain/facts.js';
import { instantOf } from '../domain/time.js';

/**
 * Pure selections over the facts that several documents share: the day's strongest reads, the
 * grade counts, the line moves, the record aggregates and the streaks.
 */

const propKey = (r: { eventId: string; playerKey: string; statType: string }) => `${r.eventId}|${r.playerKey}|${r.statType}`;

/** Main-line rows that carry a grade: what the board claims (ladder rungs are pricing, not opinions). */
export function gradedMainLines(slate: SlateFact): SlateRowFact[] {
  return slate.rows.filter((r) => r.isMainLine === true && r.grade !== null);
}

/** Better grade first, then the larger claim inside the grade, then by name for a stable order. */
function compareReads(a: SlateRowFact, b: SlateRowFact): number {
  const g = compareGrades(a.grade as Grade | null, b.grade as Grade | null);
  if (g !== 0) return g;
  const ea = a.evPct ?? Number.NEGATIVE_INFINITY;
  const eb = b.evPct ?? Number.NEGATIVE_INFINITY;
  if (ea !== eb) return eb - ea;
  return a.player.localeCompare(b.player) || a.statType.localeCompare(b.statType) || a.side.localeCompare(b.side);
}

/**
 * The strongest real reads: A+ and A main lines whose claim can be quoted with its own price (the
 * lock's book and odds) against a fair that was a consensus of 3+ other books when graded, whose
 * price is not set aside as an outlier now, and whose claimed edge is not gone at the best price
 * now (a claim the market has since taken away is not today's strong read, docs/content.md), one
 * per prop (game, player, stat), best first. A grade short of that is not presented as a strong read.
 */
export function strongestReads(slates: readonly SlateFact[], limit: number): ClaimedRow[] {
  const best = new Map<string, ClaimedRow>();
  for (const slate of slates) {
    for (const r of gradedMainLines(slate)) {
      if (r.grade !== 'A+' && r.grade !== 'A') continue;
      if (r.outlierPrice === true || r.thinConsensus === true || r.lockedConsensusBooks === null || r.lockedConsensusBooks < 3) continue;
      if (r.lockedFairSource !== null && r.lockedFairSource !== 'consensus') continue;
      if (!hasClaimPrice(r) || r.lockedFairOdds === null) continue;
      if (r.edgeNow === 'gone') continue;
      const k = propKey(r);
      const cur = best.get(k);
      if (!cur || compareReads(r, cur) < 0) best.set(k, r);
    }
  }
  return [...best.values()].sort(compareReads).slice(0, limit);
}

export interface GradeCounts {
  grade: string;
  rows: SlateRowFact[];
}

/** Main-line rows per grade, A+ to F (grades with no row left out). */
export function gradeCounts(slates: readonly SlateFact[]): GradeCounts[] {
  const all = slates.flatMap(gradedMainLines);
  return (['A+', 'A', 'B', 'C', 'F'] as const).map((grade) => ({ grade, rows: all.filter((r) => r.grade === grade) })).filter((g) => g.rows.length > 0);
}

export interface LineMove {
  sport: string;
  player: string;
  team: string | null;
  statType: string;
  previousLine: number;
  line: number;
  direction: 'toward' | 'away' | null;
  projection: number | null;
  game: string;
  commenceTime: string;
  /** The rows of the moved main line, one per side, as graded now. */
  sides: SlateRowFact[];
}

/** Main lines that moved since the previous snapshot, one per prop, largest move first. */
export function lineMoves(slates: readonly SlateFact[]): LineMove[] {
  const byProp = new Map<string, SlateRowFact[]>();
  for (const slate of slates) {
    for (const r of slate.rows) {
      if (r.isMainLine !== true || r.lineDelta === null || r.lineDelta === 0 || r.previousLine === null) continue;
      const list = byProp.get(propKey(r)) ?? [];
      list.push(r);
      byProp.set(propKey(r), list);
    }
  }
  const moves: LineMove[] = [];
  for (const rows of byProp.values()) {
    const first = rows[0];
    if (!first || first.previousLine === null) continue;
    moves.push({
      sport: first.sport,
      player: first.player,
      team: first.team,
      statType: first.statType,
      previousLine: first.previousLine,
      line: first.line,
      direction: first.lineDirection,
      projection: first.projection,
      game: `${first.awayTeam} @ ${first.homeTeam}`,
      commenceTime: first.commenceTime,
      sides: [...rows].sort((a, b) => a.side.localeCompare(b.side)),
    });
  }
  return moves.sort((a, b) => Math.abs(b.line - b.previousLine) - Math.abs(a.line - a.previousLine) || a.commenceTime.localeCompare(b.commenceTime) || a.player.localeCompare(b.player));
}

function recordRows(entries: readonly LedgerFact[]): RecordRow[] {
  return entries.map((e) => ({
    userId: null,
    sport: e.sport,
    gameDate: e.gameDate,
    team: e.team,
    player: e.player,
    playerKey: e.playerKey,
    grade: e.grade,
    pWin: e.pWin,
    outcome: e.outcome,
    clvVerdict: e.clvVerdict,
    closeMethod: e.closeMethod,
    closeLeadMinutes: e.closeLeadMinutes,
    lockedPrice: e.price,
    // The ROI interval resamples whole games: without the game, each row would be a game of its own.
    eventId: e.eventId,
    pinnacleClvVerdict: e.pinnacleClvVerdict,
    pinnacleCloseLeadMinutes: e.pinnacleCloseLeadMinutes,
  }));
}

/** The record over entries of one ET date, through the same domain functions as `propgrade record`. */
export function dayRecord(entries: readonly LedgerFact[], date: string): { aggregate: ModelAggregate; tiers: TierCalibration[] } {
  const rows = recordRows(entries);
  const scope = { now: instantOf(date), date };
  return { aggregate: modelAggregate(rows, scope), tiers: tierCalibration(rows, scope) };
}

/**
 * The record of the facts' windows (each sport's 30 days on its own clock, as `propgrade record`
 * counts them): `facts.record` holds exactly the entries of those windows, tallied by the record's
 * one tally, so counts, units, rates and intervals are the record's.
 */
export function windowsRecord(facts: Pick<ContentFacts, 'record' | 'window'>): { aggregate: ModelAggregate; tiers: TierCalibration[] } {
  const tally = createRecordTally();
  for (const r of recordRows(facts.record)) {
    tally.add(tierIndex(r.grade), outcomeCode(r.outcome), yardstickVerdict(r), r.pWin, r.lockedPrice, r.closeLeadMinutes ?? null, r.eventId ?? null, r.pinnacleClvVerdict ?? null, r.pinnacleCloseLeadMinutes ?? null);
  }
  return { aggregate: tally.aggregate(facts.window, { team: null, player: null, sport: null }), tiers: tally.tiers() };
}

export const isDecided = (e: LedgerFact) => e.outcome === 'hit' || e.outcome === 'miss';

/** The shortest run the streak watch reports. */
export const MIN_STREAK = 3;

export interface Streak {
  player: string;
  playerKey: string;
  team: string | null;
  statType: string;
  outcome: 'hit' | 'miss';
  /** Consecutive games, newest back, whose public read on this prop had this outcome. */
  run: number;
  /** Games of this prop with a decided read in the window. */
  n: number;
  /** The entries of the run, newest first. */
  entries: LedgerFact[];
}

/**
 * Current runs of the public record per player and stat, counted in games: per game the latest
 * read of the prop (a moved line re-grades it), newest game back. A void (did not play) is skipped,
 * a push ends the run, a pending game is not yet part of it. Runs of `minRun` or more, longest first.
 */
export function streaks(entries: readonly LedgerFact[], minRun = MIN_STREAK): Streak[] {
  const byProp = new Map<string, Map<string, LedgerFact>>();
  for (const e of entries) {
    const k = `${e.playerKey}|${e.statType}`;
    const games = byProp.get(k) ?? new Map<string, LedgerFact>();
    const cur = games.get(e.eventId);
    if (!cur || e.gradedAt > cur.gradedAt || (e.gradedAt === cur.gradedAt && e.id > cur.id)) games.set(e.eventId, e);
    byProp.set(k, games);
  }
  const out: Streak[] = [];
  for (const games of byProp.values()) {
    const ordered = [...games.values()].filter((e) => e.outcome !== 'pending' && e.outcome !== 'void').sort((a, b) => b.commenceTime.localeCompare(a.commenceTime));
    const head = ordered[0];
    if (!head || (head.outcome !== 'hit' && head.outcome !== 'miss')) continue;
    const run: LedgerFact[] = [];
    for (const e of ordered) {
      if (e.outcome !== head.outcome) break;
      run.push(e);
    }
    if (run.length < minRun) continue;
    out.push({
      player: head.player,
      playerKey: head.playerKey,
      team: head.team,
      statType: head.statType,
      outcome: head.outcome,
      run: run.length,
      n: ordered.filter(isDecided).length,
      entries: run,
    });
  }
  return out.sort((a, b) => b.run - a.run || a.player.localeCompare(b.player) || a.statType.localeCompare(b.statType));
}

/** Distinct game dates with a settled public entry. */
export function settledDates(entries: readonly LedgerFact[]): string[] {
  return [...new Set(entries.filter((e) => e.outcome !== 'pending').map((e) => e.gameDate))].sort();
}
