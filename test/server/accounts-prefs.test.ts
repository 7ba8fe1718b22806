import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { getPreferences, KNOWN_BOOKS } from '../../src/accounts/preferences.js';
import { createUser, revokeUser } from '../../src/accounts/users.js';
import { preferences, users } from '../../src/store/schema.js';
import { buildOpenApi } from '../../src/server/openapi.js';
import { tempStore } from '../helpers/replay-store.js';
import { eq } from 'drizzle-orm';
import { quiet, startServer, type Running } from './_harness.js';

/**
 * Preferences, GET /api/me and the onboarding signal (issue 15) on a real loopback server over a
 * temp store: partial merges, sanitizing, strict input (fuzzed: only 200 or 400, never 5xx), the
 * onboarding cutoff, and 401 on every auth route for every kind of bad token.
 */

const NOW = new Date('2026-02-01T12:00:00Z');
let temp: ReturnType<typeof tempStore>;
let api: Running;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  temp = tempStore();
  const config = loadConfig({ ONBOARDING_CUTOFF: '2026-01-01' });
  tokens.old = (await createUser(temp.store, { email: 'old@example.test', tier: 'analyst' }, new Date('2025-12-31T23:59:59.999Z'))).token;
  tokens.atCutoff = (await createUser(temp.store, { email: 'cutoff@example.test', tier: 'free' }, new Date('2026-01-01T00:00:00.000Z'))).token;
  tokens.fresh = (await createUser(temp.store, { email: 'fresh@example.test', tier: 'desk' }, NOW)).token;
  tokens.fuzz = (await createUser(temp.store, { email: 'fuzz@example.test', tier: 'free' }, NOW)).token;
  tokens.revoked = (await createUser(temp.store, { email: 'revoked@example.test', tier: 'desk' }, NOW)).token;
  await revokeUser(temp.store, 'revoked@example.test', NOW);
  api = await startServer({ store: temp.store, config, now: () => NOW, wallClock: () => NOW, log: quiet });
});
afterAll(async () => {
  await api?.close();
  temp?.cleanup();
});

async function call(path: string, token: string | null, init: { method?: string; body?: unknown; rawBody?: string } = {}) {
  const headers: Record<string, string> = {};
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  if (init.body !== undefined || init.rawBody !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${api.base}${path}`, { method: init.method ?? (init.body !== undefined || init.rawBody !== undefined ? 'POST' : 'GET'), headers, body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: (text === '' ? null : JSON.parse(text)) as Record<string, any> };
}

describe('auth routes: 401 without a valid token, before any input is read', () => {
  it('no token, a malformed header, an unknown token and a revoked token are all 401 in the envelope', async () => {
    const auth = api.server.routes.filter((r) => r.access === 'auth');
    expect(auth.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      ['GET /api/me', 'GET /api/preferences', 'GET /api/user/scan-meter', 'POST /api/founders/redeem', 'POST /api/payments/portal', 'POST /api/preferences', 'POST /api/slips/parse'].sort(),
    );
    const bad = [null, 'garbage', `pg_${'A'.repeat(43)}`, tokens.revoked!];
    for (const route of auth) {
      for (const token of bad) {
        const r = await call(route.path, token, route.method === 'POST' ? { body: { sports: ['nba'], code: 'X' } } : {});
        expect(r.status, `${route.method} ${route.path} ${token}`).toBe(401);
        expect(r.json).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.stringContaining('valid API token') } });
        expect(r.headers.get('cache-control')).toBe('no-store');
      }
    }
    // Nothing was written for the refused POSTs.
    expect(temp.store.db.select().from(preferences).all()).toEqual([]);
  });

  it('a user whose stored tier is not a known tier fails closed: 401 on auth routes, free shaping elsewhere', async () => {
    const { token } = await createUser(temp.store, { email: 'odd@example.test', tier: 'desk' }, NOW);
    temp.store.sqlite.prepare("update users set tier = 'gold' where email = 'odd@example.test'").run();
    expect((await call('/api/me', token)).status).toBe(401);
    expect((await call('/api/preferences', token, { body: { sports: ['nba'] } })).status).toBe(401);
    temp.store.sqlite.prepare("update users set tier = 'desk' where email = 'odd@example.test'").run();
    expect((await call('/api/me', token)).json['tier']).toBe('desk');
  });
});

describe('GET /api/me and the onboarding signal', () => {
  it('a user created before ONBOARDING_CUTOFF is exempt: no redirect, no header', async () => {
    const r = await call('/api/me', tokens.old!);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      email: 'old@example.test',
      tier: 'analyst',
      created_at: '2025-12-31T23:59:59.999Z',
      entitlements: { model_price: true, parlay_leg_cap: 4, scan_reads_per_day: 100, slip_parses_per_day: 10 },
      onboarding: { required: false, reason: 'exempt' },
      founder_pricing: false,
      billing: { customer_linked: false, subscription_status: null, grace_until: null },
    });
    expect(r.headers.get('x-onboarding-required')).toBeNull();
  });

  it('a user created at or after the cutoff without onboarding_complete is sent to /onboarding, by field and header on every auth route', async () => {
    for (const token of [tokens.atCutoff!, tokens.fresh!]) {
      const me = await call('/api/me', token);
      expect(me.json['onboarding']).toEqual({ required: true, redirect: '/onboarding', reason: 'new_user' });
      expect(me.headers.get('x-onboarding-required')).toBe('/onboarding');
      for (const path of ['/api/preferences', '/api/user/scan-meter']) expect((await call(path, token)).headers.get('x-onboarding-required'), path).toBe('/onboarding');
    }
    // Desk: unlimited entitlements say so with null.
    expect((await call('/api/me', tokens.fresh!)).json['entitlements']).toEqual({ model_price: true, parlay_leg_cap: 6, scan_reads_per_day: null, slip_parses_per_day: 10 });
    // A public answer never carries it (a shared cache could hand it to someone else).
    const pub = await fetch(`${api.base}/api/founders/count`, { headers: { authorization: `Bearer ${tokens.fresh}` } });
    expect(pub.headers.get('x-onboarding-required')).toBeNull();
  });

  it('setting onboarding_complete ends it; clearing it brings it back', async () => {
    const done = await call('/api/preferences', tokens.atCutoff!, { body: { onboarding_complete: true } });
    expect(done.status).toBe(200);
    expect(done.json['onboarding']).toEqual({ required: false, reason: 'complete' });
    const me = await call('/api/me', tokens.atCutoff!);
    expect(me.json['onboarding']).toEqual({ required: false, reason: 'complete' });
    expect(me.headers.get('x-onboarding-required')).toBeNull();
    await call('/api/preferences', tokens.atCutoff!, { body: { onboarding_complete: false } });
    expect((await call('/api/me', tokens.atCutoff!)).headers.get('x-onboarding-required')).toBe('/onboarding');
  });

  it('OpenAPI documents the auth routes, the 401 and the header', async () => {
    const doc = (await (await fetch(`${api.base}/openapi.json`)).json()) as { paths: Record<string, Record<string, Record<string, any>>> };
    const me = doc.paths['/api/me']!['get']!;
    expect(me['x-access']).toBe('auth');
    expect(me['responses']['401']).toBeDefined();
    expect(me['description']).toContain('x-onboarding-required: /onboarding');
    const prefs = doc.paths['/api/preferences']!['post']!;
    expect(Object.keys(prefs['requestBody']['content']['application/json']['schema']['properties'])).toEqual(['sports', 'books', 'bankroll_limit', 'onboarding_complete']);
    expect(prefs['requestBody']['content']['application/json']['schema']['additionalProperties']).toBe(false);
  });

  it('the document marks the bearer token required, the 401, and the onboarding header on per-caller routes', () => {
    const doc = buildOpenApi(api.server.routes, 'test') as { paths: Record<string, Record<string, Record<string, any>>> };
    const me = doc.paths['/api/me']!['get']!;
    expect(me['security']).toEqual([{ bearer: [] }]);
    expect(me['parameters'].map((p: { name: string }) => p.name)).not.toContain('Authorization');
    expect(me['responses']['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
    expect(me['responses']['200']['headers']['x-onboarding-required']).toBeDefined();
    // Tier-shaped routes keep their optional token but document the header too; public routes do not.
    const scan = doc.paths['/api/scan']!['post']!;
    expect(scan['security']).toEqual([{}, { bearer: [] }]);
    expect(scan['responses']['200']['headers']['x-onboarding-required']).toBeDefined();
    expect(doc.paths['/api/founders/count']!['get']!['responses']['200']['headers']['x-onboarding-required']).toBeUndefined();
  });
});

describe('preferences: partial merge, sanitized, strict', () => {
  it('a new user has chosen nothing; a POST merges only the fields sent', async () => {
    const token = tokens.old!;
    expect((await call('/api/preferences', token)).json).toEqual({ sports: [], books: [], bankroll_limit: null, onboarding_complete: false, updated_at: null, onboarding: { required: false, reason: 'exempt' } });
    const first = await call('/api/preferences', token, { body: { sports: [' NBA ', 'mlb', 'nba', 'Mlb'], books: ['FanDuel', 'draftkings ', 'fanduel'] } });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ sports: ['nba', 'mlb'], books: ['fanduel', 'draftkings'], bankroll_limit: null, onboarding_complete: false, updated_at: NOW.toISOString() });
    const second = await call('/api/preferences', token, { body: { bankroll_limit: 250.456 } });
    expect(second.json).toMatchObject({ sports: ['nba', 'mlb'], books: ['fanduel', 'draftkings'], bankroll_limit: 250.46 });
    const third = await call('/api/preferences', token, { body: { books: [] } });
    expect(third.json).toMatchObject({ sports: ['nba', 'mlb'], books: [], bankroll_limit: 250.46 });
    const cleared = await call('/api/preferences', token, { body: { bankroll_limit: null } });
    expect(cleared.json['bankroll_limit']).toBeNull();
    const empty = await call('/api/preferences', token, { body: {} });
    expect(empty.json).toMatchObject({ sports: ['nba', 'mlb'], books: [], bankroll_limit: null });
    expect((await call('/api/preferences', token)).json).toMatchObject({ sports: ['nba', 'mlb'], books: [] });
  });

  it('an unknown sport, book or field, or a wrong type, is a 400 naming it, and nothing is saved', async () => {
    const token = tokens.fresh!;
    await call('/api/preferences', token, { body: { sports: ['wnba'], books: ['bovada'], bankroll_limit: 100 } });
    const cases: Array<[unknown, RegExp]> = [
      [{ sports: ['nba', 'nfl'] }, /sports\.1: 'nfl' is not one of mlb, nba, wnba, soccer, mma/],
      [{ books: ['pinnacle'] }, /books\.0: 'pinnacle' is not one of betmgm/],
      [{ bankroll: 100 }, /unknown field 'bankroll' \(known: sports, books, bankroll_limit, onboarding_complete\)/],
      [{ bankroll_limit: 0 }, /bankroll_limit: expected at least 0.01, got 0/],
      [{ bankroll_limit: -5 }, /bankroll_limit/],
      [{ bankroll_limit: 1_000_001 }, /bankroll_limit: expected at most 1000000/],
      [{ bankroll_limit: '100' }, /bankroll_limit: expected a number, got '100'/],
      [{ sports: 'nba' }, /sports: expected a list, got 'nba'/],
      [{ onboarding_complete: 'yes' }, /onboarding_complete: expected true or false/],
      [{ sports: Array.from({ length: 51 }, () => 'nba') }, /sports: at most 50 sports/],
      [{ books: ['x'.repeat(41)] }, /books\.0: expected at most 40 characters, got 41/],
      [['nba'], /expected an object, got a list/],
      [null, /expected an object/],
    ];
    for (const [body, message] of cases) {
      const r = await call('/api/preferences', token, { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json['error']['code']).toBe('BAD_INPUT');
      expect(r.json['error']['message']).toMatch(message);
    }
    const bad = await call('/api/preferences', token, { rawBody: '{"sports": ["nba"' });
    expect(bad.status).toBe(400);
    expect(bad.json['error']['message']).toBe('invalid body: not valid JSON');
    expect((await call('/api/preferences', token)).json).toMatchObject({ sports: ['wnba'], books: ['bovada'], bankroll_limit: 100 });
  });

  it('every known book key is accepted', async () => {
    const r = await call('/api/preferences', tokens.fresh!, { body: { books: [...KNOWN_BOOKS] } });
    expect(r.status).toBe(200);
    expect(r.json['books']).toEqual([...KNOWN_BOOKS]);
  });

  it('a body over the 1 MB cap is a 413 (a huge array never reaches the parser)', async () => {
    const huge = JSON.stringify({ books: Array.from({ length: 200_000 }, () => 'fanduel') });
    const r = await call('/api/preferences', tokens.fresh!, { rawBody: huge });
    expect(r.status).toBe(413);
    expect(r.json['error']['code']).toBe('TOO_LARGE');
  });

  it('fuzz: wrong types, huge arrays, extra keys: only 200 or 400, never 5xx; a 400 saves nothing', async () => {
    const userId = temp.store.db.select({ id: users.id }).from(users).where(eq(users.email, 'fuzz@example.test')).get()!.id;
    const anyJson = fc.jsonValue({ maxDepth: 2 });
    const item = fc.oneof(fc.constantFrom('nba', 'MLB ', 'mma', 'fanduel', ' DraftKings', 'bovada', 'nfl', ''), fc.string({ maxLength: 50 }), anyJson);
    const field = (valid: fc.Arbitrary<unknown>) => fc.oneof(valid, anyJson, fc.array(item, { maxLength: 120 }));
    const body = fc.oneof(
      fc.record(
        {
          sports: field(fc.array(fc.constantFrom('nba', 'mlb', 'wnba', 'soccer', 'mma'), { maxLength: 8 })),
          books: field(fc.array(fc.constantFrom(...KNOWN_BOOKS), { maxLength: 8 })),
          bankroll_limit: field(fc.oneof(fc.double({ noNaN: true }), fc.constant(null))),
          onboarding_complete: field(fc.boolean()),
        },
        { requiredKeys: [] },
      ),
      fc.dictionary(fc.string({ maxLength: 12 }), anyJson, { maxKeys: 4 }),
      anyJson,
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const before = await getPreferences(temp.store, userId);
        const r = await call('/api/preferences', tokens.fuzz!, { body: b });
        expect([200, 400], JSON.stringify(b)).toContain(r.status);
        if (r.status === 400) {
          expect(r.json['error']['code']).toBe('BAD_INPUT');
          expect(await getPreferences(temp.store, userId)).toEqual(before);
        } else {
          const after = await getPreferences(temp.store, userId);
          expect(after.sports.every((s) => ['mlb', 'nba', 'wnba', 'soccer', 'mma'].includes(s))).toBe(true);
          expect(new Set(after.books).size).toBe(after.books.length);
          if (after.bankrollLimit !== null) expect(after.bankrollLimit).toBeGreaterThan(0);
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});
