import { devigTwoWay } from '../domain/devig.js';
import type { PlayerGameStat } from '../domain/entities.js';
import type { Grade } from '../domain/grades.js';
import { gateRate } from '../domain/record-gate.js';
import { fitBlendWeight, fitExposureHalfLife, fitStat, trainingSeries, type BlendExample } from '../domain/model/fit.js';
import { gradeProp } from '../domain/model/grade-prop.js';
import { brier, calibrationTable, logLoss, pairedDifference, rowLogLoss, type CalibrationBin, type Scored } from '../domain/model/metrics.js';
import { statKey, type ModelParams, type StatParams } from '../domain/model/params.js';
import { normalizeName } from '../domain/names.js';
import { americanToDecimal, profitPerUnit } from '../domain/odds.js';
import type { Side } from '../domain/sports.js';
import type { StatType } from '../domain/stats.js';
import type { HistoricalProp } from '../feeds/history/props.js';

/**
 * Back-test: replays real historical props through the same gradeProp the snapshot uses, with
 * history cut strictly before each game, and scores the result against real box scores.
 *
 * Unit: the main line per (game date, player, game, stat), i.e. the line offered by the most books
 * (ties: de-vigged P(over) nearest 0.5), as history/NOTES.md defines it. Each main line yields an
 * over and an under row, each priced at the book with the best real price for that side (the
 * snapshot's rule), with that book's own pair as the market. Only both-sides-priced book rows count.
 */

export const NBA_BACKTEST_STATS: readonly StatType[] = ['points', 'rebounds', 'assists', 'threes', 'pra', 'blocks', 'steals'];

export interface BacktestOptions {
  /** Props to evaluate (only those dated inside [from, to] are graded). */
  props: readonly HistoricalProp[];
  /** Props for fitting the blend weight; only rows dated before fitBefore are used. */
  fitProps?: readonly HistoricalProp[];
  gamelogs: readonly PlayerGameStat[];
  /** League-wide 2024-25 threes per player-game: outcome for 2024-25 threes props, extra threes history. */
  threesResults?: readonly PlayerGameStat[];
  /** Inclusive ET game dates; default from = fitBefore, to = last prop date. */
  from?: string;
  to?: string;
  /** Exclusive cut-off for every fitted number. */
  fitBefore: string;
  /** Use these parameters instead of fitting (tests, or re-scoring the committed FITTED_PARAMS). */
  params?: ModelParams;
}

export interface MainLine {
  date: string;
  playerKey: string;
  player: string;
  game: string;
  stat: StatType;
  line: number;
  /** Books quoting both sides at this line. */
  books: number;
  /** Mean multiplicative de-vigged P(over) across those books (the NOTES.md consensus). */
  consensusOver: number;
  best: Record<Side, { book: string; overOdds: number; underOdds: number; price: number }>;
}

export interface GradedBacktestRow {
  date: string;
  player: string;
  stat: StatType;
  line: number;
  side: Side;
  book: string;
  bookOdds: number;
  grade: Grade;
  pWin: number;
  pModel: number;
  pMarket: number;
  evPct: number;
  actual: number;
  result: 'win' | 'loss' | 'push';
  consensusOver: number;
}

export interface TierSummary {
  n: number;
  wins: number;
  hitRate: number | null;
  ci95: [number, number] | null;
  roiPct: number;
  meanEvPct: number;
  logLoss: { blended: number | null; model: number | null; market: number | null };
  brier: { blended: number | null; model: number | null; market: number | null };
}

export interface PropLevelSummary {
  n: number;
  overHitRate: number | null;
  logLoss: { model: number | null; blended: number | null; marketShinBestBook: number | null; marketConsensus: number | null };
  brier: { model: number | null; blended: number | null; marketShinBestBook: number | null; marketConsensus: number | null };
  /** Per-prop log loss minus the consensus market's: negative = beats the market. */
  modelMinusMarket: { mean: number; se: number } | null;
  blendedMinusMarket: { mean: number; se: number } | null;
}

export interface BacktestReport {
  window: { from: string; to: string; fitBefore: string; inSample: boolean };
  params: ModelParams;
  fit: {
    exposureHalfLife: { halfLife: number; mse: number; n: number } | null;
    stats: Record<string, { trainingGames: number; mse: number; meanLogLik: number; poissonLogLik: number }>;
    blend: { weight: number; examples: number; logLoss: number; marketLogLoss: number; modelLogLoss: number } | null;
  } | null;
  counts: {
    propRows: number;
    mainLines: number;
    graded: number;
    refused: number;
    refusalReasons: Record<string, number>;
    void: number;
    scoredProps: number;
  };
  propLevel: Record<string, PropLevelSummary>;
  tiers: Record<string, Partial<Record<Grade | 'all', TierSummary>>>;
  calibration: { blended: CalibrationBin[]; model: CalibrationBin[]; market: CalibrationBin[] };
  rows: GradedBacktestRow[];
}

/** The history and outcome store for the run: per-player rows sorted by date. */
export class HistoryIndex {
  private readonly byPlayer = new Map<string, PlayerGameStat[]>();
  private readonly threesByKey = new Map<string, PlayerGameStat>();
  private readonly logsByKey = new Map<string, PlayerGameStat>();

  constructor(gamelogs: readonly PlayerGameStat[], threesResults: readonly PlayerGameStat[] = []) {
    for (const r of gamelogs) this.logsByKey.set(`${r.playerKey}|${r.date}`, r);
    for (const r of threesResults) this.threesByKey.set(`${r.playerKey}|${r.date}`, r);
    const merged = [...gamelogs, ...threesResults.filter((r) => !this.logsByKey.has(`${r.playerKey}|${r.date}`))];
    for (const r of merged) {
      let list = this.byPlayer.get(r.playerKey);
      if (!list) this.byPlayer.set(r.playerKey, (list = []));
      list.push(r);
    }
    for (const list of this.byPlayer.values()) list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  }

  /** Games strictly before `date` (binary search; the array is shared, never mutated). */
  before(playerKey: string, date: string): PlayerGameStat[] {
    const list = this.byPlayer.get(playerKey);
    if (!list) return [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((list[mid] as PlayerGameStat).date < date) lo = mid + 1;
      else hi = mid;
    }
    return list.slice(0, lo);
  }

  /**
   * The settled value, or null for void (no row, 0 minutes, no stat). 2024-25 threes settle on the
   * league-wide threes file first (NOTES.md join recipe step 3), everything else on the game logs.
   */
  outcome(playerKey: string, date: string, stat: StatType): number | null {
    const key = `${playerKey}|${date}`;
    const row = (stat === 'threes' ? this.threesByKey.get(key) : undefined) ?? this.logsByKey.get(key);
    if (!row || row.minutes === null || row.minutes <= 0) return null;
    const v = row.stats[stat];
    return typeof v === 'number' ? v : null;
  }
}

/** Main lines per (date, player, game, stat) from both-sides-priced book rows. */
export function mainLines(props: readonly HistoricalProp[]): MainLine[] {
  const groups = new Map<string, HistoricalProp[]>();
  for (const p of props) {
    if (p.overOdds === null || p.underOdds === null) continue;
    const key = normalizeName(p.player).key;
    const g = `${p.date}|${key}|${p.eventId ?? p.game}|${p.stat}`;
    let list = groups.get(g);
    if (!list) groups.set(g, (list = []));
    list.push(p);
  }
  const out: MainLine[] = [];
  for (const rows of groups.values()) {
    const byLine = new Map<number, { row: HistoricalProp; pOver: number }[]>();
    for (const r of rows) {
      const d = devigTwoWay(r.overOdds, r.underOdds, 'multiplicative');
      if (!d.ok) continue;
      let list = byLine.get(r.line);
      if (!list) byLine.set(r.line, (list = []));
      list.push({ row: r, pOver: d.probs[0] as number });
    }
    let chosen: { line: number; quotes: { row: HistoricalProp; pOver: number }[]; p: number } | null = null;
    for (const [line, quotes] of byLine) {
      const p = quotes.reduce((s, q) => s + q.pOver, 0) / quotes.length;
      if (
        chosen === null ||
        quotes.length > chosen.quotes.length ||
        (quotes.length === chosen.quotes.length && Math.abs(p - 0.5) < Math.abs(chosen.p - 0.5))
      ) {
        chosen = { line, quotes, p };
      }
    }
    if (chosen === null) continue;
    const first = chosen.quotes[0]?.row as HistoricalProp;
    out.push({
      date: first.date,
      playerKey: normalizeName(first.player).key,
      player: first.player,
      game: first.eventId ?? first.game,
      stat: first.stat,
      line: chosen.line,
      books: chosen.quotes.length,
      consensusOver: chosen.p,
      best: { over: bestFor(chosen.quotes, 'over'), under: bestFor(chosen.quotes, 'under') },
    });
  }
  const order = (m: MainLine): string => `${m.date}|${m.player}|${m.game}|${m.stat}`;
  return out.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

/** Best real price for the side (highest decimal); ties go to the book name first in order. */
function bestFor(quotes: readonly { row: HistoricalProp }[], side: Side): MainLine['best'][Side] {
  let best: MainLine['best'][Side] | null = null;
  let bestDec = -Infinity;
  for (const { row } of quotes) {
    const price = (side === 'over' ? row.overOdds : row.underOdds) as number;
    const dec = americanToDecimal(price) ?? -Infinity;
    if (dec > bestDec || (dec === bestDec && best !== null && row.book < best.book)) {
      bestDec = dec;
      best = { book: row.book, overOdds: row.overOdds as number, underOdds: row.underOdds as number, price };
    }
  }
  return best as MainLine['best'][Side];
}

interface SideGrade {
  line: MainLine;
  side: Side;
  out: ReturnType<typeof gradeProp>;
}

function gradeSides(ml: MainLine, history: HistoryIndex, params: ModelParams): SideGrade[] {
  const past = history.before(ml.playerKey, ml.date);
  return (['over', 'under'] as const).map((side) => {
    const b = ml.best[side];
    const out = gradeProp(
      { sport: 'nba', stat: ml.stat, line: ml.line, side, overOdds: b.overOdds, underOdds: b.underOdds, bookOdds: b.price, history: past, gameDate: ml.date },
      params,
    );
    return { line: ml, side, out };
  });
}

function settle(side: Side, line: number, actual: number): 'win' | 'loss' | 'push' {
  if (actual === line) return 'push';
  return (side === 'over' ? actual > line : actual < line) ? 'win' : 'loss';
}

/** Fits projection, dispersion and blend parameters on data dated before `fitBefore` only. */
export function fitParams(opts: Pick<BacktestOptions, 'gamelogs' | 'threesResults' | 'fitProps' | 'props' | 'fitBefore'>): {
  params: ModelParams;
  fit: NonNullable<BacktestReport['fit']>;
} {
  const training = opts.gamelogs.filter((r) => r.sport === 'nba' && r.date < opts.fitBefore);
  const exposure = fitExposureHalfLife(trainingSeries(training, 'points'));
  const stats: Record<string, StatParams> = {};
  const diagnostics: NonNullable<BacktestReport['fit']>['stats'] = {};
  for (const stat of NBA_BACKTEST_STATS) {
    const f = fitStat(training, stat, exposure.halfLife);
    if (!f) continue;
    stats[statKey('nba', stat)] = f.params;
    diagnostics[stat] = f.diagnostics;
  }
  const unblended: ModelParams = { fitBefore: opts.fitBefore, blendWeight: null, stats };
  const trainProps = [...(opts.fitProps ?? []), ...opts.props].filter((p) => p.date < opts.fitBefore);
  const history = new HistoryIndex(
    training,
    (opts.threesResults ?? []).filter((r) => r.date < opts.fitBefore),
  );
  const examples: BlendExample[] = [];
  for (const ml of mainLines(trainProps)) {
    const actual = history.outcome(ml.playerKey, ml.date, ml.stat);
    if (actual === null) continue;
    for (const g of gradeSides(ml, history, unblended)) {
      if (g.out.insufficientData || g.out.detail.pMarket === null) continue;
      const r = settle(g.side, ml.line, actual);
      if (r === 'push') continue;
      examples.push({ pModel: g.out.detail.pModel, pMarket: g.out.detail.pMarket, y: r === 'win' ? 1 : 0 });
    }
  }
  const blend = examples.length > 0 ? { ...fitBlendWeight(examples), examples: examples.length } : null;
  return {
    params: { ...unblended, blendWeight: blend ? blend.weight : null },
    fit: { exposureHalfLife: exposure, stats: diagnostics, blend },
  };
}

export function runBacktest(opts: BacktestOptions): BacktestReport {
  const fitted = opts.params ? null : fitParams(opts);
  const params = opts.params ?? (fitted as NonNullable<typeof fitted>).params;
  const from = opts.from ?? opts.fitBefore;
  const inWindow = opts.props.filter((p) => p.date >= from && (opts.to === undefined || p.date <= opts.to));
  const to = opts.to ?? inWindow.reduce((m, p) => (p.date > m ? p.date : m), from);
  const history = new HistoryIndex(opts.gamelogs, opts.threesResults ?? []);

  const lines = mainLines(inWindow);
  const refusalReasons: Record<string, number> = {};
  const rows: GradedBacktestRow[] = [];
  let graded = 0;
  let refused = 0;
  let voided = 0;
  for (const ml of lines) {
    const sides = gradeSides(ml, history, params);
    const over = sides[0] as SideGrade;
    if (over.out.insufficientData) {
      refused += 1;
      const reason = over.out.reason.replace(/\d+/g, 'N');
      refusalReasons[reason] = (refusalReasons[reason] ?? 0) + 1;
      continue;
    }
    graded += 1;
    const actual = history.outcome(ml.playerKey, ml.date, ml.stat);
    if (actual === null) {
      voided += 1;
      continue;
    }
    for (const g of sides) {
      if (g.out.insufficientData || g.out.evPct === null || g.out.detail.pMarket === null) continue;
      const b = ml.best[g.side];
      rows.push({
        date: ml.date,
        player: ml.player,
        stat: ml.stat,
        line: ml.line,
        side: g.side,
        book: b.book,
        bookOdds: b.price,
        grade: g.out.grade,
        pWin: g.out.pWin,
        pModel: g.out.detail.pModel,
        pMarket: g.out.detail.pMarket,
        evPct: g.out.evPct,
        actual,
        result: settle(g.side, ml.line, actual),
        consensusOver: ml.consensusOver,
      });
    }
  }

  const markets = [...new Set(rows.map((r) => r.stat))].sort();
  const propLevel: Record<string, PropLevelSummary> = { all: summarizeProps(rows) };
  const tiers: BacktestReport['tiers'] = { all: summarizeTiers(rows) };
  for (const m of markets) {
    const mine = rows.filter((r) => r.stat === m);
    propLevel[m] = summarizeProps(mine);
    tiers[m] = summarizeTiers(mine);
  }
  const overRows = decidedOverRows(rows);
  return {
    window: { from, to, fitBefore: opts.fitBefore, inSample: from < opts.fitBefore },
    params,
    fit: fitted?.fit ?? null,
    counts: {
      propRows: inWindow.length,
      mainLines: lines.length,
      graded,
      refused,
      refusalReasons,
      void: voided,
      scoredProps: overRows.length,
    },
    propLevel,
    tiers,
    calibration: {
      blended: calibrationTable(overRows.map((r) => ({ p: r.pWin, y: won(r) }))),
      model: calibrationTable(overRows.map((r) => ({ p: r.pModel, y: won(r) }))),
      market: calibrationTable(overRows.map((r) => ({ p: r.pMarket, y: won(r) }))),
    },
    rows,
  };
}

function won(r: GradedBacktestRow): 0 | 1 {
  return r.result === 'win' ? 1 : 0;
}

/** One scored row per prop: the over side (its p is P(over)); pushes excluded. */
function decidedOverRows(rows: readonly GradedBacktestRow[]): GradedBacktestRow[] {
  return rows.filter((r) => r.side === 'over' && r.result !== 'push');
}

export function summarizeProps(rows: readonly GradedBacktestRow[]): PropLevelSummary {
  const over = decidedOverRows(rows);
  const s = (pick: (r: GradedBacktestRow) => number): Scored[] => over.map((r) => ({ p: pick(r), y: won(r) }));
  const model = s((r) => r.pModel);
  const blended = s((r) => r.pWin);
  const shin = s((r) => r.pMarket);
  const consensus = s((r) => r.consensusOver);
  const llConsensus = consensus.map(rowLogLoss);
  return {
    n: over.length,
    overHitRate: over.length ? over.filter((r) => r.result === 'win').length / over.length : null,
    logLoss: { model: logLoss(model), blended: logLoss(blended), marketShinBestBook: logLoss(shin), marketConsensus: logLoss(consensus) },
    brier: { model: brier(model), blended: brier(blended), marketShinBestBook: brier(shin), marketConsensus: brier(consensus) },
    modelMinusMarket: pairedDifference(model.map(rowLogLoss), llConsensus),
    blendedMinusMarket: pairedDifference(blended.map(rowLogLoss), llConsensus),
  };
}

/** Per grade tier (and all): record, ROI at the graded price and scoring of p_win vs the row's market. */
export function summarizeTiers(rows: readonly GradedBacktestRow[]): Partial<Record<Grade | 'all', TierSummary>> {
  const out: Partial<Record<Grade | 'all', TierSummary>> = {};
  const groups: [Grade | 'all', GradedBacktestRow[]][] = [['all', [...rows]]];
  for (const g of ['A+', 'A', 'B', 'C', 'F'] as const) groups.push([g, rows.filter((r) => r.grade === g)]);
  for (const [tier, list] of groups) {
    const decided = list.filter((r) => r.result !== 'push');
    if (decided.length === 0) continue;
    const wins = decided.filter((r) => r.result === 'win').length;
    const gate = gateRate(wins, decided.length);
    let profit = 0;
    for (const r of list) profit += r.result === 'win' ? profitPerUnit(r.bookOdds) : r.result === 'loss' ? -1 : 0;
    const sc = (pick: (r: GradedBacktestRow) => number): Scored[] => decided.map((r) => ({ p: pick(r), y: won(r) }));
    out[tier] = {
      n: decided.length,
      wins,
      hitRate: wins / decided.length,
      ci95: gate.ci95 ? [gate.ci95[0] / 100, gate.ci95[1] / 100] : null,
      roiPct: (100 * profit) / list.length,
      meanEvPct: list.reduce((s, r) => s + r.evPct, 0) / list.length,
      logLoss: { blended: logLoss(sc((r) => r.pWin)), model: logLoss(sc((r) => r.pModel)), market: logLoss(sc((r) => r.pMarket)) },
      brier: { blended: brier(sc((r) => r.pWin)), model: brier(sc((r) => r.pModel)), market: brier(sc((r) => r.pMarket)) },
    };
  }
  return out;
}
