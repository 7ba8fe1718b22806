/**
 * Bracketed root finding for the de-vig solvers. Every n-way method reduces to one monotone
 * equation in one parameter with a known sign change, so a bracketed method cannot miss the root.
 */

const EPS = Number.EPSILON;

export interface BrentOptions {
  /** Absolute tolerance on the parameter; the relative part is 2·eps·|x|. */
  xtol?: number;
  maxIter?: number;
}

/**
 * Brent's method (inverse quadratic interpolation, secant, bisection fallback; as in Brent 1973
 * "zeroin") on [a, b] where f(a) and f(b) have opposite signs or one is zero. Returns null when the
 * interval does not bracket a root or the iteration budget runs out, so callers report a reason.
 */
export function brentRoot(f: (x: number) => number, lo: number, hi: number, options: BrentOptions = {}): number | null {
  const xtol = options.xtol ?? 1e-15;
  const maxIter = options.maxIter ?? 300;
  let a = lo;
  let b = hi;
  let fa = f(a);
  let fb = f(b);
  if (!Number.isFinite(fa) || !Number.isFinite(fb)) return null;
  if (fa === 0) return a;
  if (fb === 0) return b;
  if (Math.sign(fa) === Math.sign(fb)) return null;
  let c = b;
  let fc = fb;
  let d = b - a;
  let e = d;
  for (let iter = 0; iter < maxIter; iter++) {
    if (Math.sign(fb) === Math.sign(fc)) {
      c = a;
      fc = fa;
      d = b - a;
      e = d;
    }
    if (Math.abs(fc) < Math.abs(fb)) {
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    const tol = 2 * EPS * Math.abs(b) + 0.5 * xtol;
    const m = 0.5 * (c - b);
    if (Math.abs(m) <= tol || fb === 0) return b;
    if (Math.abs(e) >= tol && Math.abs(fa) > Math.abs(fb)) {
      const s = fb / fa;
      let p: number;
      let q: number;
      if (a === c) {
        p = 2 * m * s;
        q = 1 - s;
      } else {
        const qa = fa / fc;
        const r = fb / fc;
        p = s * (2 * m * qa * (qa - r) - (b - a) * (r - 1));
        q = (qa - 1) * (r - 1) * (s - 1);
      }
      if (p > 0) q = -q;
      else p = -p;
      if (2 * p < Math.min(3 * m * q - Math.abs(tol * q), Math.abs(e * q))) {
        e = d;
        d = p / q;
      } else {
        d = m;
        e = m;
      }
    } else {
      d = m;
      e = m;
    }
    a = b;
    fa = fb;
    b += Math.abs(d) > tol ? d : m > 0 ? tol : -tol;
    fb = f(b);
    if (!Number.isFinite(fb)) return null;
  }
  return null;
}

/**
 * For a decreasing f with f(lo) >= 0: doubles the step above lo until f turns negative and returns
 * that upper end, or null if it never does within `maxDoublings`.
 */
export function bracketAbove(f: (x: number) => number, lo: number, firstStep: number, maxDoublings = 64): number | null {
  let step = firstStep;
  for (let i = 0; i < maxDoublings; i++) {
    const hi = lo + step;
    const fhi = f(hi);
    if (Number.isNaN(fhi)) return null;
    if (fhi <= 0) return hi;
    step *= 2;
  }
  return null;
}

/**
 * For a decreasing f with f(hi) <= 0: doubles the step below hi until f turns positive and
 * returns that lower end, or null if it never does within `maxDoublings`. The underround
 * counterpart of bracketAbove: there the parameter that removes a margin is negative.
 */
export function bracketBelow(f: (x: number) => number, hi: number, firstStep: number, maxDoublings = 64): number | null {
  let step = firstStep;
  for (let i = 0; i < maxDoublings; i++) {
    const lo = hi - step;
    const flo = f(lo);
    if (Number.isNaN(flo)) return null;
    if (flo >= 0) return lo;
    step *= 2;
  }
  return null;
}
