import { and, count, eq, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Store } from '../db.js';
import { apiTokens, preferences, users } from '../schema.js';

/**
 * users and api_tokens. Only the sha256 of a token is ever stored (src/accounts/users.ts makes
 * and hashes tokens); these functions read and write rows and decide nothing.
 */

export type UserRow = typeof users.$inferSelect;
/** The columns of a user that can change after creation. */
export type UserPatch = Partial<Omit<UserRow, 'id' | 'email' | 'createdAt'>>;

export function userByEmail(store: Store, email: string): UserRow | null {
  return store.db.select().from(users).where(eq(users.email, email)).get() ?? null;
}

export function userById(store: Store, id: number): UserRow | null {
  return store.db.select().from(users).where(eq(users.id, id)).get() ?? null;
}

export function userByCustomer(store: Store, customerId: string): UserRow | null {
  return store.db.select().from(users).where(eq(users.stripeCustomerId, customerId)).get() ?? null;
}

/** The email of another user than `exceptUserId` linked to the customer, or null. */
export function customerHolder(store: Store, customerId: string, exceptUserId: number): string | null {
  return store.db.select({ email: users.email }).from(users).where(and(eq(users.stripeCustomerId, customerId), ne(users.id, exceptUserId))).get()?.email ?? null;
}

export interface NewUserRow {
  email: string;
  tier: UserRow['tier'];
  createdAt: string;
  founderPricing?: boolean;
  founderCode?: string;
}

/** Inserts the user and its first token (by hash) in one transaction. */
export function insertUserWithToken(store: Store, user: NewUserRow, tokenHash: string): UserRow {
  return store.db.transaction((tx) => {
    const row = tx.insert(users).values(user).returning().get();
    tx.insert(apiTokens).values({ userId: row.id, tokenHash, createdAt: user.createdAt }).run();
    return row;
  });
}

export function updateUser(store: Store, id: number, patch: UserPatch): void {
  store.db.update(users).set(patch).where(eq(users.id, id)).run();
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
export function usersWithTokenCounts(store: Store): UserTokenCounts[] {
  return store.db
    .select({
      id: users.id,
      email: users.email,
      tier: users.tier,
      createdAt: users.createdAt,
      activeTokens: sql<number>`(select count(*) from ${apiTokens} where ${apiTokens.userId} = ${users.id} and ${apiTokens.revokedAt} is null)`,
      revokedTokens: sql<number>`(select count(*) from ${apiTokens} where ${apiTokens.userId} = ${users.id} and ${apiTokens.revokedAt} is not null)`,
    })
    .from(users)
    .orderBy(users.id)
    .all();
}

export type UserBillingColumns = Pick<UserRow, 'id' | 'founderPricing' | 'stripeCustomerId' | 'subscriptionStatus' | 'graceUntil'>;

export function usersBillingColumns(store: Store): UserBillingColumns[] {
  return store.db
    .select({ id: users.id, founderPricing: users.founderPricing, stripeCustomerId: users.stripeCustomerId, subscriptionStatus: users.subscriptionStatus, graceUntil: users.graceUntil })
    .from(users)
    .all();
}

/** Users with a grace set (expired or not: the caller decides). */
export function usersInGrace(store: Store): Array<Pick<UserRow, 'id' | 'tier' | 'subscriptionStatus' | 'graceUntil'>> {
  return store.db.select({ id: users.id, tier: users.tier, subscriptionStatus: users.subscriptionStatus, graceUntil: users.graceUntil }).from(users).where(isNotNull(users.graceUntil)).all();
}

/** Founders (founder_pricing) whose subscription status is `active`. */
export function countActiveFounders(store: Store): number | null {
  const n = store.db.select({ n: count() }).from(users).where(and(eq(users.founderPricing, true), eq(users.subscriptionStatus, 'active'))).get()?.n;
  return typeof n === 'number' ? n : null;
}

/** Revokes every live token of the user at `at`; returns how many. */
export function revokeTokensOf(store: Store, userId: number, at: string): number {
  return store.db
    .update(apiTokens)
    .set({ revokedAt: at })
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .run().changes;
}

/**
 * The live token's user, prepared once per store: every request with a token resolves it, and
 * building and preparing the query each time cost ~60 us of the ~66 us a resolution took
 * (docs/performance.md). A closed store's statement throws like the query did.
 */
function prepareTokenLookup(store: Store) {
  return store.db
    .select({ id: users.id, email: users.email, tier: users.tier, createdAt: users.createdAt, onboardingComplete: preferences.onboardingComplete })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .leftJoin(preferences, eq(preferences.userId, users.id))
    .where(and(eq(apiTokens.tokenHash, sql.placeholder('tokenHash')), isNull(apiTokens.revokedAt)))
    .prepare();
}
const tokenLookups = new WeakMap<Store, ReturnType<typeof prepareTokenLookup>>();

export type TokenUser = NonNullable<ReturnType<ReturnType<typeof prepareTokenLookup>['get']>>;

/** The user behind a live (unrevoked) token hash, with its onboarding flag; null when none. */
export function userByTokenHash(store: Store, tokenHash: string): TokenUser | null {
  let lookup = tokenLookups.get(store);
  if (lookup === undefined) tokenLookups.set(store, (lookup = prepareTokenLookup(store)));
  return lookup.get({ tokenHash }) ?? null;
}

/** Whether a user with this id exists (a scan is written to a user's ledger only then). */
export function userExists(db: Store['db'], id: number): boolean {
  return db.select({ id: users.id }).from(users).where(eq(users.id, id)).get() !== undefined;
}
