import type { Grade } from '../grades.js';
import { nudgeWeightFor, type ModelParams } from '../model/params.js';
import { rowLogLoss } from '../model/metrics.js';
import { blendProbability } from '../model/pricing.js';
import { clusterInterval, olsSlope, olsSums, totalOf, addInto, type Sums } from '../model/resample.js';
import type { GradedSport } from '../sports.js';
import type { BacktestReport, BacktestRow, Interval, ProbabilityScore, TierClaim } from './report.js';

/**
 * The back-test's scores, shared by every sport: probability scoring against the consensus, each
 * tier's claimed EV against its realised ROI, the slope of realised profit on claimed EV and the
 * sample size a claim needs. Intervals resample whole games (bets on one game share its box score).
 */

const TIERS: readonly Grade[] = ['A+', 'A', 'B', 'C', 'F'];

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

/** A ratio of two sums over a resample; null when the denominator is empty (a key no row added sums to 0). */
const ratio = (num: string, den: string) => (s: Sums) => ((s[den] ?? 0) > 0 ? (s[num] ?? 0) / (s[den] as number) : null);

/** Prop-level scoring on main lines (one P(over) per prop): the nudged final, the consensus and the pure model. */
export function probabilityScore(rows: readonly BacktestRow[], params: ModelParams, sport: GradedSport = 'nba'): ProbabilityScore {
  const props = rows.filter((r) => r.side === 'over' && r.result !== 'push' && r.consensusOverAll !== null);
  const scored = props.map((r) => {
    const consensus = r.consensusOverAll as number;
    const w = nudgeWeightFor(params, sport, r.stat);
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
    const clusters = byGame(list, (r) => ({ n: 1, profit: r.profit }));
    const roiPct = (s: Sums) => ((s['n'] ?? 0) > 0 ? (100 * (s['profit'] ?? 0)) / (s['n'] as number) : null);
    const ci = clusterInterval(clusters, roiPct);
    const claimed = list.reduce((sum, r) => sum + r.evPct, 0) / list.length;
    const wins = list.filter((r) => r.result === 'win').length;
    const decided = list.filter((r) => r.result !== 'push').length;
    out[tier] = {
      n: list.length,
      wins,
      hitRate: decided > 0 ? wins / decided : null,
      claimedEvPct: claimed,
      roiPct: { value: roiPct(totalOf(clusters)), ci95: ci },
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
