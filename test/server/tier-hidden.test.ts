import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/accounts/users.js';
import { loadConfig } from '../../src/config.js';
import { americanToDecimal, fairAmerican, impliedProbability } from '../../src/domain/odds.js';
import { openStore, type SqliteStore } from '../../src/store/db.js';
import { replayLoopFiles } from '../helpers/replay-store.js';
import { quiet, startServer, type Running } from './_harness.js';

/**
 * Issue 41 item 4: what a paid tier buys cannot be had from a free answer. For each tier-shaped
 * route over the replayed README loop store, the paid answer's hidden values (the projection's
 * probability, price and EV of each row, the parlay's payout at the projection's prices) are
 * looked for in the free answer to the same request: under any key of the same row, and through
 * the formulas docs/api.md and docs/parlay.md give a caller (a probability from an American price,
 * a price from a probability, the EV of the row's price at any probability the row carries).
 * A match on a single row can be chance: a whole-number projection price lands within 0.5 of one
 * of the row's dozen prices or their fair conversions on about 3% of the bundled slate's rows
 * (118 of 4,162 when this was written). "Derivable" is a formula that matches across the answer,
 * so each route's matched rows are held to 5% (at least one row allowed on a small answer).
 * The same check run on the market's p_win against locked_fair_prob (issue 41: 4,162 of 4,162)
 * must find it derivable, so the check is shown to catch what it looks for.
 */

const NOW = new Date('2025-11-05T17:10:00Z');
type Json = Record<string, unknown>;

/** Every number under an object, whatever its key or depth. */
function numbers(v: unknown, out: number[] = []): number[] {
  if (typeof v === 'number') out.push(v);
  else if (Array.isArray(v)) for (const x of v) numbers(x, out);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) numbers(x, out);
  return out;
}

/** Pairs (paid object, free object at the same path) for every paid object holding `key`. */
function pairsWith(paid: unknown, free: unknown, key: string, out: Array<[Json, Json]> = []): Array<[Json, Json]> {
  if (Array.isArray(paid) && Array.isArray(free)) paid.forEach((p, i) => pairsWith(p, free[i], key, out));
  else if (paid !== null && typeof paid === 'object' && free !== null && typeof free === 'object') {
    if (key in paid) out.push([paid as Json, free as Json]);
    for (const [k, v] of Object.entries(paid)) if (k in free) pairsWith(v, (free as Json)[k], key, out);
  }
  return out;
}

/** What a free caller computes from one row: probabilities, prices, and EVs at the row's prices. */
function derivable(row: Json): { probs: number[]; odds: number[]; evs: number[] } {
  const all = numbers(row);
  const probs = all.filter((x) => x > 0 && x < 1);
  const prices = all.filter((x) => Math.abs(x) >= 100);
  for (const a of prices) {
    const p = impliedProbability(a);
    if (p !== null) probs.push(p);
  }
  const odds = [...prices, ...probs.map((p) => fairAmerican(p)).filter((x): x is number => x !== null)];
  const decimals = prices.map((a) => americanToDecimal(a)).filter((d): d is number => d !== null);
  const evs = [...all, ...probs.flatMap((p) => decimals.map((d) => 100 * (p * d - 1)))];
  return { probs: [...all, ...probs], odds: [...all, ...odds], evs };
}

const near = (xs: number[], y: number, tol: number) => xs.some((x) => Math.abs(x - y) <= tol);

/** Rows of the free answer from which a hidden value of the paid row can be read or computed. */
function leaks(paid: unknown, free: unknown, fields: { prob: string; odds: string; ev: string }): { rows: number; matched: number; examples: string[] } {
  const pairs = pairsWith(paid, free, fields.prob).filter(([p]) => typeof p[fields.prob] === 'number');
  const examples: string[] = [];
  let matched = 0;
  for (const [p, f] of pairs) {
    const d = derivable(f);
    const hits: string[] = [];
    // Wire precision: probabilities 4 places, odds whole, EV 1 place (src/wire.ts).
    if (near(d.probs, p[fields.prob] as number, 0.00006)) hits.push(`${fields.prob} ${String(p[fields.prob])}`);
    if (typeof p[fields.odds] === 'number' && near(d.odds, p[fields.odds] as number, 0.51)) hits.push(`${fields.odds} ${String(p[fields.odds])}`);
    if (typeof p[fields.ev] === 'number' && near(d.evs, p[fields.ev] as number, 0.051)) hits.push(`${fields.ev} ${String(p[fields.ev])}`);
    if (hits.length > 0) {
      matched += 1;
      if (examples.length < 3) examples.push(`${String(f['player'])}: ${hits.join(', ')}`);
    }
  }
  return { rows: pairs.length, matched, examples };
}

const PROJECTION = { prob: 'projection_prob', odds: 'projection_odds', ev: 'projection_ev_pct' };

describe('no free answer holds what the paid tiers buy (issue 41 item 4)', () => {
  let dir: string;
  let store: SqliteStore;
  let api: Running;
  let desk: string;
  let free: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-hidden-'));
    store = openStore((await replayLoopFiles(dir)).settled);
    desk = (await createUser(store, { email: 'desk@hidden.test', tier: 'desk' }, NOW)).token;
    free = (await createUser(store, { email: 'free@hidden.test', tier: 'free' }, NOW)).token;
    const config = loadConfig({ INTERNAL_API_KEY: 'k'.repeat(32), PROPGRADE_REPLAY: 'data/replay' });
    api = await startServer({ store, config, now: () => NOW, log: quiet });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function both(path: string, body?: unknown): Promise<{ paid: Json; free: Json; anon: Json }> {
    const ask = async (token: string | null) => {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
      const res = await fetch(`${api.base}${path}`, { method: body ? 'POST' : 'GET', headers, ...(body ? { body: JSON.stringify(body) } : {}) });
      expect(res.status, `${path}: ${res.status}`).toBe(200);
      return (await res.json()) as Json;
    };
    return { paid: await ask(desk), free: await ask(free), anon: await ask(null) };
  }

  const SCANS = [
    { player: 'Jalen Brunson', stat: 'points', line: 27.5, direction: 'over' },
    { player: 'Karl-Anthony Towns', stat: 'rebounds', line: 11.5, direction: 'over' },
    { player: 'Shai Gilgeous-Alexander', stat: 'points', line: 31.5, direction: 'over' },
  ];
  const routes: Array<{ name: string; path: string; body?: unknown; minRows: number }> = [
    { name: 'snapshot', path: '/api/snapshot/nba', minRows: 3000 },
    { name: 'hero', path: '/api/hero-prop', minRows: 1 },
    { name: 'team', path: '/api/team/NY', minRows: 10 },
    { name: 'stats player', path: '/api/stats/player/Jalen%20Brunson', minRows: 10 },
    ...SCANS.map((body) => ({ name: `scan ${body.player}`, path: '/api/scan', body, minRows: 1 })),
    {
      name: 'parlay',
      path: '/api/parlay/grade',
      body: { legs: [{ player: 'Jalen Brunson', stat: 'points', line: 27.5, side: 'over' }, { player: 'Karl-Anthony Towns', stat: 'rebounds', line: 11.5, side: 'over' }] },
      minRows: 2,
    },
  ];

  for (const r of routes) {
    it(`${r.name}: the projection's view is in the paid answer and cannot be had from the free one`, async () => {
      const { paid, free: freeBody, anon } = await both(r.path, r.body);
      for (const [who, body] of [['free token', freeBody], ['no token', anon]] as const) {
        const found = leaks(paid, body, PROJECTION);
        expect(found.rows, `${r.name}: paid rows with a projection probability`).toBeGreaterThanOrEqual(r.minRows);
        // Chance level, not a formula: 5% of rows, one row on a small answer.
        expect(found.matched, `${r.name} (${who}): ${found.matched} of ${found.rows} rows: ${found.examples.join('; ')}`).toBeLessThanOrEqual(Math.max(1, Math.floor(found.rows * 0.05)));
        expect(JSON.stringify(body)).not.toMatch(/"projection_(prob|odds|ev_pct|record|payout)"/);
      }
    }, 60_000);
  }

  it("parlay: the payout at the projection's prices is not in the free answer, nor the market's payout", async () => {
    const body = routes.at(-1)!.body;
    const { paid, free: freeBody } = await both('/api/parlay/grade', body);
    const hidden = paid['projection_payout'] as { decimal: number; american: number | null };
    expect(typeof hidden.decimal).toBe('number');
    expect(hidden.decimal).not.toBe((paid['payout'] as { decimal: number }).decimal);
    const free = numbers(freeBody);
    expect(near(free, hidden.decimal, 0.0000051)).toBe(false);
    if (hidden.american !== null) expect(near(free, hidden.american, 0.51)).toBe(false);
    // The one a free caller could compute (fair odds x haircut) is the market's, and it is free.
    expect(freeBody['payout']).toEqual(paid['payout']);
  });

  it("the check catches a derivable field: the market's p_win from locked_fair_prob (issue 41's 4,162 of 4,162)", async () => {
    const { paid } = await both('/api/snapshot/nba');
    // The free answer with p_win, model_odds and ev_pct taken out: what the old free tier received.
    const stripped = JSON.parse(JSON.stringify(paid, (k, v: unknown) => (['p_win', 'model_odds', 'ev_pct', 'value', 'ev_now_pct', 'projection_prob', 'projection_odds', 'projection_ev_pct'].includes(k) ? undefined : v))) as Json;
    const found = leaks(paid, stripped, { prob: 'p_win', odds: 'model_odds', ev: 'ev_pct' });
    expect(found.rows).toBe(4162);
    expect(found.matched / found.rows).toBeGreaterThan(0.99);
  }, 60_000);
});
