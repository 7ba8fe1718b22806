import { computeClv } from '../clv.js';
import { beatCloseByLead } from '../close-lead.js';
import type { Grade } from '../grades.js';
import type { gradeProp } from '../model/grade-prop.js';
import { gradeFor } from '../model/grading.js';
import type { RowPricing } from '../model/market.js';
import { americanToDecimal } from '../odds.js';
import { wilsonInterval } from '../record-gate.js';
import type { Side } from '../sports.js';
import type { ClvSummary } from './report.js';

/** leadMinutes: how long before the start the later read was taken (domain/close-lead.ts); null when the data has no start. */
export type ClvMatch = { price: number; pLater: number; side: Side; line: number; marketOnly: boolean; leadMinutes: number | null };

/**
 * Early A/A+ grades against the later market at the same line, through computeClv: the one CLV
 * function the ledger and the record use, so the back-test's beat share measures what the public
 * record's does. A back-test row has no start time of its own: the later snapshot stands in as
 * the capture, one minute before a start set after it (the function only asks "before the start");
 * the real lead time of the later read, where the data has the start, splits the beat share by band.
 */
export function clvSummary(description: string, matched: ClvMatch[], counts: { marketOnly: number; withProjection: number }): ClvSummary {
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
    beatCloseByLead: matched.some((m) => m.leadMinutes !== null) ? beatCloseByLead(results.map((r, i) => ({ verdict: r.verdict, leadMinutes: matched[i]?.leadMinutes ?? null }))) : null,
  };
}

const CAPTURE = '2000-01-01T00:00:00Z';
const START = '2000-01-01T00:01:00Z';

/** The letter for an early row: the live grade when a projection exists, else the market alone (research mode). */
export function earlyLetter(pricing: RowPricing, out: ReturnType<typeof gradeProp> | null): { grade: Grade; marketOnly: boolean } {
  if (out && !out.insufficientData) return { grade: out.grade, marketOnly: false };
  const evPct = 100 * (pricing.fairProb * (americanToDecimal(pricing.bookOdds) as number) - 1);
  return { grade: gradeFor({ evPct, fairSource: pricing.fairSource, thinConsensus: pricing.thinConsensus, gradedAtOutlier: pricing.gradedAtOutlier, fitted: true }).grade, marketOnly: true };
}
