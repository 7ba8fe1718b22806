import { z } from 'zod';
import { sportSchema, type Sport } from '../domain/sports.js';
import type { Store } from '../store/db.js';
import { preferencesOf, upsertPreferences } from '../store/repo/preferences.js';
import { immediate } from '../store/repo/tx.js';

/**
 * Per-user preferences (spec "Preferences"): sports, books, a bankroll limit and
 * onboarding_complete. An update merges partially (fields not sent stay as they were); values are
 * sanitized (trimmed, lower-cased, duplicates dropped in first-seen order); an unknown sport, book
 * or field is a 400 naming it. docs/accounts.md documents every rule.
 */

/**
 * Book keys a user may choose: The Odds API bookmaker keys propgrade has recorded prices from (the
 * `us` region of data/replay and test/fixtures/odds-api), plus the two books the slip reader knows
 * that sit in other Odds API regions (`hardrockbet` in us2, `prizepicks` in us_dfs). Keys, not
 * display names: `williamhill_us` is Caesars, as the feed spells it.
 */
export const KNOWN_BOOKS = [
  'betmgm',
  'betonlineag',
  'betrivers',
  'betus',
  'bovada',
  'draftkings',
  'fanatics',
  'fanduel',
  'hardrockbet',
  'mybookieag',
  'prizepicks',
  'williamhill_us',
] as const;
export type BookKey = (typeof KNOWN_BOOKS)[number];

/** The bankroll limit is in US dollars, stored to the cent, at most this much. */
export const BANKROLL_LIMIT_MAX = 1_000_000;
/** A list longer than this (before duplicates are dropped) is refused, so a huge array costs nothing. */
export const PREFERENCE_LIST_MAX = 50;
const ITEM_MAX_CHARS = 40;

/** Where a client sends a user who still has to onboard. */
export const ONBOARDING_PATH = '/onboarding';
/** The response header that carries the same signal on auth routes. */
export const ONBOARDING_HEADER = 'x-onboarding-required';

const bookSchema = z.enum(KNOWN_BOOKS);

function listOf<T extends string>(item: z.ZodEnum<{ [K in T]: K }>, what: string) {
  return z
    .array(
      z
        .string()
        .max(ITEM_MAX_CHARS)
        // Documents the accepted values (trimmed and lower-cased first) in /openapi.json.
        .meta({ enum: item.options })
        .transform((s) => s.trim().toLowerCase())
        .pipe(item),
    )
    .max(PREFERENCE_LIST_MAX, `at most ${PREFERENCE_LIST_MAX} ${what}`)
    .transform((items) => [...new Set(items)]);
}

export const PREFERENCE_FIELDS = ['sports', 'books', 'bankroll_limit', 'onboarding_complete'] as const;

/**
 * POST /api/preferences body: every field optional, nothing else allowed (an unknown field is a
 * 400 naming it: a typo such as `bankroll` must not look like a saved change). `bankroll_limit`
 * null clears it.
 */
export const preferencesUpdateSchema = z.strictObject(
  {
    sports: listOf(sportSchema, 'sports').optional().describe(`subset of ${sportSchema.options.join(', ')}`),
    books: listOf(bookSchema, 'books').optional().describe(`Odds API book keys: ${KNOWN_BOOKS.join(', ')}`),
    bankroll_limit: z
      .number()
      .min(0.01)
      .max(BANKROLL_LIMIT_MAX)
      .transform((v) => Math.round(v * 100) / 100)
      .nullable()
      .optional()
      .describe(`US dollars, 0.01 to ${BANKROLL_LIMIT_MAX}, kept to the cent; null clears it`),
    onboarding_complete: z.boolean().optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => `'${k}'`).join(', ')} (known: ${PREFERENCE_FIELDS.join(', ')})` : undefined,
  },
);
export type PreferencesUpdate = z.infer<typeof preferencesUpdateSchema>;

export interface Preferences {
  sports: Sport[];
  books: BookKey[];
  /** US dollars; null when the user has not set one. */
  bankrollLimit: number | null;
  onboardingComplete: boolean;
  /** When they were last saved; null when never. */
  updatedAt: string | null;
}

/** A user who never saved preferences has chosen nothing yet: empty lists, no limit, not onboarded. */
const NONE: Preferences = { sports: [], books: [], bankrollLimit: null, onboardingComplete: false, updatedAt: null };

/** Stored lists are re-read through the same rules, so a value that stopped being known is dropped, not served. */
function known<T extends string>(values: unknown, allowed: readonly T[]): T[] {
  if (!Array.isArray(values)) return [];
  return values.filter((v): v is T => typeof v === 'string' && (allowed as readonly string[]).includes(v));
}

export async function getPreferences(store: Store, userId: number): Promise<Preferences> {
  const row = await preferencesOf(store, userId);
  if (!row) return { ...NONE };
  return {
    sports: known(row.sports, sportSchema.options),
    books: known(row.books, KNOWN_BOOKS),
    bankrollLimit: row.bankrollLimit,
    onboardingComplete: row.onboardingComplete,
    updatedAt: row.updatedAt,
  };
}

/** Merges a validated update into the stored preferences in one transaction and returns the result. */
export async function updatePreferences(store: Store, userId: number, update: PreferencesUpdate, now: Date): Promise<Preferences> {
  return immediate(store, async (tx) => {
    const current = await getPreferences(tx, userId);
    const next: Preferences = {
      sports: update.sports ?? current.sports,
      books: update.books ?? current.books,
      bankrollLimit: update.bankroll_limit === undefined ? current.bankrollLimit : update.bankroll_limit,
      onboardingComplete: update.onboarding_complete ?? current.onboardingComplete,
      updatedAt: now.toISOString(),
    };
    await upsertPreferences(tx, userId, { sports: next.sports, books: next.books, bankrollLimit: next.bankrollLimit, onboardingComplete: next.onboardingComplete, updatedAt: next.updatedAt! });
    return next;
  });
}

export type OnboardingState = { required: true; redirect: string; reason: 'new_user' } | { required: false; reason: 'complete' | 'exempt' };

/**
 * The onboarding rule (spec "Preferences"): a user created on or after the cutoff (00:00 UTC of
 * ONBOARDING_CUTOFF) without onboarding_complete is sent to ONBOARDING_PATH; users created before
 * it are exempt. Setting onboarding_complete ends it.
 */
export function onboardingFor(user: { createdAt: string; onboardingComplete: boolean }, cutoff: string): OnboardingState {
  if (user.onboardingComplete) return { required: false, reason: 'complete' };
  const created = Date.parse(user.createdAt);
  const from = Date.parse(`${cutoff}T00:00:00Z`);
  if (!(created >= from)) return { required: false, reason: 'exempt' };
  return { required: true, redirect: ONBOARDING_PATH, reason: 'new_user' };
}
