import type { Side } from '../sports.js';
import type { LineProbabilities } from './distributions.js';

/**
 * Win probability for a side, conditional on no push: a push refunds the stake, so the bet is
 * decided only on the other outcomes. On .5 lines the push probability is 0 and this is P(side).
 */
export function conditionalWinProbability(probs: LineProbabilities, side: Side): number {
  const decided = probs.over + probs.under;
  if (!(decided > 0)) return Number.NaN;
  return (side === 'over' ? probs.over : probs.under) / decided;
}

function logit(p: number): number {
  return Math.log(p / (1 - p));
}

const P_EPS = 1e-6;

function clampProb(p: number): number {
  return Math.min(1 - P_EPS, Math.max(P_EPS, p));
}

/** Logarithmic opinion pool: sigma(w * logit(pModel) + (1 - w) * logit(pMarket)). */
export function blendProbability(pModel: number, pMarket: number, weight: number): number {
  const z = weight * logit(clampProb(pModel)) + (1 - weight) * logit(clampProb(pMarket));
  return 1 / (1 + Math.exp(-z));
}
