import { request as httpRequest } from 'node:http';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_FIELDS } from '../../src/domain/tiers.js';
import { wireKey } from '../../src/wire.js';
import { createUser, revokeUser } from '../../src/accounts/users.js';
import { createSnapshotRunner } from '../../src/server/snapshot-runner.js';
import type { SnapshotRunner } from '../../src/server/context.js';
import { gradedRows, kvCache, ledgerEntries, playerGameStats, usageEvents } from '../../src/store/schema.js';
import { kvSet } from '../../src/store/repo/kv.js';
import { latestSnapshot } from '../../src/store/repo/snapshots.js';
import { findKeys, quiet, seedStore, startServer, type Running, type Seeded } from './_harness.js';

const INTERNAL_KEY = 'test-internal-key-0123456789';
const ORIGIN = 'https://proxy.example.test';
/** The model fields as the wire names them. */
const MODEL = MODEL_FIELDS.map(wireKey);

let seeded: Seeded;
let api: Running;
let runnerCalls: string[][] = [];
const tokens: Record<'free' | 'analyst' | 'desk' | 'revoked', string> = { free: '', analyst: '', desk: '', revoked: '' };

type CallerName = 'none' | 'free' | 'analyst' | 'desk' | 'revoked' | 'garbage';
const FREE_SHAPED: CallerName[] = ['none', 'free', 'revoked', 'garbage'];
const PAID: CallerName[] = ['analyst', 'desk'];
const ALL: CallerName[] = [...FREE_SHAPED, ...PAID];

function authHeader(who: CallerName): Record<string, string> {
  if (who === 'none') return {};
  if (who === 'garbage') return { authorization: 'Bearer pg_not-a-real-token' };
  return { authorization: `Bearer ${tokens[who]}` };
}

async function call(path: string, who: CallerName = 'none', init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(api.base + path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...authHeader(who), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    ...(init.body === undefined ? {} : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
  });
  const text = await res.text();
  const json = text === '' ? null : (JSON.parse(text) as Record<string, unknown>);
  return { status: res.status, headers: res.headers, json, text };
}

/** A graded row and a refused row straight from the store, to scan and grade. */
function storeRow(graded: boolean) {
  return seeded.store.db
    .select()
    .from(gradedRows)
    .where(graded ? and(eq(gradedRows.grade, 'A'), isNotNull(gradedRows.fairOdds)) : isNull(gradedRows.grade))
    .orderBy(gradedRows.id)
    .limit(1)
    .get()!;
}

beforeAll(async () => {
  seeded = await seedStore({ INTERNAL_API_KEY: INTERNAL_KEY, CORS_ORIGIN: ORIGIN, PROPGRADE_REPLAY: 'data/replay' });
  const at = seeded.now;
  tokens.free = (await createUser(seeded.store, { email: 'free@example.test', tier: 'free' }, at)).token;
  tokens.analyst = (await createUser(seeded.store, { email: 'analyst@example.test', tier: 'analyst' }, at)).token;
  tokens.desk = (await createUser(seeded.store, { email: 'desk@example.test', tier: 'desk' }, at)).token;
  tokens.revoked = (await createUser(seeded.store, { email: 'revoked@example.test', tier: 'desk' }, at)).token;
  await revokeUser(seeded.store, 'revoked@example.test', at);
  const real = createSnapshotRunner(seeded.store, seeded.config, () => seeded.now, quiet);
  const runSnapshot: SnapshotRunner = async (sports) => {
    runnerCalls.push([...sports]);
    return real(sports);
  };
  api = await startServer({
    store: seeded.store,
    config: seeded.config,
    now: () => seeded.now,
    runSnapshot,
    // The per-caller read limits are exercised on their own server below.
    limits: { statsPerWindow: 100_000, scanReadsPerDay: { free: 1000, analyst: 1000, desk: null } },
  });
}, 120_000);

afterAll(async () => {
  await api?.close();
  seeded?.cleanup();
});

describe('tier shaping on every route that carries rows', () => {
  const graded = () => storeRow(true);
  // `paidModel: false`: the route's rows carry no projection view for anyone (a ledger entry stores
  // the market's claim and its settlement, not the projection's probability; docs/api.md).
  const routes: Array<{ name: string; path: () => string; body?: () => unknown; maxAge?: number; paidModel?: false }> = [
    { name: 'snapshot', path: () => '/api/snapshot/nba', maxAge: 60 },
    { name: 'hero', path: () => '/api/hero-prop', maxAge: 60 },
    { name: 'ledger', path: () => '/api/ledger/model?team=IND&sport=nba&limit=50', maxAge: 300, paidModel: false },
    { name: 'team', path: () => '/api/team/IND', maxAge: 300 },
    { name: 'scan', path: () => '/api/scan', body: () => ({ player: graded().player, stat: graded().statType, line: graded().line, direction: graded().side }) },
    {
      name: 'parlay',
      path: () => '/api/parlay/grade',
      body: () => ({
        legs: [
          { player: 'Pascal Siakam', stat: 'points', line: 26.5, side: 'under' },
          { player: 'Ben Sheppard', stat: 'points', line: 7.5, side: 'under' },
        ],
      }),
    },
  ];

  for (const route of routes) {
    it(`${route.name}: free-shaped callers never see a model field; paid callers do`, async () => {
      for (const who of ALL) {
        const r = await call(route.path(), who, route.body ? { body: route.body() } : {});
        expect(r.status, `${route.name} as ${who}: ${r.text.slice(0, 200)}`).toBe(200);
        expect(r.headers.get('vary')).toContain('Authorization');
        if (route.maxAge !== undefined) {
          const scope = who === 'none' ? 'public' : 'private';
          expect(r.headers.get('cache-control'), `${route.name} as ${who}`).toBe(`${scope}, max-age=${route.maxAge}`);
        } else {
          expect(r.headers.get('cache-control')).toBe('no-store');
        }
        const locks = findKeys(r.json, ['model_price_locked']);
        expect(locks.length, `${route.name} as ${who} carries shaped rows`).toBeGreaterThan(0);
        const model = findKeys(r.json, MODEL);
        if (FREE_SHAPED.includes(who)) {
          expect(model, `${route.name} as ${who}`).toEqual([]);
          expect(JSON.stringify(r.json)).not.toContain('"model_price_locked":false');
        } else if (route.paidModel === false) {
          expect(model, `${route.name} as ${who}`).toEqual([]);
          expect(JSON.stringify(r.json)).not.toContain('"model_price_locked":true');
        } else {
          expect(model.length, `${route.name} as ${who}`).toBeGreaterThan(0);
          expect(JSON.stringify(r.json)).not.toContain('"model_price_locked":true');
        }
      }
    });
  }

  it('book and fair prices are never gated', async () => {
    const free = await call('/api/hero-prop', 'free');
    const prop = (free.json as { prop: Record<string, unknown> }).prop;
    for (const f of ['book_odds', 'fair_odds', 'fair_prob', 'overround', 'devig_method', 'projection', 'grade']) expect(prop[f], f).not.toBeNull();
    expect(prop['model_price_locked']).toBe(true);
  });
});

describe('GET /api/snapshot/{sport}', () => {
  it('serves every stored row of the latest snapshot, with the stored prices', async () => {
    const r = await call('/api/snapshot/nba', 'analyst');
    const body = r.json as { snapshot: { id: number; rows: number; graded: number }; games: Array<{ rows: Array<Record<string, unknown>> }> };
    const rows = body.games.flatMap((g) => g.rows);
    const stored = seeded.store.db.select().from(gradedRows).all();
    expect(rows.length).toBe(stored.length);
    expect(body.snapshot.rows).toBe(stored.length);
    expect(body.snapshot.graded).toBe(stored.filter((s) => s.grade !== null).length);
    const siakam = stored.find((s) => s.player === 'Pascal Siakam' && s.statType === 'points' && s.line === 26.5 && s.side === 'under')!;
    const served = rows.find((x) => x['player'] === 'Pascal Siakam' && x['stat_type'] === 'points' && x['line'] === 26.5 && x['side'] === 'under')!;
    expect(served['grade']).toBe(siakam.grade);
    // Stored at full precision; served in the wire style (odds whole, probabilities to 4 places).
    expect(served['book_odds']).toBe(siakam.bookOdds);
    expect(served['fair_odds']).toBe(Math.round(siakam.fairOdds!));
    expect(served['p_win']).toBe(siakam.pWin === null ? null : Math.round(siakam.pWin * 1e4) / 1e4);
    expect(served['model_odds']).toBe(siakam.modelOdds === null ? null : Math.round(siakam.modelOdds));
  });

  it('has a strong ETag per tier, answers 304 on If-None-Match, and serializes once per snapshot and tier', async () => {
    const before = api.server.snapshotCache.serializations();
    const free = await call('/api/snapshot/nba');
    const paid = await call('/api/snapshot/nba', 'desk');
    const etag = free.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(paid.headers.get('etag')).not.toBe(etag);
    for (let i = 0; i < 5; i++) expect((await call('/api/snapshot/nba', 'garbage')).headers.get('etag')).toBe(etag);
    const again = await call('/api/snapshot/nba', 'none', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('public, max-age=60');
    const weak = await call('/api/snapshot/nba', 'none', { headers: { 'if-none-match': `W/${etag}` } });
    expect(weak.status).toBe(304);
    const stale = await call('/api/snapshot/nba', 'none', { headers: { 'if-none-match': '"something-else"' } });
    expect(stale.status).toBe(200);
    // Earlier tests already serialized every tier for this snapshot: nothing new was built.
    expect(api.server.snapshotCache.serializations()).toBe(before);
    expect(before).toBeLessThanOrEqual(3);
  });

  it('a sport with no stored snapshot is available:false; mma and unknown sports are 400', async () => {
    expect((await call('/api/snapshot/wnba')).json).toEqual({ sport: 'wnba', available: false, tier: 'free' });
    for (const sport of ['mma', 'cricket']) {
      const r = await call(`/api/snapshot/${sport}`);
      expect(r.status).toBe(400);
      const err = (r.json as { error: { code: string; message: string } }).error;
      expect(err.code).toBe('BAD_INPUT');
      expect(err.message).toContain('sport');
    }
  });
});

describe('GET /api/snapshot/summary, /api/ticker', () => {
  it('reports the real graded count, the last run time and the sync status', async () => {
    const r = await call('/api/snapshot/summary');
    const body = r.json as Record<string, unknown>;
    const graded = seeded.store.db.select({ n: sql<number>`count(*)` }).from(gradedRows).where(isNotNull(gradedRows.grade)).get()!.n;
    expect(body['graded']).toBe(graded);
    expect(body['ran']).toBe(true);
    expect(body['last_run_at']).toBe(seeded.now.toISOString());
    expect(body['sync_status']).toBe('normal');
    expect(body['expected_interval_minutes']).toBe(180);
    expect(r.headers.get('cache-control')).toBe('public, max-age=30');
  });

  it('turns amber at 1.5x and stale at 3x SNAPSHOT_EXPECTED_INTERVAL', async () => {
    const at = (minutes: number) => new Date(seeded.now.getTime() + minutes * 60_000);
    const cases: Array<[number, string]> = [
      [269, 'normal'],
      [270, 'amber'],
      [539, 'amber'],
      [540, 'stale'],
    ];
    for (const [minutes, status] of cases) {
      const other = await startServer({ store: seeded.store, config: seeded.config, now: () => at(minutes) });
      const body = (await (await fetch(`${other.base}/api/snapshot/summary`)).json()) as Record<string, unknown>;
      await other.close();
      expect(body['sync_status'], `${minutes} min`).toBe(status);
    }
  });

  it('the ticker hides with fewer than 4 real items and shows manual pins once there are 4', async () => {
    const r = await call('/api/ticker');
    expect(r.json).toEqual({ visible: false, count: 0, items: [] });
    const pinned = await startServer({ store: seeded.store, config: { ...seeded.config, TICKER_MANUAL: ['one', 'two', 'three', 'four'] }, now: () => seeded.now });
    const body = (await (await fetch(`${pinned.base}/api/ticker`)).json()) as { visible: boolean; items: Array<{ text: string; kind: string }> };
    await pinned.close();
    expect(body.visible).toBe(true);
    expect(body.items.map((i) => i.text)).toEqual(['one', 'two', 'three', 'four']);
    expect(body.items.every((i) => i.kind === 'PIN')).toBe(true);
  });
});

describe('GET /api/hero-prop', () => {
  it('is the A or B main-line prop with the largest |projection - line| on today’s slate', async () => {
    // Alternate (ladder) lines are excluded: a rung far from the projection is not a hero.
    // Nor does a projection on the other side of the line (from the stored projection, line and side), or an edge gone now.
    const supports = (r: { projection: number | null; line: number; side: string }) => r.projection !== null && (r.side === 'over' ? r.projection >= r.line : r.projection <= r.line);
    const rows = seeded.store.db.select().from(gradedRows).all().filter((r) => (r.grade === 'A' || r.grade === 'B') && supports(r) && r.edgeNow !== 'gone' && r.isMainLine === true);
    const best = Math.max(...rows.map((r) => Math.abs(r.projection! - r.line)));
    const body = (await call('/api/hero-prop', 'desk')).json as { available: boolean; latest: boolean; gap: number; prop: Record<string, unknown> };
    expect(body.available).toBe(true);
    expect(body.latest).toBe(false);
    expect(body.gap).toBeCloseTo(best, 6);
    expect(['A', 'B']).toContain(body.prop['grade']);
    expect(Math.abs((body.prop['projection'] as number) - (body.prop['line'] as number))).toBeCloseTo(best, 2);
    expect(body.prop['main_line']).toBe(true);
  });

  it('with no slate today it serves the most recent real graded read flagged latest', async () => {
    const nextDay = await startServer({ store: seeded.store, config: seeded.config, now: () => new Date('2025-11-06T18:00:00Z') });
    const body = (await (await fetch(`${nextDay.base}/api/hero-prop`)).json()) as { available: boolean; latest: boolean; prop: Record<string, unknown> };
    await nextDay.close();
    expect(body.available).toBe(true);
    expect(body.latest).toBe(true);
    expect(['A', 'B']).toContain(body.prop['grade']);
    expect(body.prop['model_price_locked']).toBe(true);
  });
});

describe('record routes', () => {
  it('/api/accuracy and /api/ledger/accuracy give the same learning-state tiers', async () => {
    const a = await call('/api/accuracy');
    const b = await call('/api/ledger/accuracy');
    expect(a.json).toEqual(b.json);
    const tiers = (a.json as { tiers: Array<{ grade: string; state: string; pct: number | null }> }).tiers;
    expect(tiers.map((t) => t.grade)).toEqual(['A+', 'A', 'B', 'C']);
    // Nothing is settled in the replay store: every tier is learning, with no percentage.
    expect(tiers.every((t) => t.state === 'learning' && t.pct === null)).toBe(true);
  });

  it('/api/ledger/model filters by team, player and date over the public record', async () => {
    // IND is the Pacers and the Fever: without a sport the answer is a 400 naming both.
    const shared = await call('/api/ledger/model?team=ind&limit=500');
    expect(shared.status).toBe(400);
    expect(JSON.stringify(shared.json)).toContain('team IND is the Indiana Pacers (nba) and the Indiana Fever (wnba): add sport=nba or sport=wnba');
    const team = (await call('/api/ledger/model?team=ind&sport=nba&limit=500')).json as { entries: Array<Record<string, unknown>>; aggregate: { counts: { entries: number } } };
    const stored = seeded.store.db.select().from(ledgerEntries).where(and(isNull(ledgerEntries.userId), eq(ledgerEntries.team, 'IND'))).all();
    expect(stored.length).toBeGreaterThan(0);
    expect(team.entries.length).toBe(stored.length);
    expect(team.aggregate.counts.entries).toBe(stored.length);
    expect(team.entries.every((e) => e['team'] === 'IND')).toBe(true);

    const player = (await call('/api/ledger/model?player=pascal%20siakam')).json as { entries: Array<Record<string, unknown>> };
    expect(player.entries.length).toBeGreaterThan(0);
    expect(player.entries.every((e) => e['player'] === 'Pascal Siakam')).toBe(true);

    const other = (await call('/api/ledger/model?date=2025-10-01')).json as { entries: unknown[]; aggregate: { window: unknown } };
    expect(other.entries).toEqual([]);
    expect(other.aggregate.window).toEqual({ from: '2025-10-01', to: '2025-10-01' });
  });

  it('bad filters are a 400 naming the field', async () => {
    for (const [q, field] of [
      ['date=yesterday', 'date'],
      ['limit=abc', 'limit'],
      ['limit=100000', 'limit'],
    ] as const) {
      const r = await call(`/api/ledger/model?${q}`);
      expect(r.status).toBe(400);
      expect((r.json as { error: { message: string } }).error.message).toContain(field);
    }
  });
});

describe('schedule routes read only what the snapshot stored', () => {
  it('lineups and injuries are hidden when the snapshot stored none', async () => {
    const withStatus = seeded.store.db.select({ n: sql<number>`count(*)` }).from(gradedRows).where(isNotNull(gradedRows.lineupStatus)).get()!.n;
    expect(withStatus).toBe(0);
    expect((await call('/api/schedule/nba/lineups')).json).toEqual({ sport: 'nba', available: false, reason: 'the latest snapshot stored no lineup status' });
    expect((await call('/api/schedule/nba/injuries')).json).toEqual({ sport: 'nba', available: false, reason: 'the latest snapshot stored no injury status' });
    expect((await call('/api/schedule/mlb/lineups')).json).toMatchObject({ sport: 'mlb', available: false });
  });

  it('pitchers: 404 outside MLB, hidden for MLB without a stored snapshot', async () => {
    const nba = await call('/api/schedule/nba/pitchers');
    expect(nba.status).toBe(404);
    expect(nba.json).toEqual({ error: { code: 'NOT_FOUND', message: 'probable pitchers exist for mlb only' } });
    expect((await call('/api/schedule/mlb/pitchers')).json).toEqual({ sport: 'mlb', available: false, reason: 'no snapshot stored for mlb' });
  });
});

describe('GET /api/team/{abbr}', () => {
  it('builds the roster from stored games with real season averages, and caches it 15 minutes', async () => {
    const r = await call('/api/team/IND');
    const body = r.json as { team: { abbr: string; name: string }; season_from: string; roster: Array<{ player: string; key: string; season_games: number; averages: Record<string, number | null>; archetype: unknown }>; props: Array<Record<string, unknown>> };
    expect(body.team).toEqual({ abbr: 'IND', name: 'Indiana Pacers' });
    expect(body.season_from).toBe('2025-08-01');
    const siakam = body.roster.find((p) => p.key === 'pascal siakam')!;
    const games = seeded.store.db
      .select()
      .from(playerGameStats)
      .where(and(eq(playerGameStats.playerKey, 'pascal siakam'), sql`${playerGameStats.date} >= '2025-08-01'`))
      .all();
    expect(siakam.season_games).toBe(games.length);
    const mean = games.reduce((s, g) => s + (g.stats['points'] ?? 0), 0) / games.length;
    expect(siakam.averages['points']).toBeCloseTo(mean, 2);
    expect(body.props.length).toBeGreaterThan(0);
    expect(body.props.every((p) => p['team'] === 'IND' && p['grade'] !== null)).toBe(true);
    const snapshotId = (await latestSnapshot(seeded.store, 'nba'))!.id;
    const cached = seeded.store.db.select().from(kvCache).where(eq(kvCache.key, `team-hub:v3:nba:IND:${snapshotId}`)).get()!;
    expect(cached.expiresAt).toBe(new Date(seeded.now.getTime() + 15 * 60_000).toISOString());
  });

  it('never serves a hub cached under a later clock (a server restarted on a replayed day)', async () => {
    const snapshotId = (await latestSnapshot(seeded.store, 'nba'))!.id;
    const later = new Date('2026-11-24T12:00:00Z');
    await kvSet(seeded.store, `team-hub:v3:nba:IND:${snapshotId}`, { team: { abbr: 'IND', name: 'Indiana Pacers' }, seasonFrom: '2026-08-01', roster: [], props: [] }, later, 900);
    const body = (await call('/api/team/IND')).json as { season_from: string; roster: unknown[] };
    expect(body.season_from).toBe('2025-08-01');
    expect(body.roster.length).toBeGreaterThan(0);
  });

  it('resolves other spellings and answers 404 for an unknown team', async () => {
    const gsw = await call('/api/team/GSW?sport=nba');
    expect((gsw.json as { team: { abbr: string } }).team.abbr).toBe('GS');
    const r = await call('/api/team/XYZ');
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ error: { code: 'NOT_FOUND', message: 'unknown team XYZ' } });
  });
});

describe('GET /api/players/search', () => {
  it('ranks the exact key first, then surname prefix, over cached names', async () => {
    const exact = (await call('/api/players/search?q=Pascal%20Siakam&sport=nba')).json as { results: Array<{ player: string; team: string | null }> };
    expect(exact.results[0]).toMatchObject({ player: 'Pascal Siakam', team: 'IND' });
    const prefix = (await call('/api/players/search?q=siak&sport=nba')).json as { results: Array<{ player: string }> };
    expect(prefix.results.map((p) => p.player)).toContain('Pascal Siakam');
    const mlb = (await call('/api/players/search?q=judge')).json as { sport: string; results: unknown[] };
    expect(mlb).toEqual({ sport: 'mlb', q: 'judge', results: [] });
    const short = await call('/api/players/search?q=a&sport=nba');
    expect(short.status).toBe(400);
    expect((short.json as { error: { message: string } }).error.message).toContain('q');
  });
});

describe('POST /api/scan', () => {
  it('anonymous scans never touch the ledger; a token writes to that user’s ledger', async () => {
    const row = storeRow(true);
    const body = { player: row.player, stat: row.statType, line: row.line, direction: row.side };
    const anon = (await call('/api/scan', 'none', { body })).json as Record<string, unknown>;
    expect(anon['status']).toBe('graded');
    expect(anon['grade']).toBe(row.grade);
    expect(anon['ledger']).toEqual({ written: false, reason: 'anonymous scans never touch the ledger' });
    expect((anon['prices'] as Record<string, unknown>)['book_odds']).toBe(row.bookOdds);

    const paid = (await call('/api/scan', 'desk', { body })).json as Record<string, unknown>;
    expect(paid['p_win']).toBe(Math.round(row.pWin! * 1e4) / 1e4);
    const deskId = seeded.store.db.select().from(ledgerEntries).where(isNotNull(ledgerEntries.userId)).all();
    expect(deskId.some((e) => e.playerKey === row.playerKey && e.line === row.line && e.side === row.side && e.source === 'scan')).toBe(true);
  });

  it('a refused read is not metered; a graded one is, in usage_events', async () => {
    const count = () => seeded.store.db.select({ n: sql<number>`count(*)` }).from(usageEvents).get()!.n;
    const refused = storeRow(false);
    const before = count();
    const r = (await call('/api/scan', 'free', { body: { player: refused.player, stat: refused.statType, line: refused.line, direction: refused.side } })).json as Record<string, unknown>;
    expect(r['status']).toBe('refused');
    expect(r['grade']).toBeNull();
    expect(r['flags']).toContain('insufficient_data');
    expect(count()).toBe(before);
    const row = storeRow(true);
    const g = (await call('/api/scan', 'free', { body: { player: row.player, stat: row.statType, line: row.line, direction: row.side } })).json as Record<string, unknown>;
    expect(g['status']).toBe('graded');
    expect(count()).toBe(before + 1);
    expect((g['meter'] as { limit: number }).limit).toBe(1000);
  });

  it('bad bodies: 400 naming the field, invalid JSON, and 413 over the 1 MB cap', async () => {
    const missing = await call('/api/scan', 'none', { body: { player: 'Pascal Siakam', stat: 'points', direction: 'over' } });
    expect(missing.status).toBe(400);
    expect((missing.json as { error: { code: string; message: string } }).error).toMatchObject({ code: 'BAD_INPUT' });
    expect((missing.json as { error: { message: string } }).error.message).toContain('line');
    const notJson = await call('/api/scan', 'none', { body: '{"player":' });
    expect(notJson.status).toBe(400);
    expect((notJson.json as { error: { message: string } }).error.message).toContain('not valid JSON');
    const huge = await call('/api/scan', 'none', { body: JSON.stringify({ player: 'x'.repeat(1024 * 1024 + 10), stat: 'points', line: 1, direction: 'over' }) });
    expect(huge.status).toBe(413);
    expect(huge.json).toEqual({ error: { code: 'TOO_LARGE', message: 'request body exceeds 1048576 bytes', details: { limit: 1048576 } } });
  });

  it('413 while streaming a chunked body with no Content-Length', async () => {
    const url = new URL(`${api.base}/api/scan`);
    const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 2 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(status.status).toBe(413);
    expect(JSON.parse(status.body)).toMatchObject({ error: { code: 'TOO_LARGE' } });
  });
});

describe('POST /api/parlay/grade and /api/analyze', () => {
  const leg = (player: string, line: number) => ({ player, stat: 'points', line, side: 'under' });
  const legs3 = [leg('Pascal Siakam', 26.5), leg('Ben Sheppard', 7.5), leg('Aaron Nesmith', 12.5)];

  it("free: 2 legs with the market's payout, the projection's payout behind an upsell; more than 2 legs is 403", async () => {
    const two = (await call('/api/parlay/grade', 'none', { body: { legs: legs3.slice(0, 2) } })).json as Record<string, unknown>;
    expect(two['payout']).not.toBeNull();
    expect(two).not.toHaveProperty('projection_payout');
    expect(typeof two['upsell']).toBe('string');
    expect((two['legs'] as unknown[]).length).toBe(2);
    const three = await call('/api/parlay/grade', 'free', { body: { legs: legs3 } });
    expect(three.status).toBe(403);
    expect((three.json as { error: { code: string } }).error.code).toBe('FORBIDDEN');
  });

  it("paid tiers see the projection's payout beside the market's; 1 or 7 legs is a 400", async () => {
    const paid = (await call('/api/parlay/grade', 'analyst', { body: { legs: legs3.slice(0, 2) } })).json as Record<string, unknown>;
    expect(paid['upsell']).toBeUndefined();
    expect(paid['payout']).not.toBeNull();
    expect(paid).toHaveProperty('projection_payout');
    for (const n of [1, 7]) {
      const r = await call('/api/parlay/grade', 'desk', { body: { legs: Array.from({ length: n }, () => legs3[0]) } });
      expect(r.status, `${n} legs`).toBe(400);
      expect((r.json as { error: { message: string } }).error.message).toContain('legs');
    }
  });

  it('analyze is refused for free-shaped callers and gives model fields to paid ones', async () => {
    const row = storeRow(true);
    const body = { player: row.player, stat: row.statType, line: row.line, direction: row.side };
    for (const who of FREE_SHAPED) {
      const r = await call('/api/analyze', who, { body });
      expect(r.status, who).toBe(403);
      expect(r.json).toEqual({ error: { code: 'FORBIDDEN', message: 'this route needs a paid tier (analyst or desk)' } });
    }
    for (const who of PAID) {
      const r = await call('/api/analyze', who, { body });
      expect(r.status).toBe(200);
      const a = r.json as Record<string, unknown>;
      expect(a['p_win']).toBe(Math.round(row.pWin! * 1e4) / 1e4);
      expect(a['model_odds']).toBe(Math.round(row.modelOdds!));
      expect(a['model_price_locked']).toBe(false);
      expect(a['ledger']).toBeUndefined();
    }
  });
});

describe('errors, CORS and the OpenAPI document', () => {
  it('unknown routes and methods answer in the envelope, without a stack', async () => {
    const r = await call('/api/nope');
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ error: { code: 'NOT_FOUND', message: 'Cannot find any route matching /api/nope.' } });
    const m = await call('/api/scan');
    expect(m.status).toBe(405);
    expect((m.json as { error: { code: string } }).error.code).toBe('METHOD_NOT_ALLOWED');
    expect(r.text + m.text).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('CORS only for the configured origin, and every answer varies on Origin', async () => {
    const ok = await call('/api/ticker', 'none', { headers: { origin: ORIGIN } });
    expect(ok.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const shaped = await call('/api/hero-prop', 'free', { headers: { origin: ORIGIN } });
    expect(shaped.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    // The hero body (over 1 KB with its claim) is compressed by negotiation, so it varies on Accept-Encoding too.
    expect(shaped.headers.get('vary')).toBe('Origin, Authorization, Accept-Encoding');
    const other = await call('/api/ticker', 'none', { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    // Whether CORS headers come depends on Origin, so every answer says it varies on it: a shared
    // cache must not hand the browser an answer stored for another origin or for none.
    expect(other.headers.get('vary')).toBe('Origin');
    const noOrigin = await call('/api/hero-prop', 'free');
    expect(noOrigin.headers.get('access-control-allow-origin')).toBeNull();
    expect(noOrigin.headers.get('vary')).toBe('Origin, Authorization, Accept-Encoding');
    const pre = await call('/api/scan', 'none', { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toContain('Authorization');
  });

  it('a stats-like read over its limit is 429 with Retry-After', async () => {
    const limited = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now, wallClock: () => new Date('2026-11-27T20:00:00Z'), limits: { statsPerWindow: 2, statsWindowSeconds: 60 } });
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 3; i++) {
      last = await fetch(`${limited.base}/api/accuracy`);
      statuses.push(last.status);
    }
    const body = await last!.json();
    await limited.close();
    expect(statuses).toEqual([200, 200, 429]);
    expect(last!.headers.get('retry-after')).toBe('60');
    expect(body).toMatchObject({ error: { code: 'RATE_LIMITED' } });
  });

  it('the scan meter answers 429 with Retry-After once the rolling 24 h quota is used', async () => {
    const metered = await startServer({ store: seeded.store, config: seeded.config, now: () => new Date('2025-11-05T17:30:00Z'), wallClock: () => new Date('2026-11-27T20:00:00Z'), limits: { scanReadsPerDay: { free: 1, analyst: 1, desk: null } } });
    const { token } = await createUser(seeded.store, { email: 'meter@example.test', tier: 'analyst' }, seeded.now);
    const row = storeRow(true);
    const body = JSON.stringify({ player: row.player, stat: row.statType, line: row.line, direction: row.side });
    const post = () => fetch(`${metered.base}/api/scan`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body });
    const first = await post();
    const second = await post();
    const err = await second.json();
    await metered.close();
    expect(first.status).toBe(200);
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBe(24 * 3600);
    expect(err).toMatchObject({ error: { code: 'RATE_LIMITED', details: { used: 1, limit: 1 } } });
  });

  it('GET /openapi.json describes every route from its validating schemas', async () => {
    const doc = (await call('/openapi.json')).json as { openapi: string; paths: Record<string, Record<string, { parameters: Array<{ name: string; in: string; schema: { enum?: string[] } }>; requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> } }>> };
    expect(doc.openapi).toBe('3.1.0');
    for (const route of api.server.routes) {
      const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      expect(doc.paths[path]?.[route.method.toLowerCase()], `${route.method} ${path}`).toBeDefined();
    }
    const snap = doc.paths['/api/snapshot/{sport}']!['get']!;
    expect(snap.parameters.find((p) => p.name === 'sport')!.schema.enum).toEqual(['mlb', 'nba', 'wnba', 'soccer']);
    const scan = doc.paths['/api/scan']!['post']!.requestBody!.content['application/json']!.schema;
    expect(Object.keys(scan.properties)).toEqual(['player', 'stat', 'line', 'direction', 'sport']);
    expect(scan.required).toEqual(['player', 'stat', 'line', 'direction']);
    const ledger = doc.paths['/api/ledger/model']!['get']!.parameters.map((p) => p.name);
    expect(ledger).toEqual(expect.arrayContaining(['date', 'team', 'player', 'limit']));
  });
});

describe('internal snapshot routes', () => {
  it('wrong, missing or unconfigured key: 401 and nothing runs', async () => {
    runnerCalls = [];
    const attempts: Array<Record<string, string>> = [{}, { 'x-internal-key': 'wrong' }, { 'x-internal-key': `${INTERNAL_KEY}x` }];
    for (const headers of attempts) {
      for (const path of ['/api/internal/snapshot/nba', '/api/internal/snapshot/all']) {
        const r = await call(path, 'desk', { method: 'POST', headers });
        expect(r.status).toBe(401);
        expect(r.json).toEqual({ error: { code: 'UNAUTHORIZED', message: 'missing or wrong x-internal-key' } });
      }
    }
    const unconfigured = await startServer({ store: seeded.store, config: { ...seeded.config, INTERNAL_API_KEY: undefined }, now: () => seeded.now, runSnapshot: async () => { runnerCalls.push(['unconfigured']); return []; } });
    const r = await fetch(`${unconfigured.base}/api/internal/snapshot/all`, { method: 'POST', headers: { 'x-internal-key': INTERNAL_KEY } });
    await unconfigured.close();
    expect(r.status).toBe(401);
    expect(runnerCalls).toEqual([]);
  });

  it('the right key runs the real snapshot pipeline (same lock as the CLI)', async () => {
    const etagBefore = (await call('/api/snapshot/nba')).headers.get('etag');
    const r = await call('/api/internal/snapshot/nba', 'none', { method: 'POST', headers: { 'x-internal-key': INTERNAL_KEY } });
    expect(r.status, r.text).toBe(200);
    const run = (r.json as { runs: Array<{ sport: string; status: string; graded: number; snapshot_id: number }> }).runs[0]!;
    expect(run).toMatchObject({ sport: 'nba', status: 'ok' });
    expect(run.graded).toBeGreaterThan(0);
    expect(runnerCalls).toEqual([['nba']]);
    // A new snapshot means new bytes: the next read serializes it and carries its id.
    const after = await call('/api/snapshot/nba');
    expect((after.json as { snapshot: { id: number } }).snapshot.id).toBe(run.snapshot_id);
    expect(after.headers.get('etag')).not.toBe(etagBefore);
  }, 60_000);
});
