import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { computeClv, type ClvInput } from '../../domain/clv.js';
import { fairOverForBook, priceLadder } from '../../domain/model/market.js';
import { marketDispersionFor, WNBA_LOOKBACK_DAYS, type ModelParams } from '../../domain/model/params.js';
import { normalizeName } from '../../domain/names.js';
import { wilsonInterval } from '../../domain/record-gate.js';
import { statForMarket } from '../../domain/stats.js';
import { easternDate } from '../../domain/time.js';
import type { HistoricalProp } from '../../feeds/history/props.js';
import { closeLeadBand, closeLeadMinutes, createLeadTally } from '../../domain/close-lead.js';
import { loadWnbaBoxScores } from '../../feeds/history/wnba-box-scores.js';
import type { HistoryIndex } from '../../domain/backtest/history.js';
import { gradeLadder, ladders } from '../../domain/backtest/ladders.js';
import type { BacktestReport, ClvSummary } from '../../domain/backtest/report.js';
import { runBacktest } from './nba.js';

/**
 * WNBA back-test: the 382 real Odds API historical event-odds responses (a morning "decision"
 * snapshot and one ~10 minutes before tip per event) graded by the snapshot's own rule, history
 * from the ESPN box scores of earlier games only, outcomes from the same box scores. The morning
 * prices are what is graded (what a morning snapshot run locks); the closing snapshot is the close
 * for CLV, computed by the one CLV function (src/domain/clv.ts).
 */

const outcomeSchema = z.object({ name: z.string(), description: z.string().optional(), price: z.number(), point: z.number().optional() });
const responseSchema = z.object({
  timestamp: z.string(),
  data: z.object({
    id: z.string(),
    commence_time: z.string(),
    home_team: z.string(),
    away_team: z.string(),
    bookmakers: z.array(z.object({ key: z.string(), markets: z.array(z.object({ key: z.string(), outcomes: z.array(outcomeSchema) })) })),
  }),
});

export interface WnbaOdds {
  /** Morning (`_decision.json`) quotes: what is graded. */
  decision: HistoricalProp[];
  /** Pre-tip (`_closing.json`) quotes: the close. */
  closing: HistoricalProp[];
  warnings: string[];
}

/** One response's quotes: Over and Under paired by (book, market, player, line); a lone side keeps the other null. */
export function propsOfResponse(json: unknown): HistoricalProp[] | null {
  const parsed = responseSchema.safeParse(json);
  if (!parsed.success) return null;
  const { timestamp, data } = parsed.data;
  const date = easternDate(new Date(data.commence_time));
  const out = new Map<string, HistoricalProp>();
  for (const b of data.bookmakers) {
    for (const m of b.markets) {
      const stat = statForMarket(m.key);
      if (stat === null) continue; // pair markets (points+rebounds...) are not graded stats
      for (const o of m.outcomes) {
        if (o.description === undefined || o.point === undefined) continue;
        const k = `${b.key}|${stat}|${o.description}|${o.point}`;
        let p = out.get(k);
        if (!p) {
          p = { date, commenceTime: data.commence_time, eventId: data.id, game: `${data.away_team} @ ${data.home_team}`, snapshotAt: timestamp, player: o.description, stat, line: o.point, book: b.key, overOdds: null, underOdds: null };
          out.set(k, p);
        }
        if (o.name === 'Over') p.overOdds = o.price;
        else if (o.name === 'Under') p.underOdds = o.price;
      }
    }
  }
  return [...out.values()];
}

export function loadWnbaOddsDir(dir: string): WnbaOdds {
  const out: WnbaOdds = { decision: [], closing: [], warnings: [] };
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    } catch {
      out.warnings.push(`${f}: not JSON`);
      continue;
    }
    const props = propsOfResponse(json);
    if (props === null) out.warnings.push(`${f}: not an event-odds response`);
    else (f.endsWith('_closing.json') ? out.closing : out.decision).push(...props);
  }
  return out;
}

export interface WnbaBacktestOptions {
  oddsDir: string;
  boxScores: string;
  games: string;
  /** Exclusive fit cut-off: 2023 learns, 2024 is held out. */
  fitBefore?: string;
  from?: string;
  to?: string;
  params?: ModelParams;
}

export function runWnbaBacktest(opts: WnbaBacktestOptions): { report: BacktestReport; warnings: string[] } {
  const odds = loadWnbaOddsDir(opts.oddsDir);
  const box = loadWnbaBoxScores(opts.boxScores, opts.games);
  const fitBefore = opts.fitBefore ?? '2024-01-01';
  const report = runBacktest({
    sport: 'wnba',
    props: odds.decision,
    gamelogs: box.rows,
    fitBefore,
    from: opts.from ?? fitBefore,
    ...(opts.to ? { to: opts.to } : {}),
    ...(opts.params ? { params: opts.params } : {}),
    statExtras: { lookbackDays: WNBA_LOOKBACK_DAYS },
    clvExtra: (ctx) => wnbaClv(odds, ctx),
  });
  return { report, warnings: [...odds.warnings, ...box.warnings.filter((w) => !w.includes('is not a WNBA team'))] };
}

/**
 * A/A+ morning grades (with a projection) against the closing snapshot of the same event, player
 * and stat: computeClv with the morning fair as the locked fair, the close's all-books consensus at
 * the same line (or, when the line moved, the closing main line) and the closing response's time.
 */
function wnbaClv(odds: WnbaOdds, ctx: { params: ModelParams; history: HistoryIndex; from: string; to: string }): ClvSummary | null {
  const inWindow = (p: HistoricalProp) => p.date >= ctx.from && p.date <= ctx.to;
  const closing = new Map<string, ReturnType<typeof ladders>[number] & { at: string }>();
  const closeAt = new Map<string, string>();
  for (const p of odds.closing) if (inWindow(p)) closeAt.set(p.eventId ?? p.game, p.snapshotAt);
  const tipOf = new Map<string, string>();
  for (const p of odds.decision) tipOf.set(p.eventId ?? p.game, p.commenceTime);
  for (const l of ladders(odds.closing.filter(inWindow))) closing.set(`${l.game}|${l.playerKey}|${l.stat}`, { ...l, at: closeAt.get(l.game) as string });
  let n = 0;
  let beat = 0;
  let withProjection = 0;
  const clvs: number[] = [];
  const pcts: number[] = [];
  const leads = createLeadTally();
  for (const ladder of ladders(odds.decision.filter(inWindow))) {
    const close = closing.get(`${ladder.game}|${normalizeName(ladder.player).key}|${ladder.stat}`);
    for (const { pricing, out } of gradeLadder(ladder, ctx.history, ctx.params, 'wnba')) {
      if (out.insufficientData || (out.grade !== 'A+' && out.grade !== 'A')) continue;
      withProjection += 1;
      if (!close) continue;
      // The close on the grade's own yardstick (docs/ledger.md): the pre-tip market at the graded
      // line with the graded book left out, by the rule that priced the grade; else, when nothing
      // prices that line any more, the close's main line (its move carries the verdict).
      const fair = fairOverForBook(close.lines, pricing.line, pricing.book, marketDispersionFor(ctx.params, 'wnba', ladder.stat));
      const usable = fair !== null && !(fair.source === 'book' && pricing.fairSource !== 'book');
      const closeMain = priceLadder(close.lines, null).find((r) => r.isMainLine)?.line ?? null;
      const input: ClvInput = {
        side: pricing.side,
        line: pricing.line,
        lockedPrice: pricing.bookOdds,
        lockedFairProb: pricing.fairProb,
        closingLine: usable ? pricing.line : closeMain,
        closingFairProb: usable && fair ? (pricing.side === 'over' ? fair.pOver : 1 - fair.pOver) : null,
        closingCapturedAt: close.at,
        commenceTime: tipOf.get(ladder.game) ?? '',
      };
      const r = computeClv(input);
      if (r.verdict === null) continue;
      n += 1;
      if (r.verdict === 'beat') beat += 1;
      leads.add(closeLeadBand(closeLeadMinutes(input.closingCapturedAt, input.commenceTime)), r.verdict);
      if (r.clv !== null) clvs.push(r.clv);
      if (r.clvPct !== null) pcts.push(r.clvPct);
    }
  }
  if (withProjection === 0) return null;
  return {
    description: 'WNBA, A/A+ at the morning snapshot vs the snapshot ~10 min before tip (same event, player, stat); verdict and clv from src/domain/clv.ts; beat by the close\'s lead band',
    marketOnly: 0,
    withProjection: withProjection,
    n,
    beat,
    beatShare: n > 0 ? beat / n : null,
    ci95: n > 0 ? wilsonInterval(beat, n) : null,
    meanClvPts: clvs.length > 0 ? (100 * clvs.reduce((a, b) => a + b, 0)) / clvs.length : null,
    meanClvPct: pcts.length > 0 ? pcts.reduce((a, b) => a + b, 0) / pcts.length : null,
    beatCloseByLead: leads.result(),
  };
}
