import type { PlayerGameStat } from '../../domain/entities.js';
import type { Grade } from '../../domain/grades.js';
import { fitBlendWeight, fitExposureHalfLife, fitMarketDispersionScale, fitStat, trainingSeries, type BlendExample, type MarketDispersionExample } from '../../domain/model/fit.js';
import { gradeProp } from '../../domain/model/grade-prop.js';
import { gradeFor } from '../../domain/model/grading.js';
import { computeClv } from '../../domain/clv.js';
import { MARKET_RULES, consensusOver, fairOverForBook, priceLadder, type BookQuote, type FairSource, type LadderLine, type RowPricing } from '../../domain/model/market.js';
import { calibrationTable, pairedDifference, rowLogLoss, type CalibrationBin } from '../../domain/model/metrics.js';
import { marketDispersionFor, statKey, type ModelParams, type StatParams } from '../../domain/model/params.js';
import { blendProbability } from '../../domain/model/pricing.js';
import { clusterInterval, olsSlope, olsSums, totalOf, addInto, type Sums } from '../../domain/model/resample.js';
import { normalizeName } from '../../domain/names.js';
import { americanToDecimal, profitPerUnit } from '../../domain/odds.js';
import { wilsonInterval } from '../../domain/record-gate.js';
import type { GradedSport, Side } from '../../domain/sports.js';
import type { StatType } from '../../domain/stats.js';
import type { StrikeoutQuote } from '../../feeds/history/mlb-strikeouts.js';
import type { HistoricalProp } from '../../feeds/history/props.js';

/**
 * Back-test: replays real historical props through the snapshot's own rule (priceLadder for the
 * market's fair probability and the graded price, gradeProp for the projection, nudge and letter),
 * with history cut strictly before each game, and checks every claim against real box scores:
 * probability scoring against the consensus, each tier's claimed EV against its realised ROI
 * (intervals resample whole games), the slope of realised profit on claimed EV, the market-implied
 * ladder's calibration, and closing-line value where the data has an early and a later price.
 */

export const NBA_BACKTEST_STATS: readonly StatType[] = ['points', 'rebounds', 'assists', 'threes', 'pra', 'blocks', 'steals'];
const TIERS: readonly Grade[] = ['A+', 'A', 'B', 'C', 'F'];

export interface BacktestOptions {
  /** Props to evaluate (only those dated inside [from, to] are graded). */
  props: readonly HistoricalProp[];
  /**
   * Props dated before fitBefore fit the nudge weights and the outlier bound; those dated inside the
   * window and taken earlier than `props` (the 15:00 threes file) are the early side of NBA CLV.
   */
  fitProps?: readonly HistoricalProp[];
  gamelogs: readonly PlayerGameStat[];
  /** League-wide 2024-25 threes per player-game: outcome for 2024-25 threes props, extra threes history. */
  threesResults?: readonly PlayerGameStat[];
  /** MLB pitcher strikeouts, first and last pregame quote (CLV only; no outcomes). */
  mlbStrikeouts?: readonly StrikeoutQuote[];
  /** Inclusive ET game dates; default from = fitBefore, to = last prop date. */
  from?: string;
  to?: string;
  /** Exclusive cut-off for every fitted number. */
  fitBefore: string;
  /** Use these parameters instead of fitting (tests, or re-scoring the committed FITTED_PARAMS). */
  params?: ModelParams;
  /** The basketball league graded (default nba; wnba loads through src/jobs/backtest/wnba.ts). */
  sport?: 'nba' | 'wnba';
  /** Extra parameters a sport's fitted stats carry (WNBA: its 365-day history window). */
  statExtras?: Partial<StatParams>;
  /** CLV computed by the sport's own loader (WNBA: morning vs closing snapshot), reported under clv.wnba. */
  clvExtra?: (ctx: { params: ModelParams; history: HistoryIndex; from: string; to: string }) => ClvSummary | null;
}

/** One graded (line, side) of the window, priced by the snapshot's rule and settled. */
export interface BacktestRow {
  date: string;
  game: string;
  player: string;
  stat: StatType;
  line: number;
  side: Side;
  isMainLine: boolean;
  fairSource: FairSource;
  thinConsensus: boolean;
  consensusBooks: number;
  outlierPrice: boolean;
  book: string;
  bookOdds: number;
  pFair: number;
  pModel: number;
  pWin: number;
  evPct: number;
  grade: Grade;
  actual: number;
  result: 'win' | 'loss' | 'push';
  /** Profit per unit staked at bookOdds. */
  profit: number;
  /** All books' consensus P(over) at this line (prop-level scoring); null when no book quotes both sides. */
  consensusOverAll: number | null;
}

export interface Interval {
  value: number | null;
  ci95: [number, number] | null;
}

export interface TierClaim {
  n: number;
  wins: number;
  hitRate: number | null;
  /** Mean EV the letters claimed, percent of stake. */
  claimedEvPct: number;
  /** Realised ROI at the graded price, percent of stake, with a 95% interval over games. */
  roiPct: Interval;
  /** The claim lies inside the realised interval (null when the interval cannot be formed). */
  claimInside: boolean | null;
}

export interface ProbabilityScore {
  n: number;
  logLoss: { final: number | null; consensus: number | null; model: number | null };
  brier: { final: number | null; consensus: number | null; model: number | null };
  /** Mean per-prop log loss minus the consensus's, with a 95% interval over games (negative = better). */
  finalMinusConsensus: Interval;
  modelMinusConsensus: Interval;
}

export interface ClvSummary {
  description: string;
  /** Early grades priced from the market alone because no projection existed (research mode). */
  marketOnly: number;
  withProjection: number;
  /** A/A+ early grades matched to a later consensus at the same line. */
  n: number;
  beat: number;
  beatShare: number | null;
  ci95: [number, number] | null;
  /** Mean of (later fair probability of the side minus the early price's implied probability), in points. */
  meanClvPts: number | null;
  /** Mean clv_pct: the early price's EV at the later fair (src/domain/clv.ts, the ledger's own function), percent. */
  meanClvPct: number | null;
}

export interface BacktestReport {
  window: { from: string; to: string; fitBefore: string; inSample: boolean };
  params: ModelParams;
  fit: {
    exposureHalfLife: { halfLife: number; mse: number; n: number } | null;
    stats: Record<string, { trainingGames: number; mse: number; meanLogLik: number; poissonLogLik: number }>;
    nudge: Record<string, { weight: number; fittedWeight: number; examples: number; logLossMarket: number; logLossNudged: number; improvement: { mean: number; se: number } | null }>;
    /** Generosity of each main-line quote against the other books' consensus (probability points as fractions), training props. */
    outlierGap: { n: number; p99: number; p995: number; p999: number; p9999: number; beyondBound: number } | null;
    marketDispersion: { scale: number; meanLogLik: number; unscaledLogLik: number; n: number } | null;
  } | null;
  rules: { minConsensusBooks: number; outlierProbGap: number; consensusMethod: string };
  counts: {
    propRows: number;
    ladders: number;
    mainLines: number;
    graded: number;
    refused: number;
    refusalReasons: Record<string, number>;
    void: number;
    scoredRows: number;
    bySource: Record<string, number>;
  };
  logLoss: Record<string, ProbabilityScore>;
  perTier: Record<'mainLines' | 'marketImpliedRungs' | 'thinConsensus' | 'allRows', Partial<Record<Grade | 'all', TierClaim>>>;
  calibrationSlope: Record<'mainLines' | 'marketImpliedRungs' | 'allRows', Interval & { n: number }>;
  calibration: { final: CalibrationBin[]; marketImpliedRungs: CalibrationBin[] };
  clv: { nbaThrees: ClvSummary | null; mlbStrikeouts: ClvSummary | null; wnba?: ClvSummary | null };
  sampleSize: { roiHalfWidthPct: number; profitSd: number | null; designEffect: number | null; betsNeeded: number | null; betsInTopTiers: number; note: string };
  rows: BacktestRow[];
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


/** A player's stat in one game at one snapshot: every line with every book's pair (both sides only). */
export interface HistoricalLadder {
  date: string;
  game: string;
  player: string;
  playerKey: string;
  stat: StatType;
  lines: LadderLine[];
}

/** Groups prop rows into ladders per (date, player, game, stat); one-sided quotes are left out. */
export function ladders(props: readonly HistoricalProp[]): HistoricalLadder[] {
  const groups = new Map<string, HistoricalLadder & { byLine: Map<number, BookQuote[]> }>();
  for (const p of props) {
    if (p.overOdds === null || p.underOdds === null) continue;
    const name = normalizeName(p.player);
    const game = p.eventId ?? p.game;
    const k = `${p.date}|${name.key}|${game}|${p.stat}`;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { date: p.date, game, player: p.player, playerKey: name.key, stat: p.stat, lines: [], byLine: new Map() }));
    let quotes = g.byLine.get(p.line);
    if (!quotes) g.byLine.set(p.line, (quotes = []));
    quotes.push({ book: p.book, over: p.overOdds, under: p.underOdds });
  }
  const out: HistoricalLadder[] = [];
  for (const g of groups.values()) {
    const { byLine, ...ladder } = g;
    ladder.lines = [...byLine].sort((a, b) => a[0] - b[0]).map(([line, quotes]) => ({ line, quotes: quotes.sort((a, b) => (a.book < b.book ? -1 : 1)) }));
    out.push(ladder);
  }
  const order = (l: HistoricalLadder) => `${l.date}|${l.player}|${l.game}|${l.stat}`;
  return out.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

const dispersionOf = (params: ModelParams, stat: StatType, sport: GradedSport = 'nba') => marketDispersionFor(params, sport, stat);

function marketOf(r: RowPricing) {
  return { bookOdds: r.bookOdds, fairProb: r.fairProb, fairSource: r.fairSource, consensusBooks: r.consensusBooks, thinConsensus: r.thinConsensus, gradedAtOutlier: r.gradedAtOutlier };
}

function settle(side: Side, line: number, actual: number): 'win' | 'loss' | 'push' {
  if (actual === line) return 'push';
  return (side === 'over' ? actual > line : actual < line) ? 'win' : 'loss';
}

function profitOf(result: 'win' | 'loss' | 'push', price: number): number {
  return result === 'win' ? profitPerUnit(price) : result === 'loss' ? -1 : 0;
}

/** Fits projection, dispersion, per-market nudge weights and the outlier bound on data dated before `fitBefore` only. */
export function fitParams(opts: Pick<BacktestOptions, 'gamelogs' | 'threesResults' | 'fitProps' | 'props' | 'fitBefore' | 'sport' | 'statExtras'>): {
  params: ModelParams;
  fit: NonNullable<BacktestReport['fit']>;
} {
  const sport = opts.sport ?? 'nba';
  const training = opts.gamelogs.filter((r) => r.sport === sport && r.date < opts.fitBefore);
  const exposure = fitExposureHalfLife(trainingSeries(training, 'points'));
  const stats: Record<string, StatParams> = {};
  const diagnostics: NonNullable<BacktestReport['fit']>['stats'] = {};
  for (const stat of NBA_BACKTEST_STATS) {
    const f = fitStat(training, stat, exposure.halfLife);
    if (!f) continue;
    stats[statKey(sport, stat)] = { ...f.params, ...opts.statExtras };
    diagnostics[stat] = f.diagnostics;
  }
  const unnudged: ModelParams = { fitBefore: opts.fitBefore, nudgeWeights: {}, marketDispersionScale: null, stats };
  const trainProps = [...(opts.fitProps ?? []), ...opts.props].filter((p) => p.date < opts.fitBefore);
  const history = new HistoryIndex(training, (opts.threesResults ?? []).filter((r) => r.date < opts.fitBefore));

  const examples = new Map<StatType, BlendExample[]>();
  const spread: MarketDispersionExample[] = [];
  const gaps: number[] = [];
  for (const ladder of ladders(trainProps)) {
    const main = priceLadder(ladder.lines, dispersionOf(unnudged, ladder.stat, sport)).find((r) => r.isMainLine && r.side === 'over');
    const mainLine = ladder.lines.find((l) => l.line === main?.line);
    if (!main || !mainLine) continue;
    outlierGaps(mainLine, gaps);
    const all = consensusOver(mainLine.quotes);
    const actual = history.outcome(ladder.playerKey, ladder.date, ladder.stat);
    if (!all || actual === null) continue;
    const disp = stats[statKey(sport, ladder.stat)]?.dispersion;
    if (disp && all.books >= MARKET_RULES.minConsensusBooks) spread.push({ line: main.line, pOver: all.pOver, actual, dispersion: disp });
    const out = gradeProp({ sport, stat: ladder.stat, line: main.line, side: 'over', market: marketOf(main), history: history.before(ladder.playerKey, ladder.date), gameDate: ladder.date }, unnudged);
    const r = settle('over', main.line, actual);
    if (out.insufficientData || r === 'push') continue;
    let list = examples.get(ladder.stat);
    if (!list) examples.set(ladder.stat, (list = []));
    list.push({ pModel: out.detail.pModel, pMarket: all.pOver, y: r === 'win' ? 1 : 0 });
  }

  const nudge: NonNullable<BacktestReport['fit']>['nudge'] = {};
  const nudgeWeights: Record<string, number> = {};
  for (const [stat, ex] of examples) {
    const best = fitBlendWeight(ex);
    const improvement = pairedDifference(
      ex.map((e) => rowLogLoss({ p: e.pMarket, y: e.y })),
      ex.map((e) => rowLogLoss({ p: blendProbability(e.pModel, e.pMarket, best.weight), y: e.y })),
    );
    // The model earns weight only where it beats the market on training props by two standard errors.
    const helps = improvement !== null && improvement.mean > 2 * improvement.se && best.weight > 0;
    const weight = helps ? best.weight : 0;
    if (weight > 0) nudgeWeights[statKey(sport, stat)] = weight;
    nudge[stat] = { weight, fittedWeight: best.weight, examples: ex.length, logLossMarket: best.marketLogLoss, logLossNudged: best.logLoss, improvement };
  }
  gaps.sort((a, b) => a - b);
  const q = (p: number) => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))] as number;
  const marketSpread = fitMarketDispersionScale(spread);
  return {
    params: { ...unnudged, nudgeWeights, marketDispersionScale: marketSpread?.scale ?? null },
    fit: {
      exposureHalfLife: exposure,
      stats: diagnostics,
      nudge,
      marketDispersion: marketSpread,
      outlierGap:
        gaps.length > 0
          ? { n: gaps.length, p99: q(0.99), p995: q(0.995), p999: q(0.999), p9999: q(0.9999), beyondBound: gaps.filter((g) => g > MARKET_RULES.outlierProbGap).length }
          : null,
    },
  };
}

/** How far each quote's implied probability sits below the other books' consensus fair (positive = generous), at lines with a full consensus. */
function outlierGaps(line: LadderLine, into: number[]): void {
  for (const q of line.quotes) {
    const others = consensusOver(line.quotes, q.book);
    if (!others || others.books < MARKET_RULES.minConsensusBooks || q.over === null || q.under === null) continue;
    const dOver = americanToDecimal(q.over);
    const dUnder = americanToDecimal(q.under);
    if (dOver === null || dUnder === null) continue;
    into.push(others.pOver - 1 / dOver, 1 - others.pOver - 1 / dUnder);
  }
}

/** Grades one ladder with the live rule; rows carry the market pricing and the grade (or the refusal). */
export function gradeLadder(ladder: HistoricalLadder, history: HistoryIndex, params: ModelParams, sport: GradedSport = 'nba') {
  const past = history.before(ladder.playerKey, ladder.date);
  return priceLadder(ladder.lines, dispersionOf(params, ladder.stat, sport)).map((pricing) => ({
    pricing,
    out: gradeProp({ sport, stat: ladder.stat, line: pricing.line, side: pricing.side, market: marketOf(pricing), history: past, gameDate: ladder.date }, params),
  }));
}

export function runBacktest(opts: BacktestOptions): BacktestReport {
  const fitted = opts.params ? null : fitParams(opts);
  const params = opts.params ?? (fitted as NonNullable<typeof fitted>).params;
  const from = opts.from ?? opts.fitBefore;
  const inWindow = opts.props.filter((p) => p.date >= from && (opts.to === undefined || p.date <= opts.to));
  const to = opts.to ?? inWindow.reduce((m, p) => (p.date > m ? p.date : m), from);
  const history = new HistoryIndex(opts.gamelogs, opts.threesResults ?? []);

  const refusalReasons: Record<string, number> = {};
  const rows: BacktestRow[] = [];
  const bySource: Record<string, number> = {};
  const all = ladders(inWindow);
  let mainLines = 0;
  let graded = 0;
  let refused = 0;
  let voided = 0;
  const sport = opts.sport ?? 'nba';
  for (const ladder of all) {
    const sides = gradeLadder(ladder, history, params, sport);
    const main = sides.find((s) => s.pricing.isMainLine && s.pricing.side === 'over');
    if (!main) continue;
    mainLines += 1;
    if (main.out.insufficientData) {
      refused += 1;
      const reason = main.out.reason.replace(/\d+(\.\d+)?/g, 'N');
      refusalReasons[reason] = (refusalReasons[reason] ?? 0) + 1;
      continue;
    }
    graded += 1;
    const actual = history.outcome(ladder.playerKey, ladder.date, ladder.stat);
    if (actual === null) {
      voided += 1;
      continue;
    }
    for (const { pricing: p, out } of sides) {
      if (out.insufficientData) continue;
      const result = settle(p.side, p.line, actual);
      const line = ladder.lines.find((l) => l.line === p.line);
      bySource[p.fairSource] = (bySource[p.fairSource] ?? 0) + 1;
      rows.push({
        date: ladder.date,
        game: ladder.game,
        player: ladder.player,
        stat: ladder.stat,
        line: p.line,
        side: p.side,
        isMainLine: p.isMainLine,
        fairSource: p.fairSource,
        thinConsensus: p.thinConsensus,
        consensusBooks: p.consensusBooks,
        outlierPrice: p.outlierPrice,
        book: p.book,
        bookOdds: p.bookOdds,
        pFair: p.fairProb,
        pModel: out.detail.pModel,
        pWin: out.pWin,
        evPct: out.evPct,
        grade: out.grade,
        actual,
        result,
        profit: profitOf(result, p.bookOdds),
        consensusOverAll: line ? (consensusOver(line.quotes)?.pOver ?? null) : null,
      });
    }
  }

  const mainRows = rows.filter((r) => r.isMainLine);
  const implied = rows.filter((r) => r.fairSource === 'market_implied');
  const thin = rows.filter((r) => r.fairSource === 'consensus' && r.thinConsensus);
  const markets = [...new Set(mainRows.map((r) => r.stat))].sort();
  const logLoss: Record<string, ProbabilityScore> = { all: probabilityScore(mainRows, params, sport) };
  for (const m of markets) logLoss[m] = probabilityScore(mainRows.filter((r) => r.stat === m), params, sport);
  const decidedOver = (rs: readonly BacktestRow[]) => rs.filter((r) => r.side === 'over' && r.result !== 'push');
  const top = rows.filter((r) => r.grade === 'A+' || r.grade === 'A');

  return {
    window: { from, to, fitBefore: opts.fitBefore, inSample: from < opts.fitBefore },
    params,
    fit: fitted?.fit ?? null,
    rules: { minConsensusBooks: MARKET_RULES.minConsensusBooks, outlierProbGap: MARKET_RULES.outlierProbGap, consensusMethod: MARKET_RULES.consensusMethod },
    counts: { propRows: inWindow.length, ladders: all.length, mainLines, graded, refused, refusalReasons, void: voided, scoredRows: rows.length, bySource },
    logLoss: logLoss,
    perTier: {
      mainLines: tierClaims(mainRows),
      marketImpliedRungs: tierClaims(implied),
      thinConsensus: tierClaims(thin),
      allRows: tierClaims(rows),
    },
    calibrationSlope: { mainLines: slopeOf(mainRows), marketImpliedRungs: slopeOf(implied), allRows: slopeOf(rows) },
    calibration: {
      final: calibrationTable(decidedOver(mainRows).map((r) => ({ p: r.pWin, y: r.result === 'win' ? 1 : 0 }))),
      marketImpliedRungs: calibrationTable(decidedOver(implied).map((r) => ({ p: r.pFair, y: r.result === 'win' ? 1 : 0 }))),
    },
    clv: {
      nbaThrees: nbaThreesClv(opts, from, to, history, params),
      mlbStrikeouts: opts.mlbStrikeouts && opts.mlbStrikeouts.length > 0 ? mlbStrikeoutsClv(opts.mlbStrikeouts) : null,
      ...(opts.clvExtra ? { wnba: opts.clvExtra({ params, history, from, to }) } : {}),
    },
    sampleSize: sampleSize(mainRows.filter((r) => r.grade === 'A+' || r.grade === 'A' || r.grade === 'B'), top.length),
    rows,
  };
}

/** Per game: the cluster for every interval (bets on one game share its box score). */
export function byGame<T extends { date: string; game: string }>(rows: readonly T[], sums: (r: T) => Sums): Sums[] {
  const out = new Map<string, Sums>();
  for (const r of rows) {
    const k = `${r.date}|${r.game}`;
    let s = out.get(k);
    if (!s) out.set(k, (s = {}));
    addInto(s, sums(r));
  }
  return [...out.values()];
}

const ratio = (num: string, den: string) => (s: Sums) => ((s[den] ?? 0) > 0 ? (s[num] ?? 0) / (s[den] as number) : null);

/** Prop-level scoring on main lines (one P(over) per prop): the nudged final, the consensus and the pure model. */
export function probabilityScore(rows: readonly BacktestRow[], params: ModelParams, sport: GradedSport = 'nba'): ProbabilityScore {
  const props = rows.filter((r) => r.side === 'over' && r.result !== 'push' && r.consensusOverAll !== null);
  const scored = props.map((r) => {
    const consensus = r.consensusOverAll as number;
    const w = params.nudgeWeights[statKey(sport, r.stat)] ?? 0;
    const final = w > 0 ? blendProbability(r.pModel, consensus, w) : consensus;
    const y: 0 | 1 = r.result === 'win' ? 1 : 0;
    return { r, y, final, consensus, model: r.pModel };
  });
  const clusters = byGame(
    scored.map((s) => ({ date: s.r.date, game: s.r.game, s })),
    ({ s }) => {
      const llF = rowLogLoss({ p: s.final, y: s.y });
      const llC = rowLogLoss({ p: s.consensus, y: s.y });
      const llM = rowLogLoss({ p: s.model, y: s.y });
      return { n: 1, llF, llC, llM, bF: (s.final - s.y) ** 2, bC: (s.consensus - s.y) ** 2, bM: (s.model - s.y) ** 2, dF: llF - llC, dM: llM - llC };
    },
  );
  const t = totalOf(clusters);
  const mean = (k: string) => ratio(k, 'n')(t);
  return {
    n: scored.length,
    logLoss: { final: mean('llF'), consensus: mean('llC'), model: mean('llM') },
    brier: { final: mean('bF'), consensus: mean('bC'), model: mean('bM') },
    finalMinusConsensus: { value: mean('dF'), ci95: clusterInterval(clusters, ratio('dF', 'n')) },
    modelMinusConsensus: { value: mean('dM'), ci95: clusterInterval(clusters, ratio('dM', 'n')) },
  };
}

export function tierClaims(rows: readonly BacktestRow[]): Partial<Record<Grade | 'all', TierClaim>> {
  const out: Partial<Record<Grade | 'all', TierClaim>> = {};
  for (const tier of ['all', ...TIERS] as const) {
    const list = tier === 'all' ? rows : rows.filter((r) => r.grade === tier);
    if (list.length === 0) continue;
    const clusters = byGame(list, (r) => ({ n: 1, profit: r.profit, ev: r.evPct, win: r.result === 'win' ? 1 : 0, decided: r.result === 'push' ? 0 : 1 }));
    const t = totalOf(clusters);
    const roi = (s: Sums) => ((s['n'] ?? 0) > 0 ? (100 * (s['profit'] ?? 0)) / (s['n'] as number) : null);
    const ci = clusterInterval(clusters, roi);
    const claimed = (t['ev'] ?? 0) / list.length;
    const decided = t['decided'] ?? 0;
    out[tier] = {
      n: list.length,
      wins: t['win'] ?? 0,
      hitRate: decided > 0 ? (t['win'] ?? 0) / decided : null,
      claimedEvPct: claimed,
      roiPct: { value: roi(t), ci95: ci },
      claimInside: ci ? claimed >= ci[0] && claimed <= ci[1] : null,
    };
  }
  return out;
}

/** OLS slope of realised profit on claimed EV (both per unit staked); an honest claim has slope 1. */
export function slopeOf(rows: readonly BacktestRow[]): Interval & { n: number } {
  const clusters = byGame(rows, (r) => olsSums(r.evPct / 100, r.profit));
  return { n: rows.length, value: olsSlope(totalOf(clusters)), ci95: clusterInterval(clusters, olsSlope) };
}

/**
 * Bets needed to pin ROI to +/-4% at 95%: (1.96 sd / 0.04)^2 for independent bets, times the design
 * effect of betting several props of one game (variance of the game-clustered mean over the iid one),
 * measured on the rows that carry a positive claim (A+, A, B at main lines).
 */
export function sampleSize(rows: readonly BacktestRow[], topTierBets: number): BacktestReport['sampleSize'] {
  const half = 4;
  const n = rows.length;
  const note = 'ROI claims are tested only to the precision their sample allows; below the bets needed, a tier whose claim lies inside its interval is consistent with it, not proven.';
  if (n < 2) return { roiHalfWidthPct: half, profitSd: null, designEffect: null, betsNeeded: null, betsInTopTiers: topTierBets, note };
  const mean = rows.reduce((s, r) => s + r.profit, 0) / n;
  const sd = Math.sqrt(rows.reduce((s, r) => s + (r.profit - mean) ** 2, 0) / (n - 1));
  const clusters = byGame(rows, (r) => ({ n: 1, p: r.profit }));
  const ci = clusterInterval(clusters, ratio('p', 'n'));
  const iidSe = sd / Math.sqrt(n);
  const clusteredSe = ci ? (ci[1] - ci[0]) / (2 * 1.959963984540054) : null;
  const deff = clusteredSe !== null && iidSe > 0 ? (clusteredSe / iidSe) ** 2 : null;
  const iidNeeded = ((1.959963984540054 * sd) / (half / 100)) ** 2;
  return { roiHalfWidthPct: half, profitSd: sd, designEffect: deff, betsNeeded: Math.ceil(iidNeeded * Math.max(1, deff ?? 1)), betsInTopTiers: topTierBets, note };
}

type ClvMatch = { price: number; pLater: number; side: Side; line: number; marketOnly: boolean };

/**
 * Early A/A+ grades against the later market at the same line, through computeClv: the one CLV
 * function the ledger and the record use, so the back-test's beat share measures what the public
 * record's does. A back-test row has no start time of its own: the later snapshot stands in as
 * the capture, one minute before a start set after it (the function only asks "before the start").
 */
function clvSummary(description: string, matched: ClvMatch[], counts: { marketOnly: number; withProjection: number }): ClvSummary {
  const results = matched.map((m) =>
    computeClv({ side: m.side, line: m.line, lockedPrice: m.price, lockedFairProb: null, closingLine: m.line, closingFairProb: m.pLater, closingCapturedAt: CAPTURE, commenceTime: START }),
  );
  const beat = results.filter((r) => r.verdict === 'beat').length;
  const pcts = results.map((r) => r.clvPct).filter((x): x is number => x !== null);
  const n = matched.length;
  return {
    description,
    marketOnly: counts.marketOnly,
    withProjection: counts.withProjection,
    n,
    beat,
    beatShare: n > 0 ? beat / n : null,
    ci95: n > 0 ? wilsonInterval(beat, n) : null,
    meanClvPts: n > 0 ? (100 * matched.reduce((s, m) => s + (m.pLater - 1 / (americanToDecimal(m.price) as number)), 0)) / n : null,
    meanClvPct: pcts.length > 0 ? pcts.reduce((a, x) => a + x, 0) / pcts.length : null,
  };
}

const CAPTURE = '2000-01-01T00:00:00Z';
const START = '2000-01-01T00:01:00Z';

/** The letter for an early row: the live grade when a projection exists, else the market alone (research mode). */
function earlyLetter(pricing: RowPricing, out: ReturnType<typeof gradeProp> | null): { grade: Grade; marketOnly: boolean } {
  if (out && !out.insufficientData) return { grade: out.grade, marketOnly: false };
  const evPct = 100 * (pricing.fairProb * (americanToDecimal(pricing.bookOdds) as number) - 1);
  return { grade: gradeFor({ evPct, fairSource: pricing.fairSource, thinConsensus: pricing.thinConsensus, gradedAtOutlier: pricing.gradedAtOutlier, fitted: true }), marketOnly: true };
}

/** NBA threes: the 15:00 UTC threes file against the all-markets snapshot about two hours later. */
function nbaThreesClv(opts: BacktestOptions, from: string, to: string, history: HistoryIndex, params: ModelParams): ClvSummary | null {
  const early = (opts.fitProps ?? []).filter((p) => p.stat === 'threes' && p.date >= from && p.date <= to && p.snapshotAt.endsWith('T15:00:00Z'));
  if (early.length === 0) return null;
  const later = new Map<string, LadderLine[]>();
  for (const l of ladders(opts.props.filter((p) => p.stat === 'threes' && p.date >= from && p.date <= to))) later.set(`${l.date}|${l.playerKey}`, l.lines);
  const dispersion = dispersionOf(params, 'threes');
  // The all-markets file names games by event id, the threes file by "Away @ Home": join on player and date.
  const matched: ClvMatch[] = [];
  const counts = { marketOnly: 0, withProjection: 0 };
  for (const ladder of ladders(early)) {
    for (const { pricing, out } of gradeLadder(ladder, history, params)) {
      const { grade, marketOnly } = earlyLetter(pricing, out);
      if (grade !== 'A+' && grade !== 'A') continue;
      const lines = later.get(`${ladder.date}|${ladder.playerKey}`);
      const line = lines?.find((l) => l.line === pricing.line);
      if (!lines || !line || !line.quotes.some((q) => q.book === pricing.book)) continue;
      // The close on the grade's own yardstick: the later market at the line, the graded book left out.
      const c = fairOverForBook(lines, pricing.line, pricing.book, dispersion);
      if (!c || (c.source === 'book' && pricing.fairSource !== 'book')) continue;
      if (marketOnly) counts.marketOnly += 1;
      else counts.withProjection += 1;
      matched.push({ price: pricing.bookOdds, pLater: pricing.side === 'over' ? c.pOver : 1 - c.pOver, side: pricing.side, line: pricing.line, marketOnly });
    }
  }
  return clvSummary('NBA threes, A/A+ at the 15:00 UTC snapshot vs the consensus about 2 h later (same player, date, book and line)', matched, counts);
}

/** MLB pitcher strikeouts: first pregame quotes graded from the market alone, against the last pregame consensus. */
function mlbStrikeoutsClv(quotes: readonly StrikeoutQuote[]): ClvSummary {
  const groups = new Map<string, { first: Map<number, BookQuote[]>; last: Map<number, BookQuote[]>; moved: Set<string> }>();
  for (const q of quotes) {
    const k = `${q.eventId}|${normalizeName(q.pitcher).key}`;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { first: new Map(), last: new Map(), moved: new Set() }));
    const push = (m: Map<number, BookQuote[]>, bq: BookQuote) => {
      const list = m.get(q.line);
      if (list) list.push(bq);
      else m.set(q.line, [bq]);
    };
    if (q.firstOver !== null && q.firstUnder !== null) push(g.first, { book: q.book, over: q.firstOver, under: q.firstUnder });
    if (q.lastOver !== null && q.lastUnder !== null) push(g.last, { book: q.book, over: q.lastOver, under: q.lastUnder });
    if (q.snapshots > 1) g.moved.add(`${q.book}|${q.line}`);
  }
  const matched: ClvMatch[] = [];
  let graded = 0;
  for (const g of groups.values()) {
    const lines = [...g.first].map(([line, qs]) => ({ line, quotes: qs }));
    for (const pricing of priceLadder(lines, null)) {
      const { grade } = earlyLetter(pricing, null);
      if (grade !== 'A+' && grade !== 'A') continue;
      // Only quotes seen in at least two snapshots have a later price distinct from the first.
      if (!g.moved.has(`${pricing.book}|${pricing.line}`)) continue;
      const last = [...g.last].map(([line, qs]) => ({ line, quotes: qs }));
      const c = fairOverForBook(last, pricing.line, pricing.book, null);
      if (!c || (c.source === 'book' && pricing.fairSource !== 'book')) continue;
      graded += 1;
      matched.push({ price: pricing.bookOdds, pLater: pricing.side === 'over' ? c.pOver : 1 - c.pOver, side: pricing.side, line: pricing.line, marketOnly: true });
    }
  }
  return clvSummary('MLB pitcher strikeouts, A/A+ at the first pregame snapshot (market alone: no projection) vs the last pregame consensus at the same line', matched, { marketOnly: graded, withProjection: 0 });
}
