import { eq } from 'drizzle-orm';
import type { Store } from '../db.js';
import { preferences } from '../schema.js';

/** preferences: one row per user, written whole (src/accounts/preferences.ts merges and sanitizes). */

export type PreferencesRow = typeof preferences.$inferSelect;
export type PreferencesValues = Omit<PreferencesRow, 'userId'>;

export function preferencesOf(store: Store, userId: number): PreferencesRow | null {
  return store.db.select().from(preferences).where(eq(preferences.userId, userId)).get() ?? null;
}

export function upsertPreferences(store: Store, userId: number, values: PreferencesValues): void {
  store.db
    .insert(preferences)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: preferences.userId, set: values })
    .run();
}
