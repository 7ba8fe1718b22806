import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { createUser, hashToken, listUsers, resolveBearer, revokeUser, setUserTier } from '../../src/accounts/users.js';
import { openStore, type Store } from '../../src/store/db.js';
import { sweepExpiredGraces } from '../../src/accounts/billing.js';
import { apiTokens, users } from '../../src/store/schema.js';

const NOW = new Date('2025-11-05T17:05:00Z');
let dir: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pg-users-'));
  store = openStore(join(dir, 'pg.sqlite'));
});
afterEach(() => {
  try {
    store.close();
  } catch {
    // already closed by the test
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('user and token service', () => {
  it('creates a user with a one-time token and stores only its sha256', () => {
    const { user, token } = createUser(store, { email: ' Ana@Example.com ', tier: 'analyst' }, NOW);
    expect(user).toMatchObject({ email: 'ana@example.com', tier: 'analyst', createdAt: NOW.toISOString() });
    expect(token).toMatch(/^pg_[A-Za-z0-9_-]{43}$/);
    const rows = store.db.select().from(apiTokens).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(hashToken(token));
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(store.path).includes(Buffer.from(token))).toBe(false);
  });

  it('resolves a live token to its tier and follows set-tier', () => {
    const { token } = createUser(store, { email: 'ana@example.com', tier: 'free' }, NOW);
    expect(resolveBearer(store, `Bearer ${token}`)).toMatchObject({ tier: 'free', authenticated: true, user: { email: 'ana@example.com' } });
    expect(setUserTier(store, 'ana@example.com', 'desk').previousTier).toBe('free');
    expect(resolveBearer(store, `bearer ${token}`).tier).toBe('desk');
  });

  it('set-tier cancels a billing grace running on the user, and says which', () => {
    createUser(store, { email: 'ana@example.com', tier: 'analyst' }, NOW);
    store.db.update(users).set({ graceUntil: '2025-11-07T17:05:00.000Z', subscriptionStatus: 'canceled' }).where(eq(users.email, 'ana@example.com')).run();
    const set = setUserTier(store, 'ana@example.com', 'desk');
    expect([set.previousTier, set.cancelledGrace]).toEqual(['analyst', '2025-11-07T17:05:00.000Z']);
    const row = store.db.select({ tier: users.tier, graceUntil: users.graceUntil }).from(users).where(eq(users.email, 'ana@example.com')).get();
    expect(row).toEqual({ tier: 'desk', graceUntil: null });
    // The sweep after the grace's end leaves the tier the operator set.
    expect(sweepExpiredGraces(store, new Date('2025-11-08T00:00:00Z')).downgraded).toBe(0);
    expect(store.db.select({ tier: users.tier }).from(users).where(eq(users.email, 'ana@example.com')).get()?.tier).toBe('desk');
    expect(setUserTier(store, 'ana@example.com', 'analyst').cancelledGrace).toBeNull();
  });

  it('fails closed to free on every failure: none, malformed, unknown, revoked, closed database', () => {
    const { token } = createUser(store, { email: 'ana@example.com', tier: 'desk' }, NOW);
    expect(resolveBearer(store, undefined)).toEqual({ tier: 'free', user: null, authenticated: false, presentedToken: false });
    for (const header of [token, 'Basic abc', 'Bearer', 'Bearer not-a-token', `Bearer pg_${'A'.repeat(43)}`]) {
      expect(resolveBearer(store, header), header).toEqual({ tier: 'free', user: null, authenticated: false, presentedToken: true });
    }
    expect(revokeUser(store, 'ana@example.com', NOW).revoked).toBe(1);
    expect(resolveBearer(store, `Bearer ${token}`).tier).toBe('free');
    const { token: other } = createUser(store, { email: 'bo@example.com', tier: 'analyst' }, NOW);
    store.close();
    expect(resolveBearer(store, `Bearer ${other}`)).toMatchObject({ tier: 'free', authenticated: false });
  });

  it('refuses a duplicate email and unknown users; lists token counts, never tokens', () => {
    createUser(store, { email: 'ana@example.com', tier: 'analyst' }, NOW);
    expect(() => createUser(store, { email: 'ANA@example.com', tier: 'desk' }, NOW)).toThrow(AppError);
    expect(() => revokeUser(store, 'nobody@example.com', NOW)).toThrow(/no user/);
    expect(() => setUserTier(store, 'nobody@example.com', 'desk')).toThrow(/no user/);
    expect(() => createUser(store, { email: 'not-an-email', tier: 'free' }, NOW)).toThrow(/expected an email address/);
    revokeUser(store, 'ana@example.com', NOW);
    expect(listUsers(store)).toEqual([{ id: 1, email: 'ana@example.com', tier: 'analyst', createdAt: NOW.toISOString(), activeTokens: 0, revokedTokens: 1 }]);
  });
});
