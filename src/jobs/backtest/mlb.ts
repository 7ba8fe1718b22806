import { computeClv } from '../../domain/clv.js';
import type { PlayerGameStat } from '../../domain/entities.js';
import type { Grade } from '../../domain/grades.js';
import { fitPitcherStat, type PitcherStat } from '../../domain/model/fit-mlb.js';
import { FITTED_PARAMS } from '../../domain/model/fitted-params.js';
import { MARKET_RULES, consensusOver, fairOverForBook, type BookQuote, type LadderLine } from '../../domain/model/market.js';
import { calibrationTable } from '../../domain/model/metrics.js';
import { marketDispersionFor, statKey, type ModelParams } from '../../domain/model/params.js';
import { normalizeName } from '../../domain/names.js';
import { wilsonInterval } from '../../domain/record-gate.js';
import type { StrikeoutQuote } from '../../feeds/history/mlb-strikeouts.js';
import { beatCloseByLead, closeLeadMinutes } from '../../domain/close-lead.js';
import { teamAbbr } from '../../feeds/teams/lookup.js';
import { HistoryIndex } from '../../domain/backtest/history.js';
import { gradeLadder, profitOf, settleSide } from '../../domain/backtest/ladders.js';
import type { BacktestReport, BacktestRow, ClvSummary } from '../../domain/backtest/report.js';
import { probabilityScore, sampleSize, slopeOf, tierClaims } from '../../domain/backtest/scores.js';

/**
 * MLB pitcher-strikeout back-test (issue 26; outs the same way, issue 43): the props file's FIRST pregame quotes are graded by
 * the snapshot's own rule (priceLadder + gradeProp, sport mlb), with projection history cut strictly
 * before each game and every parameter fitted on games before `fitBefore`; each graded side is
 * settled on the pitcher's real game-log row (he must have started, else void) and each A/A+ early
 * grade's closing-line value is computed by the one CLV function against the LAST pregame consensus.
 * The report has the NBA back-test's keys (src/domain/backtest/report.ts).
 */

export interface MlbBacktestOptions {
  gamelogs: readonly PlayerGameStat[];
  quotes: readonly StrikeoutQuote[];
  /** Inclusive ET game dates. */
  from: string;
  to: string;
  /** Exclusive cut-off for every fitted number. */
  fitBefore: string;
  /** Use these parameters instead of fitting. */
  params?: ModelParams;
  /** Which pregame quotes are graded: the first (default; CLV is measured from them) or the last (closest to first pitch). */
  at?: 'first' | 'last';
  /** The pitcher stat the quotes price (issue 43: outs back-tested like strikeouts); default strikeouts. */
  stat?: PitcherStat;
}

interface Game {
  eventId: string;
  date: string;
  gameTime: string;
  pitcher: string;
  playerKey: string;
  teams: [string | null, string | null];
  first: Map<number, BookQuote[]>;
  last: Map<number, BookQuote[]>;
  lastAt: Map<string, string>;
  moved: Set<string>;
}

/** ET date of the props' game_time ("2025-07-03T19:41:00-04:00": US Eastern with its offset). */
const etDate = (gameTime: string) => gameTime.slice(0, 10);
const utc = (t: string) => new Date(Date.parse(t)).toISOString();

/** One group per (event, pitcher): the first and the last pregame ladder. */
function groups(quotes: readonly StrikeoutQuote[], from: string, to: string): Game[] {
  const out = new Map<string, Game>();
  for (const q of quotes) {
    const gameTime = q.gameTime;
    if (gameTime === undefined) continue;
    const date = etDate(gameTime);
    if (date < from || date > to) continue;
    const key = `${q.eventId}|${normalizeName(q.pitcher).key}`;
    let g = out.get(key);
    if (!g) {
      g = {
        eventId: q.eventId, date, gameTime, pitcher: q.pitcher, playerKey: normalizeName(q.pitcher).key,
        teams: [q.awayTeam ? teamAbbr('mlb', q.awayTeam) : null, q.homeTeam ? teamAbbr('mlb', q.homeTeam) : null],
        first: new Map(), last: new Map(), lastAt: new Map(), moved: new Set(),
      };
      out.set(key, g);
    }
    const add = (m: Map<number, BookQuote[]>, bq: BookQuote) => {
      const list = m.get(q.line);
      if (list) list.push(bq);
      else m.set(q.line, [bq]);
    };
    if (q.firstOver !== null && q.firstUnder !== null) add(g.first, { book: q.book, over: q.firstOver, under: q.firstUnder });
    if (q.lastOver !== null && q.lastUnder !== null) add(g.last, { book: q.book, over: q.lastOver, under: q.lastUnder });
    g.lastAt.set(`${q.book}|${q.line}`, q.lastAt);
    if (q.snapshots > 1) g.moved.add(`${q.book}|${q.line}`);
  }
  return [...out.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : a.playerKey < b.playerKey ? -1 : 1));
}

const ladderOf = (m: Map<number, BookQuote[]>): LadderLine[] =>
  [...m].sort((a, b) => a[0] - b[0]).map(([line, quotes]) => ({ line, quotes: [...quotes].sort((x, y) => (x.book < y.book ? -1 : 1)) }));

/** The pitcher's game-log row of that game: same ET date, his team one of the two; null when none. */
function outcomeRow(byKeyDate: Map<string, PlayerGameStat[]>, g: Game): PlayerGameStat | null {
  const rows = byKeyDate.get(`${g.playerKey}|${g.date}`) ?? [];
  return rows.find((r) => r.team !== null && g.teams.includes(r.team)) ?? null;
}


export function runMlbBacktest(opts: MlbBacktestOptions): BacktestReport {
  const training = opts.gamelogs.filter((r) => r.sport === 'mlb' && r.date < opts.fitBefore);
  const stat: PitcherStat = opts.stat ?? 'strikeouts';
  const fit = opts.params ? null : fitPitcherStat(training, stat);
  // No MLB props exist before the window to fit a blend weight or a market-dispersion scale on: the
  // nudge stays 0 (the market alone) and the scale is the product's own (FITTED_PARAMS, fitted on NBA
  // training props), so the back-test scores the market-implied rungs exactly as the snapshot prices them.
  const params: ModelParams = opts.params ?? {
    fitBefore: opts.fitBefore,
    nudgeWeights: {},
    marketDispersionScale: FITTED_PARAMS.marketDispersionScale,
    stats: fit ? { [statKey('mlb', stat)]: fit.params } : {},
  };
  const history = new HistoryIndex(opts.gamelogs);
  const byKeyDate = new Map<string, PlayerGameStat[]>();
  for (const r of opts.gamelogs) {
    const k = `${r.playerKey}|${r.date}`;
    const list = byKeyDate.get(k);
    if (list) list.push(r);
    else byKeyDate.set(k, [r]);
  }
  const dispersion = marketDispersionFor(params, 'mlb', stat);
  const all = groups(opts.quotes, opts.from, opts.to);
  const inWindow = opts.quotes.filter((q) => q.gameTime !== undefined && etDate(q.gameTime) >= opts.from && etDate(q.gameTime) <= opts.to).length;
  const rows: BacktestRow[] = [];
  const refusalReasons: Record<string, number> = {};
  const bySource: Record<string, number> = {};
  const clvRows: { grade: Grade; verdict: string | null; clv: number | null; clvPct: number | null; leadMinutes: number | null }[] = [];
  let mainLines = 0, graded = 0, refused = 0, voided = 0, withProjection = 0;
  for (const g of all) {
    const lines = ladderOf(opts.at === 'last' ? g.last : g.first);
    // The snapshot's own rule, shared with the NBA and WNBA back-tests (priceLadder + gradeProp).
    const sides = gradeLadder({ date: g.date, game: g.eventId, player: g.pitcher, playerKey: g.playerKey, stat, lines }, history, params, 'mlb');
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
    // CLV of the early A/A+ grades against the last pregame consensus at the same line (no outcome needed).
    for (const { pricing: p, out } of opts.at === 'last' ? [] : sides) {
      if (out.insufficientData || (out.grade !== 'A+' && out.grade !== 'A') || !g.moved.has(`${p.book}|${p.line}`)) continue;
      // The close on the grade's own yardstick: the last pregame market at the line, the graded book left out.
      const c = fairOverForBook(ladderOf(g.last), p.line, p.book, dispersion);
      if (!c || (c.source === 'book' && p.fairSource !== 'book')) continue;
      const capturedAt = g.lastAt.get(`${p.book}|${p.line}`) as string;
      const r = computeClv({ side: p.side, line: p.line, lockedPrice: p.bookOdds, lockedFairProb: p.fairProb, closingLine: p.line, closingFairProb: p.side === 'over' ? c.pOver : 1 - c.pOver, closingCapturedAt: utc(capturedAt), commenceTime: utc(g.gameTime) });
      withProjection += 1;
      clvRows.push({ grade: out.grade, verdict: r.verdict, clv: r.clv, clvPct: r.clvPct, leadMinutes: closeLeadMinutes(capturedAt, g.gameTime) });
    }
    const row = outcomeRow(byKeyDate, g);
    const k = row?.stats[stat];
    // Must start: a pitcher who did not start (or is not in the box score) voids his props.
    if (!row || row.extras['is_starter'] !== 1 || typeof k !== 'number') {
      voided += 1;
      continue;
    }
    for (const { pricing: p, out } of sides) {
      if (out.insufficientData) continue;
      const result = settleSide(p.side, p.line, k);
      bySource[p.fairSource] = (bySource[p.fairSource] ?? 0) + 1;
      const line = lines.find((l) => l.line === p.line);
      rows.push({
        date: g.date, game: g.eventId, player: g.pitcher, stat, line: p.line, side: p.side, isMainLine: p.isMainLine,
        fairSource: p.fairSource, thinConsensus: p.thinConsensus, consensusBooks: p.consensusBooks, outlierPrice: p.outlierPrice,
        book: p.book, bookOdds: p.bookOdds, pFair: p.fairProb, pModel: out.detail.pModel, pWin: out.pWin, evPct: out.evPct, grade: out.grade,
        actual: k, result, profit: profitOf(result, p.bookOdds),
        consensusOverAll: line ? (consensusOver(line.quotes)?.pOver ?? null) : null,
      });
    }
  }
  const mainRows = rows.filter((r) => r.isMainLine);
  const implied = rows.filter((r) => r.fairSource === 'market_implied');
  const thin = rows.filter((r) => r.fairSource === 'consensus' && r.thinConsensus);
  const decidedOver = (rs: readonly BacktestRow[]) => rs.filter((r) => r.side === 'over' && r.result !== 'push');
  const top = rows.filter((r) => r.grade === 'A+' || r.grade === 'A');
  return {
    window: { from: opts.from, to: opts.to, fitBefore: opts.fitBefore, inSample: opts.from < opts.fitBefore },
    params,
    fit: fit
      ? { exposureHalfLife: fit.exposureHalfLife, stats: { [stat]: fit.diagnostics }, nudge: {}, outlierGap: null, marketDispersion: null }
      : null,
    rules: { minConsensusBooks: MARKET_RULES.minConsensusBooks, outlierProbGap: MARKET_RULES.outlierProbGap, consensusMethod: MARKET_RULES.consensusMethod },
    counts: { propRows: inWindow, ladders: all.length, mainLines, graded, refused, refusalReasons, void: voided, scoredRows: rows.length, bySource },
    logLoss: { all: probabilityScore(mainRows, params, 'mlb'), [stat]: probabilityScore(mainRows, params, 'mlb') },
    perTier: { mainLines: tierClaims(mainRows), marketImpliedRungs: tierClaims(implied), thinConsensus: tierClaims(thin), allRows: tierClaims(rows) },
    calibrationSlope: { mainLines: slopeOf(mainRows), marketImpliedRungs: slopeOf(implied), allRows: slopeOf(rows) },
    calibration: {
      final: calibrationTable(decidedOver(mainRows).map((r) => ({ p: r.pWin, y: r.result === 'win' ? 1 : 0 }))),
      marketImpliedRungs: calibrationTable(decidedOver(implied).map((r) => ({ p: r.pFair, y: r.result === 'win' ? 1 : 0 }))),
    },
    // The report's one MLB CLV slot; its description names the stat.
    clv: { nbaThrees: null, mlbStrikeouts: clvOf(clvRows, withProjection, stat) },
    sampleSize: sampleSize(mainRows.filter((r) => r.grade === 'A+' || r.grade === 'A' || r.grade === 'B'), top.length),
    rows,
  };
}

/** CLV of the early A/A+ grades, as computeClv (src/domain/clv.ts) decides each. */
function clvOf(list: readonly { verdict: string | null; clv: number | null; clvPct: number | null; leadMinutes: number | null }[], withProjection: number, stat: PitcherStat): ClvSummary {
  const decided = list.filter((x) => x.verdict !== null);
  const beat = decided.filter((x) => x.verdict === 'beat').length;
  const values = list.map((x) => x.clv).filter((v): v is number => v !== null);
  const pcts = list.map((x) => x.clvPct).filter((v): v is number => v !== null);
  return {
    description:
      `MLB pitcher ${stat === 'strikeouts' ? 'strikeouts' : 'outs'}, A/A+ graded at the first pregame snapshot (with a projection) vs the last pregame market at the same line on the grade’s own yardstick (the graded book left out); verdict and CLV from computeClv (src/domain/clv.ts); only quotes seen in 2+ snapshots`,
    marketOnly: 0,
    withProjection: withProjection,
    n: decided.length,
    beat,
    beatShare: decided.length > 0 ? beat / decided.length : null,
    ci95: decided.length > 0 ? wilsonInterval(beat, decided.length) : null,
    meanClvPts: values.length > 0 ? (100 * values.reduce((s, v) => s + v, 0)) / values.length : null,
    meanClvPct: pcts.length > 0 ? pcts.reduce((s, v) => s + v, 0) / pcts.length : null,
    beatCloseByLead: beatCloseByLead(list),
  };
}
