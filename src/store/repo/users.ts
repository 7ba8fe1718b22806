import { and, count, eq, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Store } from '../db.js';
import { opsOf } from '../engine-ops.js';
import type { users } from '../schema.js';
import { on, onWrite, type Handle } from './handle.js';
import { transaction } from './tx.js';

/**
 * users and api_tokens. Only the sha256 of a token is ever stored (src/accounts/users.ts makes
 * and hashes tokens); these functions read and write rows and decide nothing.
 */

export type UserRow = typeof users.$inferSelect;
/** The columns of a user that can change after creation. */
export type UserPatch = Partial<Omit<UserRow, 'id' | 'email' | 'createdAt'>>;

export async function userByEmail(store: Store, email: string): Promise<UserRow | null> {
  const { db, t } = await on(store);
  const [row] = await db.select().from(t.users).where(eq(t.users.email, email)).limit(1);
  return row ?? null;
}

export async function userById(store: Store, id: number): Promise<UserRow | null> {
  const { db, t } = await on(store);
  const [row] = await db.select().from(t.users).where(eq(t.users.id, id)).limit(1);
  return row ?? null;
}

export async function userByCustomer(store: Store, customerId: string): Promise<UserRow | null> {
  const { db, t } = await on(store);
  const [row] = await db.select().from(t.users).where(eq(t.users.stripeCustomerId, customerId)).limit(1);
  return row ?? null;
}

/** The email of another user than `exceptUserId` linked to the customer, or null. */
export async function customerHolder(store: Store, customerId: string, exceptUserId: number): Promise<string | null> {
  const { db, t } = await on(store);
  const [row] = await db.select({ email: t.users.email }).from(t.users).where(and(eq(t.users.stripeCustomerId, customerId), ne(t.users.id, exceptUserId))).limit(1);
  return row?.email ?? null;
}

export interface NewUserRow {
  email: string;
  tier: UserRow['tier'];
  createdAt: string;
  founderPricing?: boolean;
  founderCode?: string;
}

/** Inserts the user and its first token (by hash) in one transaction. */
export async function insertUserWithToken(store: Store, user: NewUserRow, tokenHash: string): Promise<UserRow> {
  return transaction(store, async (tx) => {
    const { db, t } = await on(tx);
    const [row] = await db.insert(t.users).values(user).returning();
    if (!row) throw new Error('the user insert returned no row');
    await db.insert(t.apiTokens).values({ userId: row.id, tokenHash, createdAt: user.createdAt });
    return row;
  });
}

export async function updateUser(store: Store, id: number, patch: UserPatch): Promise<void> {
  return onWrite(store, async ({ db, t }) => {
    await db.update(t.users).set(patch).where(eq(t.users.id, id));
  });
}

export interface UserTokenCounts {
  id: number;
  email: string;
  tier: UserRow['tier'];
  createdAt: string;
  activeTokens: number;
  revokedTokens: number;
}

/** Every user in id order with its live and revoked token counts. */
export async function usersWithTokenCounts(store: Store): Promise<UserTokenCounts[]> {
  const { db, t } = await on(store);
  const { users: u, apiTokens: a } = t;
  return db
    .select({
      id: u.id,
      email: u.email,
      tier: u.tier,
      createdAt: u.createdAt,
      activeTokens: sql<number>`(select count(*) from ${a} where ${a.userId} = "users"."id" and ${a.revokedAt} is null)`.mapWith(Number),
      revokedTokens: sql<number>`(select count(*) from ${a} where ${a.userId} = "users"."id" and ${a.revokedAt} is not null)`.mapWith(Number),
    })
    .from(u)
    .orderBy(u.id);
}

export type UserBillingColumns = Pick<UserRow, 'id' | 'founderPricing' | 'stripeCustomerId' | 'subscriptionStatus' | 'graceUntil'>;

export async function usersBillingColumns(store: Store): Promise<UserBillingColumns[]> {
  const { db, t } = await on(store);
  const u = t.users;
  return db.select({ id: u.id, founderPricing: u.founderPricing, stripeCustomerId: u.stripeCustomerId, subscriptionStatus: u.subscriptionStatus, graceUntil: u.graceUntil }).from(u);
}

/** Users with a grace set (expired or not: the caller decides). */
export async function usersInGrace(store: Store): Promise<Array<Pick<UserRow, 'id' | 'tier' | 'subscriptionStatus' | 'graceUntil'>>> {
  const { db, t } = await on(store);
  const u = t.users;
  return db.select({ id: u.id, tier: u.tier, subscriptionStatus: u.subscriptionStatus, graceUntil: u.graceUntil }).from(u).where(isNotNull(u.graceUntil));
}

/** Founders (founder_pricing) whose subscription status is `active`. */
export async function countActiveFounders(store: Store): Promise<number | null> {
  const { db, t } = await on(store);
  const [row] = await db.select({ n: count() }).from(t.users).where(and(eq(t.users.founderPricing, true), eq(t.users.subscriptionStatus, 'active')));
  const n = row?.n;
  return typeof n === 'number' ? n : null;
}

/** Revokes every live token of the user at `at`; returns how many. */
export async function revokeTokensOf(store: Store, userId: number, at: string): Promise<number> {
  return onWrite(store, async ({ db, t }) => {
    const revoked = await db
      .update(t.apiTokens)
      .set({ revokedAt: at })
      .where(and(eq(t.apiTokens.userId, userId), isNull(t.apiTokens.revokedAt)))
      .returning({ id: t.apiTokens.id });
    return revoked.length;
  });
}

/** The live-token lookup's query: users joined to the token by hash, with the onboarding flag. */
export function tokenLookup({ db, t }: Handle, tokenHash: string | ReturnType<typeof sql.placeholder>) {
  return db
    .select({ id: t.users.id, email: t.users.email, tier: t.users.tier, createdAt: t.users.createdAt, onboardingComplete: t.preferences.onboardingComplete })
    .from(t.apiTokens)
    .innerJoin(t.users, eq(t.users.id, t.apiTokens.userId))
    .leftJoin(t.preferences, eq(t.preferences.userId, t.users.id))
    .where(and(eq(t.apiTokens.tokenHash, tokenHash), isNull(t.apiTokens.revokedAt)));
}

export type TokenUser = Awaited<ReturnType<typeof tokenLookup>>[number];

/** The user behind a live (unrevoked) token hash, with its onboarding flag; null when none. */
export async function userByTokenHash(store: Store, tokenHash: string): Promise<TokenUser | null> {
  return opsOf(store).accounts.userByTokenHash(tokenHash);
}

/** Whether a user with this id exists (a scan is written to a user's ledger only then). */
export async function userExists(store: Store, id: number): Promise<boolean> {
  const { db, t } = await on(store);
  const [row] = await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.id, id)).limit(1);
  return row !== undefined;
}
