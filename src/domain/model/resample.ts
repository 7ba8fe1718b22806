/**
 * Cluster bootstrap for the back-test: bets on one game share its box score, so intervals resample
 * whole games, not rows. Pure and deterministic (seeded generator), so a report reproduces exactly.
 */

/** Named running sums for one cluster (one game); a statistic is a function of the summed sums. */
export type Sums = Record<string, number>;

export function addInto(target: Sums, add: Sums): void {
  for (const k in add) target[k] = (target[k] ?? 0) + (add[k] as number);
}

/** Mulberry32: small, fast, good enough for resampling indices. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const BOOTSTRAP = { reps: 2000, seed: 20251021 } as const;

/**
 * Percentile 95% interval of `stat` over `reps` resamples of the clusters with replacement;
 * null when there are fewer than 2 clusters or the statistic is undefined in most resamples.
 */
export function clusterInterval(clusters: readonly Sums[], stat: (s: Sums) => number | null, reps: number = BOOTSTRAP.reps, seed: number = BOOTSTRAP.seed): [number, number] | null {
  if (clusters.length < 2) return null;
  const rnd = seededRandom(seed);
  const values: number[] = [];
  for (let r = 0; r < reps; r++) {
    const total: Sums = {};
    for (let i = 0; i < clusters.length; i++) addInto(total, clusters[Math.floor(rnd() * clusters.length)] as Sums);
    const v = stat(total);
    if (v !== null && Number.isFinite(v)) values.push(v);
  }
  if (values.length < reps / 2) return null;
  values.sort((a, b) => a - b);
  const at = (q: number) => values[Math.min(values.length - 1, Math.max(0, Math.floor(q * values.length)))] as number;
  return [at(0.025), at(0.975)];
}

/** The total of every cluster's sums. */
export function totalOf(clusters: readonly Sums[]): Sums {
  const total: Sums = {};
  for (const c of clusters) addInto(total, c);
  return total;
}

/** Sums for an ordinary least-squares fit of y on x: n, x, y, xx, xy. */
export function olsSums(x: number, y: number): Sums {
  return { n: 1, x, y, xx: x * x, xy: x * y };
}

/** OLS slope from summed olsSums; null when x does not vary. */
export function olsSlope(s: Sums): number | null {
  const n = s['n'] ?? 0;
  if (n < 2) return null;
  const sx = s['x'] ?? 0;
  const den = n * (s['xx'] ?? 0) - sx * sx;
  if (!(Math.abs(den) > 1e-12)) return null;
  return (n * (s['xy'] ?? 0) - sx * (s['y'] ?? 0)) / den;
}
