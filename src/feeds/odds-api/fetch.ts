import type { GameEvent, PropQuote } from '../../domain/entities.js';
import { STATS, statForMarket } from '../../domain/stats.js';
import type { FeedLogger } from '../transport/log.js';
import type { Transport } from '../transport/types.js';
import { creditCost, parseCreditHeaders, type CreditBudget, type CreditCall, type CreditHeaders } from './credits.js';
import {
  parseEventPropQuotes,
  parseEvents,
  parseJsonBody,
  parseMmaFightOdds,
  parseOutrights,
  parseSportsList,
  unwrapHistorical,
} from './parse.js';
import type { HistoricalSnapshot, MmaFightOdds, OutrightBook, SportListing } from './schemas.js';
import { gradedSportForKey, SPORT_KEYS } from './sport-keys.js';
import {
  eventOddsUrl,
  eventsUrl,
  historicalEventOddsUrl,
  historicalEventsUrl,
  outrightsUrl,
  sportOddsUrl,
  sportsUrl,
  type BookSelection,
} from './urls.js';

export interface OddsApiOptions {
  /** ODDS_API_KEY; sent only on the wire (secretQuery). Replay needs none. */
  apiKey?: string | undefined;
  log: FeedLogger;
  /** Base URL override (tests use a loopback server). */
  base?: string;
}

export interface PricedOptions extends OddsApiOptions {
  /** Regions, or an allowed-books list (ALLOWED_BOOKS). */
  books: BookSelection;
  /** Daily credit guard; a call that would cross it is not made. Futures calls pass none. */
  budget?: CreditBudget;
}

/** Every fetch answers with its records, the provider's credit headers, and why it failed if it did. */
interface CallMeta {
  credits: CreditHeaders | null;
  /** null on success; otherwise the reason (unavailable, not JSON, budget reached). */
  error: string | null;
}

type CallResult = ({ ok: true; value: unknown } | { ok: false }) & CallMeta;

async function call(transport: Transport, url: string, what: string, cost: CreditCall, opts: OddsApiOptions & { budget?: CreditBudget }): Promise<CallResult> {
  const estimate = creditCost(cost);
  if (opts.budget && !opts.budget.canSpend(estimate)) {
    const error = opts.budget.refuse(estimate);
    opts.log.warn(`odds-api ${what}: not requested, ${error}`);
    return { ok: false, credits: null, error };
  }
  const held = opts.budget?.reserve(estimate);
  const outcome = await transport.fetch({
    provider: 'odds-api',
    url,
    accept: 'json',
    ...(opts.apiKey ? { secretQuery: { apiKey: opts.apiKey } } : {}),
  });
  const credits = outcome.ok ? parseCreditHeaders(outcome.headers) : null;
  if (opts.budget) {
    opts.budget.observe(credits);
    // The provider's own count of what the call cost wins over the estimate.
    held?.settle(outcome.ok ? (credits?.last ?? estimate) : null);
  }
  if (!outcome.ok) {
    // The Odds API answers 401 for a wrong key and for a spent quota alike: say so, not just the status.
    const error = outcome.status === 401 ? 'The Odds API refused the key (HTTP 401): ODDS_API_KEY is wrong or its quota is used up' : `unavailable: ${outcome.reason}`;
    opts.log.warn(`odds-api ${what}: ${error}`);
    return { ok: false, credits, error };
  }
  const json = parseJsonBody(outcome.body, `odds-api ${what}`, opts.log);
  if (json === null) return { ok: false, credits, error: 'response is not JSON' };
  return { ok: true, value: json.value, credits, error: null };
}

/** GET /v4/sports (free). */
export async function fetchSports(transport: Transport, opts: OddsApiOptions): Promise<CallMeta & { sports: SportListing[] }> {
  const res = await call(transport, sportsUrl(opts), 'sports', { endpoint: 'sports' }, opts);
  return { sports: res.ok ? parseSportsList(res.value, opts) : [], credits: res.credits, error: res.error };
}

/** Events of one sport key (free); `date` asks the historical endpoint for the snapshot at or before it. */
export async function fetchEvents(
  transport: Transport,
  sportKey: string,
  opts: OddsApiOptions & { commenceTimeFrom?: string; commenceTimeTo?: string; date?: string; budget?: CreditBudget },
): Promise<CallMeta & { events: GameEvent[]; snapshot: HistoricalSnapshot | null }> {
  const historical = opts.date !== undefined;
  const url = historical
    ? historicalEventsUrl(sportKey, opts.date as string, opts)
    : eventsUrl(sportKey, {
        ...(opts.base ? { base: opts.base } : {}),
        ...(opts.commenceTimeFrom ? { commenceTimeFrom: opts.commenceTimeFrom } : {}),
        ...(opts.commenceTimeTo ? { commenceTimeTo: opts.commenceTimeTo } : {}),
      });
  const res = await call(transport, url, `events ${sportKey}`, { endpoint: historical ? 'historical-events' : 'events' }, opts);
  if (!res.ok) return { events: [], snapshot: null, credits: res.credits, error: res.error };
  return { events: parseEvents(res.value, opts), snapshot: unwrapHistorical(res.value).snapshot, credits: res.credits, error: null };
}

/**
 * Player-prop quotes for one event. Only markets propgrade grades for that sport are requested
 * (each market costs credits); the rest are dropped from the request with a warning.
 */
export async function fetchEventPropQuotes(
  transport: Transport,
  sportKey: string,
  eventId: string,
  markets: readonly string[],
  opts: PricedOptions & { date?: string },
): Promise<CallMeta & { quotes: PropQuote[]; snapshot: HistoricalSnapshot | null }> {
  const sport = gradedSportForKey(sportKey);
  const gradable = [...new Set(markets)].filter((m) => {
    const stat = statForMarket(m);
    return sport !== null && stat !== null && STATS[stat].sports.includes(sport);
  });
  const ungraded = markets.filter((m) => !gradable.includes(m));
  if (ungraded.length > 0) opts.log.warn(`odds-api event odds ${eventId}: not requesting markets propgrade cannot grade for ${sportKey}: ${ungraded.join(', ')}`);
  if (gradable.length === 0) return { quotes: [], snapshot: null, credits: null, error: 'no gradable markets requested' };

  const historical = opts.date !== undefined;
  const url = historical
    ? historicalEventOddsUrl(sportKey, eventId, opts.date as string, gradable, opts.books, opts)
    : eventOddsUrl(sportKey, eventId, gradable, opts.books, opts);
  const cost: CreditCall = { endpoint: historical ? 'historical-event-odds' : 'event-odds', markets: gradable, books: opts.books };
  const res = await call(transport, url, `event odds ${eventId}`, cost, opts);
  if (!res.ok) return { quotes: [], snapshot: null, credits: res.credits, error: res.error };
  return {
    quotes: parseEventPropQuotes(res.value, { log: opts.log, requestedFormat: 'american' }),
    snapshot: unwrapHistorical(res.value).snapshot,
    credits: res.credits,
    error: null,
  };
}

/** MMA featured markets: moneyline (h2h) and round totals for every listed bout. */
export async function fetchMmaFightOdds(transport: Transport, opts: PricedOptions): Promise<CallMeta & { fights: MmaFightOdds[] }> {
  const markets = ['h2h', 'totals'];
  const url = sportOddsUrl(SPORT_KEYS.mma, markets, opts.books, opts);
  const res = await call(transport, url, 'mma odds', { endpoint: 'odds', markets, books: opts.books }, opts);
  return { fights: res.ok ? parseMmaFightOdds(res.value, { log: opts.log, requestedFormat: 'american' }) : [], credits: res.credits, error: res.error };
}

/** Futures boards for one `*_winner` key. Sits outside the daily budget (its own TTL), so no budget here. */
export async function fetchOutrights(
  transport: Transport,
  futuresKey: string,
  opts: Omit<PricedOptions, 'budget'>,
): Promise<CallMeta & { boards: OutrightBook[] }> {
  const url = outrightsUrl(futuresKey, opts.books, opts);
  const res = await call(transport, url, `outrights ${futuresKey}`, { endpoint: 'odds', markets: ['outrights'], books: opts.books }, opts);
  return { boards: res.ok ? parseOutrights(res.value, { log: opts.log, requestedFormat: 'american' }) : [], credits: res.credits, error: res.error };
}
