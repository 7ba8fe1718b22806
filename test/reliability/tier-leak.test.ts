import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { MODEL_FIELDS } from '../../src/domain/tiers.js';
import { wireKey } from '../../src/wire.js';
import { createUser, revokeUser } from '../../src/accounts/users.js';
import { openStore, type SqliteStore } from '../../src/store/db.js';
import { replayLoopFiles } from '../helpers/replay-store.js';
import { quiet, startServer, type Running } from '../server/_harness.js';

/**
 * Tier leak (issue 19, suite 1): every route in the OpenAPI document × every token state. A
 * free-shaped answer (no token, a malformed header, an unknown or revoked token, the free tier, a
 * store error while resolving the tier) must carry no model field, and a tier-shaped GET answered to
 * a request that carried a token must be private and vary by Authorization. Generated from the
 * document, so a new route is covered without editing this file.
 */

type State = 'none' | 'malformed' | 'unknown' | 'revoked' | 'free' | 'analyst' | 'desk' | 'store_error';
const FREE_SHAPED: readonly State[] = ['none', 'malformed', 'unknown', 'revoked', 'free', 'store_error'];
const NOW = new Date('2025-11-05T17:10:00Z');

/** A body for the routes we know, `{}` for any other (a 400 is still an answer to check). */
const BODIES: Record<string, unknown> = {
  '/api/scan': { player: 'Shai Gilgeous-Alexander', stat: 'points', line: 31.5, direction: 'over' },
  '/api/analyze': { player: 'Shai Gilgeous-Alexander', stat: 'points', line: 31.5, direction: 'over' },
  '/api/parlay/grade': {
    legs: [
      { player: 'Shai Gilgeous-Alexander', stat: 'points', line: 31.5, side: 'over' },
      { player: 'Chet Holmgren', stat: 'rebounds', line: 8.5, side: 'over' },
    ],
  },
  '/api/slips/parse': { text: 'Shai Gilgeous-Alexander over 31.5 points' },
};
const PARAMS: Record<string, string> = { sport: 'nba', abbr: 'OKC', date: '2025-11-05', id: '1', name: 'Shai Gilgeous-Alexander' };

/** Model fields in a body, except a slip field's own `value` ({value, raw, confidence}). */
function leaks(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaks(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const obj = value as Record<string, unknown>;
  const slipField = 'confidence' in obj && 'raw' in obj;
  const out: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (MODEL_FIELDS.map(wireKey).includes(k) && !(k === 'value' && slipField)) out.push(`${path}.${k}`);
    out.push(...leaks(v, `${path}.${k}`));
  }
  return out;
}

describe('tier leak: every OpenAPI route × every token state', () => {
  let dir: string;
  let store: SqliteStore;
  let broken: SqliteStore;
  let api: Running;
  let brokenApi: Running;
  const tokens: Partial<Record<State, string>> = {};

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-leak-'));
    const { settled } = await replayLoopFiles(dir);
    store = openStore(settled);
    for (const tier of ['free', 'analyst', 'desk'] as const) tokens[tier] = (await createUser(store, { email: `${tier}@leak.test`, tier }, NOW)).token;
    tokens.revoked = (await createUser(store, { email: 'revoked@leak.test', tier: 'desk' }, NOW)).token;
    await revokeUser(store, 'revoked@leak.test', NOW);
    tokens.unknown = `pg_${'0'.repeat(40)}`;
    // A store whose token table cannot be read: resolving any token fails.
    const brokenPath = join(dir, 'broken.sqlite');
    copyFileSync(settled, brokenPath);
    broken = openStore(brokenPath);
    tokens.store_error = (await createUser(broken, { email: 'desk@broken.test', tier: 'desk' }, NOW)).token;
    broken.sqlite.exec('ALTER TABLE api_tokens RENAME TO api_tokens_gone');
    // The store was replayed (snapshot-run directly, so it does not remember its folder): as `serve --replay data/replay`,
    // the context routes answer from the recording; without it they answer 503 UNAVAILABLE_ON_REPLAY (issue 33).
    const config = loadConfig({ INTERNAL_API_KEY: 'k'.repeat(32), PROPGRADE_REPLAY: 'data/replay' });
    api = await startServer({ store, config, now: () => NOW, log: quiet });
    brokenApi = await startServer({ store: broken, config, now: () => NOW, log: quiet });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await brokenApi?.close();
    await store?.close();
    await broken?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('0 model fields in any free-shaped body; private + Vary on tier-shaped answers to a token', async () => {
    const doc = (await (await fetch(`${api.base}/openapi.json`)).json()) as { paths: Record<string, Record<string, { 'x-access': string }>> };
    // `npm run test:reliability` (RELIABILITY_FULL=1) walks every state; `npm test` a fast subset.
    const states: State[] = process.env.RELIABILITY_FULL
      ? ['none', 'malformed', 'unknown', 'revoked', 'free', 'analyst', 'desk', 'store_error']
      : ['none', 'revoked', 'desk', 'store_error'];
    const found: string[] = [];
    const slowest: Array<[number, string]> = [];
    let calls = 0;
    let routes = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        routes += 1;
        const url = path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(PARAMS[k] ?? 'x')) + (path === '/api/players/search' ? '?q=gilgeous' : '');
        for (const state of states) {
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (state === 'malformed') headers['authorization'] = 'Bearer';
          else if (state !== 'none') headers['authorization'] = `Bearer ${tokens[state]}`;
          const base = state === 'store_error' ? brokenApi.base : api.base;
          const started = performance.now();
          const res = await fetch(`${base}${url}`, { method: method.toUpperCase(), headers, ...(method === 'post' ? { body: JSON.stringify(BODIES[path] ?? {}) } : {}) });
          calls += 1;
          const text = await res.text();
          slowest.push([performance.now() - started, `${method} ${path} [${state}]`]);
          // 503 NOT_CONFIGURED is the documented answer of a platform route with no platform configured.
          if (res.status >= 500 && !(res.status === 503 && text.includes('NOT_CONFIGURED'))) found.push(`${method} ${path} [${state}]: ${res.status}`);
          const shaped = op['x-access'] === 'tier-shaped' || op['x-access'] === 'tier-gated';
          // /openapi.json names the model fields in the wire schemas it describes: a description, not a leak.
          if (FREE_SHAPED.includes(state) && path !== '/openapi.json' && (res.headers.get('content-type') ?? '').includes('json')) {
            for (const leak of leaks(JSON.parse(text))) found.push(`${method} ${path} [${state}]: ${leak}`);
          }
          if (shaped && method === 'get' && res.status === 200) {
            const cc = res.headers.get('cache-control') ?? '';
            const vary = (res.headers.get('vary') ?? '').toLowerCase();
            if (!vary.includes('authorization')) found.push(`${method} ${path} [${state}]: no Vary: Authorization`);
            if (state !== 'none' && !/private|no-store/.test(cc)) found.push(`${method} ${path} [${state}]: Cache-Control '${cc}' for a request with a token`);
          }
        }
      }
    }
    console.log(`tier leak: ${routes} routes × ${states.length} token states = ${calls} calls, ${found.length} problems`);
    console.log(`slowest: ${slowest.sort((a, b) => b[0] - a[0]).slice(0, 5).map(([ms, what]) => `${what} ${Math.round(ms)} ms`).join('; ')}`);
    expect(found).toEqual([]);
    expect(routes).toBeGreaterThanOrEqual(15);
  }, 300_000);
});
