import type { Criterion } from './schema.js';

/** Rule-building helpers: `atLeast('reb36', 12)` reads as the rule text in docs/archetypes.md. */

export interface TypedCriterion<F extends string> extends Criterion {
  feature: F;
}

export function atLeast<F extends string>(feature: F, value: number): TypedCriterion<F> {
  return { feature, op: '>=', value, gate: false };
}

export function atMost<F extends string>(feature: F, value: number): TypedCriterion<F> {
  return { feature, op: '<=', value, gate: false };
}

/** A scope condition: must hold, adds nothing to the strength of the match. */
export function gate<F extends string>(c: TypedCriterion<F>): TypedCriterion<F> {
  return { ...c, gate: true };
}

/** "reb36 >= 10 and ast36 >= 5.5 (gate: usage36 <= 24)" */
export function describeRule(rule: readonly Criterion[]): string {
  const text = (c: Criterion) => `${c.feature} ${c.op} ${c.value}`;
  const scored = rule.filter((c) => !c.gate).map(text);
  const gates = rule.filter((c) => c.gate).map(text);
  return gates.length === 0 ? scored.join(' and ') : `${scored.join(' and ')} (gate: ${gates.join(' and ')})`;
}

/** Ratios above this count as "clearly the type": the cap keeps one extreme stat from swamping a blend. */
const RATIO_CAP = 2;

/**
 * Strength of a match, or null when any condition fails or a needed feature is missing.
 * Each scored condition contributes value/threshold (>=) or threshold/value (<=), capped at 2;
 * the strength is their geometric mean, so it is 1 at the thresholds and 2 at twice them.
 */
export function matchStrength(rule: readonly Criterion[], features: Readonly<Record<string, number | null>>): number | null {
  let logSum = 0;
  let scored = 0;
  for (const c of rule) {
    const x = features[c.feature];
    if (x === null || x === undefined || !Number.isFinite(x)) return null;
    const ratio = c.op === '>=' ? x / c.value : x <= 0 ? RATIO_CAP : c.value / x;
    if (ratio < 1) return null;
    if (c.gate) continue;
    logSum += Math.log(Math.min(ratio, RATIO_CAP));
    scored += 1;
  }
  return scored === 0 ? null : Math.exp(logSum / scored);
}
