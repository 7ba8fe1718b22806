import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { createUser, hashToken, listUsers, resolveBearer, revokeUser, setUserTier } from '../../src/accounts/users.js';
import { openStore, type SqliteStore } from '../../src/store/db.js';
import { sweepExpiredGraces } from '../../src/accounts/billing.js';
import { apiTokens, users } from '../../src/store/schema.js';

const NOW = new Date('2025-11-05T17:05:00Z');
let dir: string;
let store: SqliteStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pg-users-'));
  store = openStore(join(dir, 'pg.sqlite'));
});
afterEach(() => {
  try {
    void store.close();
  } catch {
    // already closed by the test
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('user and token service', () => {
  it('creates a user with a one-time token and stores only its sha256', async () => {
    const { user, token } = await createUser(store, { email: ' Ana@Example.com ', tier: 'analyst' }, NOW);
    expect(user).toMatchObject({ email: 'ana@example.com', tier: 'analyst', createdAt: NOW.toISOString() });
    expect(token).toMatch(/^pg_[A-Za-z0-9_-]{43}$/);
    const rows = store.db.select().from(apiTokens).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(hashToken(token));
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(store.path).includes(Buffer.from(token))).toBe(false);
  });

  it('resolves a live token to its tier and follows set-tier', async () => {
    const { token } = await createUser(store, { email: 'ana@example.com', tier: 'free' }, NOW);
    expect(await resolveBearer(store, `Bearer ${token}`)).toMatchObject({ tier: 'free', authenticated: true, user: { email: 'ana@example.com' } });
    expect((await setUserTier(store, 'ana@example.com', 'desk')).previousTier).toBe('free');
    expect((await resolveBearer(store, `bearer ${token}`)).tier).toBe('desk');
  });

  it('set-tier cancels a billing grace running on the user, and says which', async () => {
    await createUser(store, { email: 'ana@example.com', tier: 'analyst' }, NOW);
    store.db.update(users).set({ graceUntil: '2025-11-07T17:05:00.000Z', subscriptionStatus: 'canceled' }).where(eq(users.email, 'ana@example.com')).run();
    const set = await setUserTier(store, 'ana@example.com', 'desk');
    expect([set.previousTier, set.cancelledGrace]).toEqual(['analyst', '2025-11-07T17:05:00.000Z']);
    const row = store.db.select({ tier: users.tier, graceUntil: users.graceUntil }).from(users).where(eq(users.email, 'ana@example.com')).get();
    expect(row).toEqual({ tier: 'desk', graceUntil: null });
    // The sweep after the grace's end leaves the tier the operator set.
    expect((await sweepExpiredGraces(store, new Date('2025-11-08T00:00:00Z'))).downgraded).toBe(0);
    expect(store.db.select({ tier: users.tier }).from(users).where(eq(users.email, 'ana@example.com')).get()?.tier).toBe('desk');
    expect((await setUserTier(store, 'ana@example.com', 'analyst')).cancelledGrace).toBeNull();
  });

  it('fails closed to free on every failure: none, malformed, unknown, revoked, closed database', async () => {
    const { token } = await createUser(store, { email: 'ana@example.com', tier: 'desk' }, NOW);
    expect(await resolveBearer(store, undefined)).toEqual({ tier: 'free', user: null, authenticated: false, presentedToken: false });
    for (const header of [token, 'Basic abc', 'Bearer', 'Bearer not-a-token', `Bearer pg_${'A'.repeat(43)}`]) {
      expect(await resolveBearer(store, header), header).toEqual({ tier: 'free', user: null, authenticated: false, presentedToken: true });
    }
    expect((await revokeUser(store, 'ana@example.com', NOW)).revoked).toBe(1);
    expect((await resolveBearer(store, `Bearer ${token}`)).tier).toBe('free');
    const { token: other } = await createUser(store, { email: 'bo@example.com', tier: 'analyst' }, NOW);
    await store.close();
    expect(await resolveBearer(store, `Bearer ${other}`)).toMatchObject({ tier: 'free', authenticated: false });
  });

  it('refuses a duplicate email and unknown users; lists token counts, never tokens', async () => {
    await createUser(store, { email: 'ana@example.com', tier: 'analyst' }, NOW);
    await expect(createUser(store, { email: 'ANA@example.com', tier: 'desk' }, NOW)).rejects.toThrow(AppError);
    await expect(revokeUser(store, 'nobody@example.com', NOW)).rejects.toThrow(/no user/);
    await expect(setUserTier(store, 'nobody@example.com', 'desk')).rejects.toThrow(/no user/);
    await expect(createUser(store, { email: 'not-an-email', tier: 'free' }, NOW)).rejects.toThrow(/expected an email address/);
    await revokeUser(store, 'ana@example.com', NOW);
    expect(await listUsers(store)).toEqual([{ id: 1, email: 'ana@example.com', tier: 'analyst', createdAt: NOW.toISOString(), activeTokens: 0, revokedTokens: 1 }]);
  });
});
