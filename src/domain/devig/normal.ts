/**
 * Standard normal CDF and quantile, accurate to a few ulps: the probit de-vig needs Φ and Φ⁻¹
 * far beyond the 1e-9 the method is checked to, and JavaScript has no erf.
 */

const SQRT_2PI = Math.sqrt(2 * Math.PI);
/** Beyond this |x| the series loses relative accuracy in the small tail; the continued fraction takes over. */
const TAIL_SWITCH = 3;

export function normalPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / SQRT_2PI;
}

/** Φ(x) = P(Z <= x). */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x <= -TAIL_SWITCH) return upperTail(-x);
  if (x >= TAIL_SWITCH) return 1 - upperTail(x);
  return 0.5 + normalPdf(x) * centralSeries(x);
}

/**
 * Φ(x) - 1/2 = φ(x)·(x + x³/3 + x⁵/(3·5) + …): every term has the sign of x, so nothing cancels
 * (Marsaglia 2004). Converges for all x; used for |x| < 3 where ~60 terms reach double precision.
 */
function centralSeries(x: number): number {
  const x2 = x * x;
  let term = x;
  let sum = x;
  for (let k = 3; k < 500; k += 2) {
    term *= x2 / k;
    const next = sum + term;
    if (next === sum) break;
    sum = next;
  }
  return sum;
}

/**
 * Q(t) = 1 - Φ(t) for t >= 3 via the Laplace continued fraction
 * Q(t) = φ(t) / (t + 1/(t + 2/(t + 3/(t + …)))), evaluated with the modified Lentz method.
 * It keeps full relative accuracy in the far tail, where 1 - Φ would cancel.
 */
function upperTail(t: number): number {
  const tiny = 1e-300;
  let f = t;
  let c = f;
  let d = 0;
  for (let j = 1; j < 5000; j++) {
    d = t + j * d;
    d = Math.abs(d) < tiny ? 1 / tiny : 1 / d;
    c = t + j / c;
    if (Math.abs(c) < tiny) c = tiny;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return normalPdf(t) / f;
}

/**
 * Φ⁻¹(p) for p in (0, 1): a rational starting guess (Abramowitz & Stegun 26.2.23, |error| < 4.5e-4)
 * polished by Halley steps on the accurate Φ above. Works in the lower tail and mirrors, so a p
 * near 1 loses nothing to 1 - Φ.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) return Number.NaN;
  if (p > 0.5) return -normalQuantile(1 - p);
  if (p === 0.5) return 0;
  const t = Math.sqrt(-2 * Math.log(p));
  let x = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) / (1 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
  for (let i = 0; i < 20; i++) {
    const e = (normalCdf(x) - p) / normalPdf(x);
    const step = e / (1 + (x * e) / 2);
    x -= step;
    if (Math.abs(step) <= 1e-15 * Math.max(1, Math.abs(x))) break;
  }
  return x;
}
