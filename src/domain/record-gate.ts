/**
 * Record gating (spec: "Record percentages ... only when the sample size n is at least 20").
 * Below the minimum the record is "building": counts only, no percentage, no interval.
 */
export const MIN_SAMPLE = 20;

export interface GatedRate {
  n: number;
  successes: number;
  /** Percent, 0..100; null below MIN_SAMPLE. */
  pct: number | null;
  /** Wilson score 95% interval in percent; null below MIN_SAMPLE. */
  ci95: [number, number] | null;
  state: 'ok' | 'building';
  /** "55.0% (11 of 20)" when ok, "7 of 20" while building. */
  label: string;
}

const Z95 = 1.959963984540054;

/** Wilson score interval for a binomial proportion, as fractions in [0, 1]. */
export function wilsonInterval(successes: number, n: number, z = Z95): [number, number] {
  assertCounts(successes, n);
  if (n === 0) throw new RangeError('wilsonInterval: n must be positive');
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export function gateRate(successes: number, n: number): GatedRate {
  assertCounts(successes, n);
  if (n < MIN_SAMPLE) {
    return { n, successes, pct: null, ci95: null, state: 'building', label: `${n} of ${MIN_SAMPLE}` };
  }
  const pct = (successes * 100) / n;
  const [lo, hi] = wilsonInterval(successes, n);
  return {
    n,
    successes,
    pct,
    ci95: [lo * 100, hi * 100],
    state: 'ok',
    label: `${pct.toFixed(1)}% (${successes} of ${n})`,
  };
}

function assertCounts(successes: number, n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`record gate: n must be a non-negative integer, got ${n}`);
  if (!Number.isInteger(successes) || successes < 0 || successes > n) {
    throw new RangeError(`record gate: successes must be an integer in 0..${n}, got ${successes}`);
  }
}
