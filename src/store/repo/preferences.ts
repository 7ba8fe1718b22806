import { eq } from 'drizzle-orm';
import type { Store } from '../db.js';
import type { preferences } from '../schema.js';
import { on, onWrite } from './handle.js';

/** preferences: one row per user, written whole (src/accounts/preferences.ts merges and sanitizes). */

export type PreferencesRow = typeof preferences.$inferSelect;
export type PreferencesValues = Omit<PreferencesRow, 'userId'>;

export async function preferencesOf(store: Store, userId: number): Promise<PreferencesRow | null> {
  const { db, t } = await on(store);
  const [row] = await db.select().from(t.preferences).where(eq(t.preferences.userId, userId)).limit(1);
  return row ?? null;
}

export async function upsertPreferences(store: Store, userId: number, values: PreferencesValues): Promise<void> {
  return onWrite(store, async ({ db, t }) => {
    await db
      .insert(t.preferences)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: t.preferences.userId, set: values });
  });
}
