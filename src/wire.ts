/**
 * The one JSON style of every CLI `--json` output and every HTTP body (docs/api.md, "Wire format"):
 * snake_case keys (the seed's `gradedAt` kept as it spells it) and numbers rounded at the edge by
 * what they are, so no float noise (0.30000000000000004) ever leaves the process. The store and the
 * domain keep full precision; only this serializer rounds.
 */

/** Keys kept verbatim although camelCase: the seed's own spelling. */
const VERBATIM = new Set(['gradedAt']);

type Rounding = 'odds' | 'prob' | 'pct' | 'stat' | 'plain';

/** Decimal places per kind: American odds are whole numbers; probabilities 4; percentages 1; projections 2. */
const PLACES: Record<Exclude<Rounding, 'plain'>, number> = { odds: 0, prob: 4, pct: 1, stat: 2 };
/** Anything else: at most 6 decimals (no figure here means more than that). */
const PLAIN_PLACES = 6;

const RULES: ReadonlyArray<[RegExp, Rounding]> = [
  [/(^|_)(pct|percent|roi)($|_)/, 'pct'],
  [/(^|_)(odds|price|prev_price|locked_price|closing_price|outlier_odds|american)$/, 'odds'],
  [/(^|_)(prob|probability|p_win|p_over|p_fair|p_model|p_market|hit_rate|beat_share|rate|share|confidence)$/, 'prob'],
  [/(^|_)(projection|season_avg|form|usage|minutes_avg|avg|average|mean)$/, 'stat'],
];

/** camelCase identifier -> snake_case; anything else (names, tiers such as "A+", "nba:points") as is. */
export function wireKey(key: string): string {
  if (VERBATIM.has(key) || !/^[a-z][a-zA-Z0-9]*$/.test(key)) return key;
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** wireKey at the type level: what a camelCase key becomes on the wire (gradedAt and non-identifiers as they are). */
type SnakeRest<S extends string> = S extends `${infer C}${infer R}` ? `${C extends Uppercase<C> ? (C extends Lowercase<C> ? C : `_${Lowercase<C>}`) : C}${SnakeRest<R>}` : S;
export type WireKey<K extends string> = K extends 'gradedAt' ? K : K extends `${infer F}${infer R}` ? (F extends Lowercase<F> ? (F extends Uppercase<F> ? K : `${F}${SnakeRest<R>}`) : K) : K;

/**
 * Keys that only carry their parent's figure (`roi_pct: { value, ci95: [lo, hi] }`) inherit its
 * rounding; any other key of a nested object is judged on its own name (a slip field
 * `price: { value, confidence }` keeps its confidence a probability).
 */
const CARRIERS = new Set(['value', 'ci95', 'ci', 'lo', 'hi', 'low', 'high', 'min', 'max', 'mean_value']);

function roundingFor(key: string): Rounding | null {
  for (const [re, kind] of RULES) if (re.test(key)) return kind;
  return null;
}

/**
 * Each key's wire name and rounding, worked out once: a body repeats the same few dozen keys on
 * thousands of rows, and the snapshot cache serializes megabytes of them on a miss. Bounded, since
 * some keys are data (ids, names); past the bound a key is worked out each time, as before.
 */
interface KeyInfo {
  key: string;
  rounding: Rounding | null;
  carrier: boolean;
}
const KEY_MEMO_MAX = 4096;
const keyMemo = new Map<string, KeyInfo>();

function keyInfo(k: string): KeyInfo {
  const known = keyMemo.get(k);
  if (known) return known;
  const key = wireKey(k);
  const info = { key, rounding: roundingFor(key), carrier: CARRIERS.has(key) };
  if (keyMemo.size < KEY_MEMO_MAX) keyMemo.set(k, info);
  return info;
}

function roundTo(x: number, places: number): number {
  if (!Number.isFinite(x) || Number.isInteger(x)) return x;
  const f = 10 ** places;
  const r = Math.round(x * f) / f;
  // -0 prints as 0 in JSON anyway; keep the sign out of the way.
  return Object.is(r, -0) ? 0 : r;
}

function walk(value: unknown, rounding: Rounding): unknown {
  if (typeof value === 'number') return roundTo(value, rounding === 'plain' ? PLAIN_PLACES : PLACES[rounding]);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => walk(v, rounding));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const info = keyInfo(k);
    out[info.key] = walk(v, info.rounding ?? (info.carrier ? rounding : 'plain'));
  }
  return out;
}

/** The wire form of any JSON-able value. */
export function toWire<T>(value: T): unknown {
  return walk(value, 'plain');
}

/** The wire form as JSON text. */
export function wireJson(value: unknown, indent?: number): string {
  return JSON.stringify(toWire(value), null, indent);
}
