import type { PlayerGameStat } from '../../domain/entities.js';
import { clvSummary, earlyLetter, type ClvMatch } from '../../domain/backtest/clv.js';
import { HistoryIndex } from '../../domain/backtest/history.js';
import { dispersionOf, gradeLadder, ladders, marketOf, profitOf, settleSide } from '../../domain/backtest/ladders.js';
import type { BacktestReport, BacktestRow, ClvSummary, ProbabilityScore } from '../../domain/backtest/report.js';
import { probabilityScore, sampleSize, slopeOf, tierClaims } from '../../domain/backtest/scores.js';
import { fitBlendWeight, fitExposureHalfLife, fitMarketDispersionScale, fitStat, trainingSeries, type BlendExample, type MarketDispersionExample } from '../../domain/model/fit.js';
import { gradeProp } from '../../domain/model/grade-prop.js';
import { MARKET_RULES, consensusOver, fairOverForBook, priceLadder, type BookQuote, type LadderLine } from '../../domain/model/market.js';
import { calibrationTable, pairedDifference, rowLogLoss } from '../../domain/model/metrics.js';
import { statKey, type ModelParams, type StatParams } from '../../domain/model/params.js';
import { blendProbability } from '../../domain/model/pricing.js';
import { normalizeName } from '../../domain/names.js';
import { closeLeadMinutes } from '../../domain/close-lead.js';
import { americanToDecimal } from '../../domain/odds.js';
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
    const r = settleSide('over', main.line, actual);
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
      const result = settleSide(p.side, p.line, actual);
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

/** NBA threes: the 15:00 UTC threes file against the all-markets snapshot about two hours later. */
function nbaThreesClv(opts: BacktestOptions, from: string, to: string, history: HistoryIndex, params: ModelParams): ClvSummary | null {
  const early = (opts.fitProps ?? []).filter((p) => p.stat === 'threes' && p.date >= from && p.date <= to && p.snapshotAt.endsWith('T15:00:00Z'));
  if (early.length === 0) return null;
  const later = new Map<string, LadderLine[]>();
  const laterThrees = opts.props.filter((p) => p.stat === 'threes' && p.date >= from && p.date <= to);
  for (const l of ladders(laterThrees)) later.set(`${l.date}|${l.playerKey}`, l.lines);
  // How long before the tip the later read was taken: its own snapshot time and the game's start.
  const leadOf = new Map<string, number | null>();
  for (const p of laterThrees) {
    const k = `${p.date}|${normalizeName(p.player).key}`;
    if (!leadOf.has(k)) leadOf.set(k, closeLeadMinutes(p.snapshotAt, p.commenceTime));
  }
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
      matched.push({ price: pricing.bookOdds, pLater: pricing.side === 'over' ? c.pOver : 1 - c.pOver, side: pricing.side, line: pricing.line, marketOnly, leadMinutes: leadOf.get(`${ladder.date}|${ladder.playerKey}`) ?? null });
    }
  }
  return clvSummary('NBA threes, A/A+ at the 15:00 UTC snapshot vs the consensus about 2 h later (same player, date, book and line)', matched, counts);
}

/** MLB pitcher strikeouts: first pregame quotes graded from the market alone, against the last pregame consensus. */
function mlbStrikeoutsClv(quotes: readonly StrikeoutQuote[]): ClvSummary {
  const groups = new Map<string, { first: Map<number, BookQuote[]>; last: Map<number, BookQuote[]>; moved: Set<string>; leads: Map<string, number | null> }>();
  for (const q of quotes) {
    const k = `${q.eventId}|${normalizeName(q.pitcher).key}`;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { first: new Map(), last: new Map(), moved: new Set(), leads: new Map() }));
    const push = (m: Map<number, BookQuote[]>, bq: BookQuote) => {
      const list = m.get(q.line);
      if (list) list.push(bq);
      else m.set(q.line, [bq]);
    };
    if (q.firstOver !== null && q.firstUnder !== null) push(g.first, { book: q.book, over: q.firstOver, under: q.firstUnder });
    if (q.lastOver !== null && q.lastUnder !== null) push(g.last, { book: q.book, over: q.lastOver, under: q.lastUnder });
    if (q.snapshots > 1) g.moved.add(`${q.book}|${q.line}`);
    g.leads.set(`${q.book}|${q.line}`, closeLeadMinutes(q.lastAt, q.gameTime ?? null));
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
      matched.push({ price: pricing.bookOdds, pLater: pricing.side === 'over' ? c.pOver : 1 - c.pOver, side: pricing.side, line: pricing.line, marketOnly: true, leadMinutes: g.leads.get(`${pricing.book}|${pricing.line}`) ?? null });
    }
  }
  return clvSummary('MLB pitcher strikeouts, A/A+ at the first pregame snapshot (market alone: no projection) vs the last pregame consensus at the same line', matched, { marketOnly: graded, withProjection: 0 });
}
