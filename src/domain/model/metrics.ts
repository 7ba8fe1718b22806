/** Probability scoring for the back-test: log loss, Brier and a calibration table. Pure. */

export interface Scored {
  p: number;
  y: 0 | 1;
}

const EPS = 1e-12;

export function logLoss(rows: readonly Scored[]): number | null {
  if (rows.length === 0) return null;
  let s = 0;
  for (const r of rows) {
    const p = Math.min(1 - EPS, Math.max(EPS, r.p));
    s -= r.y === 1 ? Math.log(p) : Math.log(1 - p);
  }
  return s / rows.length;
}

export function brier(rows: readonly Scored[]): number | null {
  if (rows.length === 0) return null;
  let s = 0;
  for (const r of rows) s += (r.p - r.y) ** 2;
  return s / rows.length;
}

/** Mean and standard error of paired per-row differences (a - b); null below 2 rows. */
export function pairedDifference(a: readonly number[], b: readonly number[]): { mean: number; se: number } | null {
  const n = Math.min(a.length, b.length);
  if (n < 2) return null;
  const d: number[] = [];
  for (let i = 0; i < n; i++) d.push((a[i] as number) - (b[i] as number));
  const mean = d.reduce((x, y) => x + y, 0) / n;
  const v = d.reduce((x, y) => x + (y - mean) ** 2, 0) / (n - 1);
  return { mean, se: Math.sqrt(v / n) };
}

export function rowLogLoss(r: Scored): number {
  const p = Math.min(1 - EPS, Math.max(EPS, r.p));
  return r.y === 1 ? -Math.log(p) : -Math.log(1 - p);
}

export interface CalibrationBin {
  /** Bin [lo, hi) of predicted probability (the last bin includes 1). */
  lo: number;
  hi: number;
  n: number;
  meanPredicted: number | null;
  observed: number | null;
}

/** Ten fixed-width bins of predicted probability. */
export function calibrationTable(rows: readonly Scored[]): CalibrationBin[] {
  const bins = Array.from({ length: 10 }, (_, i) => ({ lo: i / 10, hi: (i + 1) / 10, n: 0, sp: 0, sy: 0 }));
  for (const r of rows) {
    const b = bins[Math.min(9, Math.max(0, Math.floor(r.p * 10)))];
    if (!b) continue;
    b.n += 1;
    b.sp += r.p;
    b.sy += r.y;
  }
  return bins.map((b) => ({ lo: b.lo, hi: b.hi, n: b.n, meanPredicted: b.n ? b.sp / b.n : null, observed: b.n ? b.sy / b.n : null }));
}
