import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SOCCER_ONE_SIDED } from '../../../src/domain/model/fitted-one-sided-soccer.js';

interface ScriptMarket {
  family: string;
  pooled: number;
  books: Record<string, { m: number; n: number }>;
}
interface ScriptHeldOut {
  n: number;
  matches: number;
  method: { logLoss: number; slope: number; slopeLo: number; slopeHi: number };
  baseline: { logLoss: number };
  passed: boolean;
}

const HISTORY = new URL('../../../../shared/history', import.meta.url).pathname;

describe('the fitted one-sided soccer table is what the research script produces on the shared data', () => {
  it('matches family, parameters, held-out figures and gate per market', () => {
    const out = execFileSync('node', ['scripts/research/epl-one-sided.mjs', '--history', HISTORY, '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const result = JSON.parse(out) as { table: Record<string, ScriptMarket>; heldOut: Record<string, ScriptHeldOut>; boot: number };
    expect(result.boot).toBe(2000);
    expect(Object.keys(result.table).sort()).toEqual(Object.keys(SOCCER_ONE_SIDED).sort());
    for (const [market, fit] of Object.entries(SOCCER_ONE_SIDED)) {
      const t = result.table[market] as ScriptMarket;
      const h = result.heldOut[market] as ScriptHeldOut;
      expect({ market, family: t.family, pooled: t.pooled, books: Object.fromEntries(Object.entries(t.books).map(([b, v]) => [b, v.m])) }).toEqual({ market, family: fit.family, pooled: fit.pooled, books: fit.books });
      expect({ market, n: h.n, logLoss: h.method.logLoss, baselineLogLoss: h.baseline.logLoss, slope: h.method.slope, slopeLo: h.method.slopeLo, slopeHi: h.method.slopeHi, passed: h.passed }).toEqual({ market, ...fit.heldOut });
      // The gate is the rule stated, not a stored opinion.
      expect(fit.heldOut.passed).toBe(fit.heldOut.slopeLo <= 1 && fit.heldOut.slopeHi >= 1 && fit.heldOut.logLoss <= fit.heldOut.baselineLogLoss);
    }
    // Held out = 2025-26 only: no more matches than the results file holds for that season (read raw).
    const season2526 = readFileSync(`${HISTORY}/epl_matches_2024-25_2025-26.csv`, 'utf8').split('\n').filter((l) => l.startsWith('2025-26,')).length;
    expect(season2526).toBe(152);
    for (const h of Object.values(result.heldOut)) expect(h.matches).toBeLessThanOrEqual(season2526);
  }, 120_000);
});
