import { z } from 'zod';
import { archetypeBefore } from '../domain/archetypes/index.js';
import type { PlayerGameStat } from '../domain/entities.js';
import type { DataClock } from '../domain/data-clock.js';
import { INSUFFICIENT_DATA, type Grade } from '../domain/grades.js';
import type { CapReason } from '../domain/model/index.js';
import type { PlayerSuggestion } from '../domain/name-suggest.js';
import { playerNameSchema } from '../domain/names.js';
import type { GameRef, PlayerCandidate, PropEvaluation, PropQuery } from '../domain/prop-evaluation.js';
import { projectionView, type ProjectionRecord } from '../domain/projection-view.js';
import { seasonStart } from '../domain/season.js';
import { gradedSportSchema, sideSchema, type GradedSport, type Side } from '../domain/sports.js';
import { propLineSchema, statInputSchema, type StatType } from '../domain/stats.js';
import { badInput } from '../errors.js';
import type { Store } from '../store/db.js';
import type { BoardRow } from '../store/repo/graded-rows.js';
import { insertLedgerEntries, type NewLedgerEntry } from '../store/repo/ledger.js';
import { userExists } from '../store/repo/users.js';

/**
 * Manual scan of one player/stat/line/side: the snapshot's engine (gradeProp) on the stored
 * history, never a provider call. Prices come only from the latest pre-graded snapshot by exact
 * join; a refused read writes nothing and is not metered; only a scan with a user id is written
 * to the ledger, under that user.
 */

export const scanRequestSchema = z.object({
  player: playerNameSchema,
  stat: statInputSchema,
  line: propLineSchema,
  direction: sideSchema,
  sport: gradedSportSchema.optional(),
});
export type ScanRequest = z.infer<typeof scanRequestSchema>;

/**
 * How the scan grades its prop: reads/evaluate-prop.ts's evaluateProp, handed in by the caller
 * (cli/, server/) because jobs/ does not import reads/.
 */
export type PropEvaluator = (store: Store, q: PropQuery, clock: DataClock) => Promise<PropEvaluation<BoardRow>>;

// ---------------------------------------------------------------- intel

export interface ScanIntel {
  seasonAvg?: number;
  /** Mean of the stat over the last 5 played games of the season. */
  form?: number;
  /** Basketball usage proxy: fga + 0.44 x fta per played game. */
  usage?: number;
  minutesAvg?: number;
  archetype?: string;
  /** Played games this season (the sample behind season_avg, usage and minutes_avg). */
  games?: number;
  /** First date of the season window (sport calendar). */
  seasonFrom?: string;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** A game the player played and the stat was recorded in (a 0-minute row is a DNP). */
function playedValue(row: PlayerGameStat, stat: StatType): number | null {
  const v = row.stats[stat];
  if (typeof v !== 'number') return null;
  if (row.minutes !== null && row.minutes <= 0) return null;
  return v;
}

/** Intel from the player's real games of the current season; each field only when computable. */
export function scanIntel(sport: GradedSport, stat: StatType, history: readonly PlayerGameStat[], gameDate: string, archetype: string | null): ScanIntel {
  const from = seasonStart(sport, gameDate);
  // history is newest first.
  const season = history.filter((r) => r.date >= from && r.date < gameDate && playedValue(r, stat) !== null);
  const values = season.map((r) => playedValue(r, stat) as number);
  const intel: ScanIntel = { games: season.length, seasonFrom: from };
  if (values.length > 0) intel.seasonAvg = round2(mean(values));
  if (values.length >= 5) intel.form = round2(mean(values.slice(0, 5)));
  const minutes = season.map((r) => r.minutes).filter((m): m is number => m !== null);
  if (minutes.length > 0) intel.minutesAvg = round2(mean(minutes));
  const usage = season
    .map((r) => ({ fga: r.extras['fga'], fta: r.extras['fta'] }))
    .filter((u): u is { fga: number; fta: number } => typeof u.fga === 'number' && typeof u.fta === 'number')
    .map((u) => u.fga + 0.44 * u.fta);
  if (usage.length > 0) intel.usage = round2(mean(usage));
  if (archetype !== null) intel.archetype = archetype;
  return intel;
}

// ---------------------------------------------------------------- scan

export interface ScanPrices {
  book: string | null;
  bookOdds: number;
  fairOdds: number;
  fairProb: number | null;
  overround: number | null;
  devigMethod: string | null;
  fairSource: string | null;
  consensusBooks: number | null;
}

export interface ScanResult {
  status: 'graded' | 'refused' | 'ambiguous' | 'unknown_player';
  request: { player: string; stat: StatType; line: number; direction: Side };
  sport?: GradedSport;
  player?: { name: string; key: string; team: string | null };
  candidates?: PlayerCandidate[];
  /** For an unknown name: real players whose names come close ("did you mean"), best first; never used to grade. */
  suggestions?: PlayerSuggestion[];
  game?: GameRef | null;
  /** ET date the grade was computed for (history strictly before it). */
  gradedFor?: string;
  grade: Grade | null;
  /** The letter the EV earns uncapped, and why grade sits below it (null: not capped); absent without a grade. */
  gradeUncapped?: Grade;
  capReason?: CapReason | null;
  flags: string[];
  refusalReason?: string;
  projection: number | null;
  pWin: number | null;
  modelOdds: number | null;
  evPct: number | null;
  value: number | null;
  takeable: boolean | null;
  /** The projection's own view (paid tiers; domain/projection-view.ts): null without a graded read. */
  projectionProb: number | null;
  projectionOdds: number | null;
  projectionEvPct: number | null;
  projectionRecord: ProjectionRecord | null;
  intel: ScanIntel;
  prices: ScanPrices | null;
  ledger: { written: boolean; reason?: string };
  /** Whether this read counts against the caller's rolling scan meter (refusals never do). */
  metered: boolean;
}

/** Book and fair prices from the board row, only when both are present. */
export function pricesFrom(row: BoardRow | null): ScanPrices | null {
  if (!row || row.bookOdds === null || row.fairOdds === null) return null;
  return {
    book: row.book,
    bookOdds: row.bookOdds,
    fairOdds: row.fairOdds,
    fairProb: row.fairProb,
    overround: row.overround,
    devigMethod: row.devigMethod,
    fairSource: row.fairSource,
    consensusBooks: row.consensusBooks,
  };
}

const NO_MODEL = { projection: null, pWin: null, modelOdds: null, evPct: null, value: null, takeable: null, projectionProb: null, projectionOdds: null, projectionEvPct: null, projectionRecord: null } as const;

export async function runScan(store: Store, request: ScanRequest, opts: { now: DataClock; userId: number | null; evaluate: PropEvaluator }): Promise<ScanResult> {
  const { userId, evaluate } = opts;
  if (userId !== null && !(await userExists(store, userId))) {
    throw badInput(`no user with id ${userId}`);
  }
  const req = { player: request.player, stat: request.stat, line: request.line, direction: request.direction };
  const ev = await evaluate(store, { player: request.player, stat: request.stat, line: request.line, side: request.direction, sport: request.sport }, opts.now);
  if (!ev.resolved) {
    return {
      status: ev.status,
      request: req,
      ...(ev.status === 'ambiguous' ? { candidates: ev.candidates } : {}),
      ...(ev.suggestions && ev.suggestions.length > 0 ? { suggestions: ev.suggestions } : {}),
      grade: null,
      flags: [INSUFFICIENT_DATA, ev.status === 'ambiguous' ? 'ambiguous_player' : 'unknown_player'],
      ...NO_MODEL,
      intel: {},
      prices: null,
      ledger: { written: false, reason: ev.status === 'ambiguous' ? 'the player name is ambiguous' : 'no such player in the store' },
      metered: false,
    };
  }

  const archetype = archetypeBefore(ev.sport, ev.history, ev.gameDate).classification?.primary ?? null;
  const base = {
    request: req,
    sport: ev.sport,
    player: { ...ev.player, team: ev.team },
    game: ev.game,
    gradedFor: ev.gameDate,
    intel: scanIntel(ev.sport, request.stat, ev.history, ev.gameDate, archetype),
    prices: pricesFrom(ev.boardRow),
  };
  const out = ev.outcome;
  if (out.insufficientData) {
    return {
      status: 'refused',
      ...base,
      grade: null,
      flags: [INSUFFICIENT_DATA],
      refusalReason: out.reason,
      ...NO_MODEL,
      // A line with no market still has a real projection when the history holds one.
      projection: out.projection,
      ledger: { written: false, reason: 'a refused read is never written to the ledger' },
      metered: false,
    };
  }
  const result: ScanResult = {
    status: 'graded',
    ...base,
    grade: out.grade,
    gradeUncapped: out.gradeUncapped,
    capReason: out.capReason,
    flags: [],
    projection: out.projection,
    pWin: out.pWin,
    modelOdds: out.modelOdds,
    evPct: out.evPct,
    value: out.value,
    takeable: out.takeable,
    // At the price the grade was read on (the board row's), as ev_pct is.
    ...projectionView(ev.sport, request.stat, out.detail.pModel, ev.boardRow?.bookOdds ?? null),
    ledger: { written: false },
    metered: true,
  };
  if (userId === null) return { ...result, ledger: { written: false, reason: 'anonymous scans never touch the ledger' } };
  if (ev.game === null) {
    return { ...result, ledger: { written: false, reason: `${ev.player.name} has no upcoming game on the latest ${ev.sport} snapshot; a ledger entry needs a game` } };
  }
  const entry: NewLedgerEntry = {
    userId,
    source: 'scan',
    sport: ev.sport,
    eventId: ev.game.eventId,
    commenceTime: ev.game.commenceTime,
    gameDate: ev.gameDate,
    player: ev.player.name,
    playerKey: ev.player.key,
    team: ev.team,
    opponent: ev.game.opponent,
    statType: request.stat,
    line: request.line,
    side: request.direction,
    grade: out.grade,
    gradeUncapped: out.gradeUncapped,
    capReason: out.capReason,
    projection: out.projection,
    pWin: out.pWin,
    book: result.prices?.book ?? null,
    lockedPrice: result.prices?.bookOdds ?? null,
    lockedFairProb: result.prices?.fairProb ?? null,
    lockedAt: ev.now.toISOString(),
    enteredAt: ev.now.toISOString(),
    outcome: 'pending',
  };
  const inserted = await insertLedgerEntries(store, [entry]);
  return {
    ...result,
    ledger: inserted > 0 ? { written: true } : { written: false, reason: 'already in this user’s ledger (same game, player, stat, line and side); the first entry stands' },
  };
}
