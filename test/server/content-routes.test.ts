import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Env } from '../../src/config.js';
import { createUser } from '../../src/accounts/users.js';
import { gradedRows, gradeLocks } from '../../src/store/schema.js';
import { loopStore, NOON, type LoopStore } from '../content/_loop.js';
import { ghostStandIn, listmonkStandIn, type GhostStandIn, type ListmonkStandIn } from '../publish/_standins.js';
import { startServer, type Running } from './_harness.js';

const KEY = 'internal-key-0123456789';
const NOW = new Date(NOON);

describe('content routes on the replay loop', () => {
  let loop: LoopStore;
  let lm: ListmonkStandIn;
  let ghost: GhostStandIn;
  const tokens: Record<string, string> = {};
  const servers: Running[] = [];
  const warnings: string[] = [];

  async function serve(env: Record<string, string>): Promise<Running> {
    const config: Env = loadConfig({ INTERNAL_API_KEY: KEY, DESK_ALLOWLIST: 'founder@propgrade.test, Partner@propgrade.test', ...env });
    const running = await startServer({ store: loop.store, config, now: () => NOW, wallClock: () => NOW, log: { info() {}, warn: (m) => warnings.push(m) }, runSnapshot: async () => [] });
    servers.push(running);
    return running;
  }

  beforeAll(async () => {
    loop = await loopStore('settled');
    [lm, ghost] = await Promise.all([listmonkStandIn(), ghostStandIn()]);
    tokens['founder'] = (await createUser(loop.store, { email: 'founder@propgrade.test', tier: 'free' }, NOW)).token;
    tokens['desk'] = (await createUser(loop.store, { email: 'desk-subscriber@propgrade.test', tier: 'desk' }, NOW)).token;
    tokens['analyst'] = (await createUser(loop.store, { email: 'analyst@propgrade.test', tier: 'analyst' }, NOW)).token;
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) await s.close();
    await Promise.all([lm?.close(), ghost?.close()]);
    loop?.cleanup();
  });

  const lmEnv = () => ({ LISTMONK_URL: lm.url, LISTMONK_USER: lm.user, LISTMONK_TOKEN: lm.token, LISTMONK_LIST_ID: '4' });

  describe('founder desk: bearer token plus DESK_ALLOWLIST, deny by default', () => {
    let s: Running;
    beforeAll(async () => {
      s = await serve({});
    });

    it('401 without a token or with an unknown one', async () => {
      for (const path of ['/desk', '/api/desk/pack']) {
        const none = await fetch(`${s.base}${path}`);
        expect(none.status).toBe(401);
        expect((await none.json()) as unknown).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
        expect((await fetch(`${s.base}${path}`, { headers: { authorization: 'Bearer pg_not-a-real-token' } })).status).toBe(401);
      }
    });

    it('403 for a valid user not on the allowlist, paid tiers included', async () => {
      for (const who of ['desk', 'analyst']) {
        const res = await fetch(`${s.base}/api/desk/pack`, { headers: { authorization: `Bearer ${tokens[who]}` } });
        expect(res.status, who).toBe(403);
        expect((await res.json()) as unknown).toMatchObject({ error: { code: 'FORBIDDEN' } });
      }
    });

    it('403 for everyone when DESK_ALLOWLIST is unset', async () => {
      const closed = await serve({ DESK_ALLOWLIST: '' });
      expect((await fetch(`${closed.base}/api/desk/pack`, { headers: { authorization: `Bearer ${tokens['founder']}` } })).status).toBe(403);
    });

    it('200 for an allowlisted email: the pack as JSON, never cached', async () => {
      const res = await fetch(`${s.base}/api/desk/pack`, { headers: { authorization: `Bearer ${tokens['founder']}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const pack = (await res.json()) as { date: string; ready: number; templates: Array<{ name: string; status: string; thread?: Array<{ weighted: number }> }> };
      expect(pack.date).toBe('2025-11-05');
      expect(pack.templates).toHaveLength(7);
      expect(pack.ready).toBe(6);
      for (const t of pack.templates) for (const tw of t.thread ?? []) expect(tw.weighted).toBeLessThanOrEqual(280);
    });

    it('200 for the page: HTML with a strict nonce CSP that matches its one script and one style', async () => {
      const res = await fetch(`${s.base}/desk`, { headers: { authorization: `Bearer ${tokens['founder']}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce).toBeTruthy();
      const html = await res.text();
      expect(html.match(/<script\b[^>]*>/g)).toEqual([`<script nonce="${nonce}">`]);
      expect(html.match(/<style\b[^>]*>/g)).toEqual([`<style nonce="${nonce}">`]);
      expect(html).not.toMatch(/\sstyle="|src="http|href="http|<link\b/);
    });
  });

  describe('POST /api/newsletter/subscribe', () => {
    const post = (base: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}/api/newsletter/subscribe`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

    it('not configured: 200 {ok:false, reason:"not_configured"}', async () => {
      const s = await serve({});
      const res = await post(s.base, { email: 'ana@example.com' });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: false, reason: 'not_configured' });
    });

    it('an invalid email is a 400 naming the field, and nothing is forwarded', async () => {
      const s = await serve(lmEnv());
      const before = lm.requests.length;
      const res = await post(s.base, { email: 'not-an-email' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('BAD_INPUT');
      expect(body.error.message).toMatch(/^invalid body: email: /);
      expect(lm.requests.length).toBe(before);
    });

    it('subscribes with double opt-in; an already-subscribed address and a filled honeypot answer exactly the same', async () => {
      const s = await serve(lmEnv());
      const fresh = await post(s.base, { email: 'New.Reader@Example.com', website: '' });
      const again = await post(s.base, { email: 'new.reader@example.com' });
      const before = lm.requests.length;
      const bot = await post(s.base, { email: 'bot@example.com', website: 'http://spam.example' });
      const bodies = await Promise.all([fresh, again, bot].map((r) => r.text()));
      expect([fresh.status, again.status, bot.status]).toEqual([200, 200, 200]);
      expect(new Set(bodies).size).toBe(1);
      expect(JSON.parse(bodies[0] ?? '{}')).toEqual({ ok: true, status: 'confirmation_sent' });
      expect(lm.requests.length).toBe(before); // the honeypot forwarded nothing
      expect(lm.subscribers.get('new.reader@example.com')).toMatchObject({ lists: [4], preconfirm: false, status: 'enabled' });
      expect(lm.subscribers.has('bot@example.com')).toBe(false);
    });

    it('the 11th request in a minute from one address is a 429 with Retry-After', async () => {
      const s = await serve({});
      for (let i = 0; i < 10; i++) expect((await post(s.base, { email: `r${i}@example.com` })).status).toBe(200);
      const eleventh = await post(s.base, { email: 'r11@example.com' });
      expect(eleventh.status).toBe(429);
      expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await eleventh.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
      // Malformed requests count too: the limit runs before the body is read.
      expect((await post(s.base, { email: 'bad' })).status).toBe(429);
    });

    it('behind a TRUSTED_PROXIES proxy the forwarded address counts; from anyone else the header is ignored', async () => {
      const trusted = await serve({ TRUSTED_PROXIES: '127.0.0.1', TRUSTED_PROXY_IP_HEADER: 'X-Forwarded-For' });
      for (let i = 0; i < 10; i++) expect((await post(trusted.base, { email: `a${i}@example.com` }, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(200);
      expect((await post(trusted.base, { email: 'a10@example.com' }, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(429);
      // Another client behind the same proxy has its own budget; a spoofed left-most entry changes nothing.
      expect((await post(trusted.base, { email: 'b@example.com' }, { 'x-forwarded-for': '198.51.100.9, 203.0.113.8' })).status).toBe(200);
      expect((await post(trusted.base, { email: 'c@example.com' }, { 'x-forwarded-for': '10.0.0.1, 203.0.113.7' })).status).toBe(429);

      // The header named without TRUSTED_PROXIES is believed from nobody (it was from anyone).
      const untrusted = await serve({ TRUSTED_PROXY_IP_HEADER: 'X-Forwarded-For' });
      for (let i = 0; i < 10; i++) await post(untrusted.base, { email: `d${i}@example.com` }, { 'x-forwarded-for': `192.0.2.${i}` });
      expect((await post(untrusted.base, { email: 'd10@example.com' }, { 'x-forwarded-for': '192.0.2.99' })).status).toBe(429);
    });

    it('listmonk failing: a 502 UPSTREAM envelope, logged with the reason', async () => {
      const s = await serve(lmEnv());
      lm.failNext.set('/api/subscribers', { status: 500, message: 'database is down' });
      const res = await post(s.base, { email: 'late@example.com' });
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({ error: { code: 'UPSTREAM', message: 'listmonk subscribe failed: HTTP 500 (database is down)' } });
      expect(warnings.join('\n')).toContain('POST /api/newsletter/subscribe: listmonk subscribe failed: HTTP 500 (database is down)');
    });
  });

  describe('internal routes', () => {
    it('newsletter send: 401 without the key; not configured; then the campaign id', async () => {
      const bare = await serve({});
      expect((await fetch(`${bare.base}/api/internal/newsletter/send`, { method: 'POST' })).status).toBe(401);
      const nc = await fetch(`${bare.base}/api/internal/newsletter/send?date=2025-11-05`, { method: 'POST', headers: { 'x-internal-key': KEY } });
      expect(await nc.json()).toMatchObject({ status: 'not_configured', missing: ['LISTMONK_URL', 'LISTMONK_USER', 'LISTMONK_TOKEN', 'LISTMONK_LIST_ID'] });

      const s = await serve(lmEnv());
      const res = await fetch(`${s.base}/api/internal/newsletter/send?date=2025-11-05`, { method: 'POST', headers: { 'x-internal-key': KEY } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { status: string; campaign_id: number };
      expect(body).toMatchObject({ status: 'sent', campaign_id: expect.any(Number), list_id: 4 });
      expect(lm.campaigns.get(body.campaign_id)?.['status']).toBe('running');
      const empty = await fetch(`${s.base}/api/internal/newsletter/send?date=2025-12-25`, { method: 'POST', headers: { 'x-internal-key': KEY } });
      expect(await empty.json()).toMatchObject({ status: 'refused', reason: 'empty' });
    });

    it('ghost drafts: saved as drafts whatever the request carries', async () => {
      const s = await serve({ GHOST_URL: ghost.url, GHOST_ADMIN_KEY: ghost.key });
      const res = await fetch(`${s.base}/api/internal/ghost/drafts?date=2025-11-05`, {
        method: 'POST',
        headers: { 'x-internal-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'published' }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { status: string; drafts: Array<{ action: string; status: string }> };
      expect(body.drafts.map((d) => [d.action, d.status])).toEqual([
        ['created', 'draft'],
        ['created', 'draft'],
      ]);
      for (const p of ghost.posts.values()) expect(p.status).toBe('draft');
    });
  });
  describe('the hero prop and the desk pack quote a claim with the price it was made on (issue 25)', () => {
    const noonRows = () => loop.store.db.select().from(gradedRows).where(sql`${gradedRows.snapshotId} = (select max(id) from snapshots)`).all();
    const lockOf = (r: { eventId: string; playerKey: string; statType: string; line: number; side: 'over' | 'under' }) =>
      loop.store.db
        .select()
        .from(gradeLocks)
        .where(and(eq(gradeLocks.eventId, r.eventId), eq(gradeLocks.playerKey, r.playerKey), eq(gradeLocks.statType, r.statType), eq(gradeLocks.line, r.line), eq(gradeLocks.side, r.side)))
        .get();

    it('the hero is the largest gap among A/B main lines whose projection lies on the graded side, with its claim at the lock\'s price', async () => {
      const s = await serve({});
      for (const who of [undefined, 'founder']) {
        const body = (await (await fetch(`${s.base}/api/hero-prop`, who ? { headers: { authorization: `Bearer ${tokens[who]}` } } : {})).json()) as {
          gap: number;
          claim: { grade: string; book: string; odds: number; fair_odds: number; graded_at: string; now: { book: string; odds: number } };
          prop: Record<string, unknown>;
        };
        // From the stored projection, line and side (not projection_agrees): the projection supports the side.
        const supports = (r: { projection: number | null; line: number; side: string }) => r.projection !== null && (r.side === 'over' ? r.projection >= r.line : r.projection <= r.line);
        const candidates = noonRows().filter((r) => (r.grade === 'A' || r.grade === 'B') && r.isMainLine === true && supports(r) && r.edgeNow !== 'gone');
        expect(body.gap).toBeCloseTo(Math.max(...candidates.map((r) => Math.abs((r.projection ?? 0) - r.line))), 6);
        expect(supports({ projection: body.prop['projection'] as number, line: body.prop['line'] as number, side: body.prop['side'] as string })).toBe(true);
        const row = noonRows().find((r) => r.eventId === body.prop['event_id'] && r.player === body.prop['player'] && r.statType === body.prop['stat_type'] && r.line === body.prop['line'] && r.side === body.prop['side']);
        expect(row).toBeDefined();
        const lock = row ? lockOf(row) : undefined;
        expect(lock).toBeDefined();
        expect(body.claim).toMatchObject({ grade: lock?.grade, book: lock?.lockedBook, odds: lock?.lockedOdds, graded_at: lock?.gradedAt });
        const p = lock?.lockedFairProb ?? NaN;
        // American odds go out whole (src/wire.ts).
        expect(body.claim.fair_odds).toBe(Math.round(p >= 0.5 ? (-100 * p) / (1 - p) : (100 * (1 - p)) / p));
        // The lock's price is what the snapshot that made it saw.
        const atLock = loop.store.db.select().from(gradedRows).where(and(eq(gradedRows.snapshotId, lock?.snapshotId ?? -1), eq(gradedRows.playerKey, lock?.playerKey ?? ''), eq(gradedRows.statType, lock?.statType ?? ''), eq(gradedRows.line, lock?.line ?? -1), eq(gradedRows.side, lock?.side ?? 'over'))).get();
        expect([atLock?.book, atLock?.bookOdds]).toEqual([body.claim.book, body.claim.odds]);
        expect(body.claim.now).toMatchObject({ book: body.prop['book'], odds: body.prop['book_odds'] });
      }
    });

    it('/api/desk/pack: SIGNAL\'s price is its lock\'s, and the claim\'s figures name grade_locks as their source', async () => {
      const s = await serve({});
      const res = await fetch(`${s.base}/api/desk/pack`, { headers: { authorization: `Bearer ${tokens['founder']}` } });
      const pack = (await res.json()) as { templates: Array<{ id: string; long?: string; brief?: Array<{ key: string; value: unknown; source: { table: string; ids: number[] } }> }> };
      const signal = pack.templates.find((t) => t.id === 'signal');
      const price = signal?.brief?.find((f) => f.key === 'signal.price');
      expect(price?.source.table).toBe('grade_locks');
      const lock = loop.store.db.select().from(gradeLocks).where(eq(gradeLocks.id, price?.source.ids[0] ?? -1)).get();
      expect(price?.value).toBe(lock?.lockedOdds);
      expect(signal?.brief?.find((f) => f.key === 'signal.graded_at')?.value).toBe(lock?.gradedAt);
    });
  });
});
