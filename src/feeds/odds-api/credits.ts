import { z } from 'zod';
import type { BookSelection } from './urls.js';

/**
 * Usage-credit arithmetic for The Odds API v4 (pure). Sources, as cited in
 * shared/feeds/odds-api/NOTES.md §3:
 * - odds and event odds: "[number of markets] x [number of regions]" (official samples-python
 *   `odds.py`, pointing at the v4 guide #usage-quota-costs);
 * - historical odds / historical event odds: "10 x [markets] x [regions]" (samples-python
 *   `historical_odds.py`, `historical_event_odds.py`, guide #usage-quota-costs-3);
 * - a `bookmakers` list: "every group of 10 bookmakers counts as 1 request" (oddsapiR docs);
 * - /v4/sports and /v4/sports/{sport}/events do not count against the quota.
 * Event odds may bill the markets *returned* rather than requested (not verified, NOTES §3), so the
 * estimate here is an upper bound; the `x-requests-last` header is what a budget finally spends.
 */
export const HISTORICAL_MULTIPLIER = 10;
export const BOOKS_PER_REGION = 10;
/**
 * Historical /events: not covered by the sources above (NOTES §3 lists it as unverified). Counted
 * as 1 credit so a budget never assumes it free; the response's x-requests-last corrects it.
 */
export const HISTORICAL_EVENTS_COST = 1;

export type CreditCall =
  | { endpoint: 'sports' | 'events' | 'historical-events' }
  | {
      endpoint: 'odds' | 'event-odds' | 'historical-odds' | 'historical-event-odds';
      markets: readonly string[];
      books: BookSelection;
    };

/** Billing regions of a book selection: the regions, or one per started group of 10 bookmakers. */
export function regionUnits(books: BookSelection): number {
  if ('bookmakers' in books) return Math.ceil(new Set(books.bookmakers).size / BOOKS_PER_REGION);
  return new Set(books.regions).size;
}

/** Estimated credits for one call (duplicate market or region names are not billed twice). */
export function creditCost(call: CreditCall): number {
  switch (call.endpoint) {
    case 'sports':
    case 'events':
      return 0;
    case 'historical-events':
      return HISTORICAL_EVENTS_COST;
    case 'odds':
    case 'event-odds':
      return new Set(call.markets).size * regionUnits(call.books);
    case 'historical-odds':
    case 'historical-event-odds':
      return HISTORICAL_MULTIPLIER * new Set(call.markets).size * regionUnits(call.books);
  }
}

export const creditHeadersSchema = z.object({
  /** Credits left until the quota resets. */
  remaining: z.number().nullable(),
  /** Credits used since the last reset. */
  used: z.number().nullable(),
  /** What the last call cost. */
  last: z.number().nullable(),
});
export type CreditHeaders = z.infer<typeof creditHeadersSchema>;

function headerNumber(value: string | undefined): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : null;
}

/** Reads x-requests-remaining/used/last (strings on the wire); null when none is present. */
export function parseCreditHeaders(headers: Readonly<Record<string, string | undefined>>): CreditHeaders | null {
  const lower: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
  const names = ['x-requests-remaining', 'x-requests-used', 'x-requests-last'];
  if (!names.some((n) => lower[n] !== undefined)) return null;
  return {
    remaining: headerNumber(lower['x-requests-remaining']),
    used: headerNumber(lower['x-requests-used']),
    last: headerNumber(lower['x-requests-last']),
  };
}

export const budgetStateSchema = z.object({
  /** Daily credit limit; null = unlimited. */
  limit: z.number().nullable(),
  /** Credits spent today, including what earlier runs spent. */
  spent: z.number(),
  calls: z.number().int(),
  /** Calls not made because they would have crossed the limit. */
  refused: z.number().int(),
  /** The provider's own count from the latest response, when it sent one. */
  providerRemaining: z.number().nullable(),
});
export type BudgetState = z.infer<typeof budgetStateSchema>;

export interface CreditBudget {
  canSpend(cost: number): boolean;
  spend(cost: number): void;
  /**
   * Holds `cost` against the limit while a call is in flight, so calls made at once cannot all pass
   * canSpend and overspend together; `settle` releases it and spends what the call really cost
   * (null: no answer, nothing spent).
   */
  reserve(cost: number): { settle(actual: number | null): void };
  /** Feeds the provider's x-requests-* numbers back in: remaining caps what can still be spent. */
  observe(credits: CreditHeaders | null): void;
  /** Counts a refused call and says why, for the run log. */
  refuse(cost: number): string;
  state(): BudgetState;
}

/** A daily credit guard; `spentToday` carries what earlier runs of the same day used. */
export function createBudget(dailyLimit: number | null, spentToday = 0): CreditBudget {
  const state: BudgetState = { limit: dailyLimit, spent: spentToday, calls: 0, refused: 0, providerRemaining: null };
  let inFlight = 0;
  const spend = (cost: number) => {
    state.spent += cost;
    state.calls += 1;
  };
  return {
    canSpend(cost) {
      if (state.limit !== null && state.spent + inFlight + cost > state.limit) return false;
      if (state.providerRemaining !== null && inFlight + cost > state.providerRemaining) return false;
      return true;
    },
    spend,
    reserve(cost) {
      inFlight += cost;
      let open = true;
      return {
        settle(actual) {
          if (!open) return;
          open = false;
          inFlight -= cost;
          if (actual !== null) spend(actual);
        },
      };
    },
    observe(credits) {
      if (credits?.remaining !== null && credits?.remaining !== undefined) state.providerRemaining = credits.remaining;
    },
    refuse(cost) {
      state.refused += 1;
      if (state.providerRemaining !== null && cost > state.providerRemaining) {
        return `provider credit quota reached: call needs ${cost} credits, provider reports ${state.providerRemaining} remaining`;
      }
      const left = state.limit === null ? 0 : Math.max(0, state.limit - state.spent);
      return `daily credit budget reached: call needs ${cost} credits, ${left} of ${state.limit} left today`;
    },
    state() {
      return { ...state };
    },
  };
}
