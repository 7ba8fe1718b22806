/**
 * Count distributions for player stats. Every graded stat is a non-negative integer, so the
 * model prices it with a discrete law: Poisson when the variance does not exceed the mean,
 * negative binomial (NB2, matched to mean and variance) when it does.
 */

export type CountDistribution =
  | { family: 'poisson'; mean: number }
  | { family: 'negbin'; mean: number; /** size r */ r: number; /** success prob p = r/(r+mean) */ p: number };

/** Below this excess variance the NB is numerically a Poisson; r would exceed 1e8. */
const MIN_EXCESS_VARIANCE = 1e-8;

/** The count law with this mean and variance: NB when over-dispersed, Poisson otherwise. */
export function countDistribution(mean: number, variance: number): CountDistribution {
  if (!(mean > 0) || !Number.isFinite(mean)) throw new RangeError(`count mean must be > 0, got ${mean}`);
  const excess = variance - mean;
  if (!(excess > mean * mean * MIN_EXCESS_VARIANCE)) return { family: 'poisson', mean };
  const r = (mean * mean) / excess;
  return { family: 'negbin', mean, r, p: r / (r + mean) };
}

export function distributionVariance(d: CountDistribution): number {
  return d.family === 'poisson' ? d.mean : d.mean + (d.mean * d.mean) / d.r;
}

/** P(X = 0), where the forward recurrence starts. */
function pmfAtZero(d: CountDistribution): number {
  return d.family === 'poisson' ? Math.exp(-d.mean) : Math.exp(d.r * Math.log(d.p));
}

/** P(X = k) from P(X = k - 1): the stable forward recurrence of each family. */
function pmfNext(d: CountDistribution, previous: number, k: number): number {
  return d.family === 'poisson' ? (previous * d.mean) / k : (previous * (k - 1 + d.r) * (1 - d.p)) / k;
}

/** P(X = k) for k = 0..kMax, by the stable forward recurrence of each family. */
export function pmfTable(d: CountDistribution, kMax: number): number[] {
  const out: number[] = new Array<number>(kMax + 1);
  let pk = pmfAtZero(d);
  out[0] = pk;
  for (let k = 1; k <= kMax; k++) {
    pk = pmfNext(d, pk, k);
    out[k] = pk;
  }
  return out;
}

export function pmf(d: CountDistribution, k: number): number {
  if (!Number.isInteger(k) || k < 0) return 0;
  return pmfTable(d, k)[k] ?? 0;
}

/** P(X <= k). */
export function cdf(d: CountDistribution, k: number): number {
  if (k < 0) return 0;
  const kk = Math.floor(k);
  let s = 0;
  for (const p of pmfTable(d, kk)) s += p;
  return Math.min(1, s);
}

/** Log P(X = k) for fitting; uses lgamma so it is exact for any real r. */
export function logPmf(d: CountDistribution, k: number): number {
  if (d.family === 'poisson') return k * Math.log(d.mean) - d.mean - logGamma(k + 1);
  return logGamma(k + d.r) - logGamma(d.r) - logGamma(k + 1) + d.r * Math.log(d.p) + k * Math.log(1 - d.p);
}

/** Over/under/push probabilities at a line: over is X > line, under X < line, push X = line. */
export interface LineProbabilities {
  over: number;
  under: number;
  push: number;
}

export function lineProbabilities(d: CountDistribution, line: number): LineProbabilities {
  if (!Number.isFinite(line) || line < 0) throw new RangeError(`line must be a finite number >= 0, got ${line}`);
  const whole = Number.isInteger(line);
  const below = whole ? line - 1 : Math.floor(line);
  // pmfTable's terms, summed in its order as they are made: no table (a market-implied mean's
  // bisection asks this ~60 times per ladder).
  let pk = pmfAtZero(d);
  let under = 0;
  for (let k = 0; k <= below; k++) {
    if (k > 0) pk = pmfNext(d, pk, k);
    under += pk;
  }
  const push = !whole ? 0 : line === 0 ? pk : pmfNext(d, pk, line);
  under = Math.min(1, under);
  return { under, push, over: Math.max(0, 1 - under - push) };
}

// Lanczos approximation (g = 7, n = 9); relative error < 1e-14 for x > 0.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0] ?? 0;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += (LANCZOS[i] ?? 0) / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}
