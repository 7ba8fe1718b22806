import type { GameEvent, PropQuote } from '../../domain/entities.js';
import type { GradedSport } from '../../domain/sports.js';
import { STATS, statForMarket, type StatType } from '../../domain/stats.js';
import type { FeedLogger } from '../transport/log.js';
import { collectPrices, detectOddsFormat, toAmerican, type OddsFormat } from './odds-format.js';
import {
  historicalWrapperSchema,
  rawBookmakerSchema,
  rawEventSchema,
  rawEventWithBooksSchema,
  rawMarketSchema,
  rawOutcomeSchema,
  rawSportSchema,
  type HistoricalSnapshot,
  type MmaBookOdds,
  type MmaFightOdds,
  type OutrightBook,
  type SportListing,
} from './schemas.js';
import { readOutcome, sideOf } from './outcome.js';
import { gradedSportForKey, sportForKey } from './sport-keys.js';
import { teamAbbr } from './teams.js';

export const PROVIDER = 'odds-api';

export interface ParseOptions {
  log: FeedLogger;
  /** The oddsFormat the request asked for; only used when a payload's prices cannot tell. */
  requestedFormat?: OddsFormat;
}

/** Counts of dropped or skipped things, reported as one warning per payload. */
class Tally {
  private readonly counts = new Map<string, number>();
  add(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  get total(): number {
    let n = 0;
    for (const v of this.counts.values()) n += v;
    return n;
  }
  report(log: FeedLogger, message: string): void {
    if (this.counts.size === 0) return;
    const detail = Object.fromEntries(this.counts);
    const list = [...this.counts].map(([k, v]) => `${k} (${v})`).join(', ');
    log.warn(`${message}: ${list}`, detail);
  }
}

/** JSON text -> value; a non-JSON body (HTML error page, empty, truncated) is a warning, not a throw. */
export function parseJsonBody(body: string, label: string, log: FeedLogger): { value: unknown } | null {
  if (body.trim() === '') {
    log.warn(`${label}: empty response body`);
    return null;
  }
  try {
    return { value: JSON.parse(body) };
  } catch {
    const head = body.trim().slice(0, 40).replace(/\s+/g, ' ');
    log.warn(`${label}: response is not JSON (starts with ${JSON.stringify(head)})`);
    return null;
  }
}

/** Historical endpoints wrap the live shape; anything else passes through with snapshot null. */
export function unwrapHistorical(raw: unknown): { data: unknown; snapshot: HistoricalSnapshot | null } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || !('data' in raw) || !('timestamp' in raw)) {
    return { data: raw, snapshot: null };
  }
  const parsed = historicalWrapperSchema.safeParse(raw);
  if (!parsed.success) return { data: raw, snapshot: null };
  const w = parsed.data;
  return {
    data: w.data,
    snapshot: { timestamp: w.timestamp, previousTimestamp: w.previous_timestamp ?? null, nextTimestamp: w.next_timestamp ?? null },
  };
}

function describeShape(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? `an object with keys ${Object.keys(value).slice(0, 6).join(',')}` : typeof value;
}

/** Events list (live or historical) -> GameEvents of the sports propgrade serves. */
export function parseEvents(raw: unknown, opts: ParseOptions): GameEvent[] {
  const { data } = unwrapHistorical(raw);
  if (!Array.isArray(data)) {
    opts.log.warn(`odds-api events: expected an array of events, got ${describeShape(data)}`);
    return [];
  }
  const dropped = new Tally();
  const events: GameEvent[] = [];
  for (const item of data) {
    const parsed = rawEventSchema.safeParse(item);
    if (!parsed.success) {
      dropped.add('malformed event');
      continue;
    }
    const e = parsed.data;
    const sport = sportForKey(e.sport_key);
    if (sport === null) {
      dropped.add(`sport key not served: ${e.sport_key}`);
      continue;
    }
    if (!e.home_team || !e.away_team) {
      dropped.add('event without two teams');
      continue;
    }
    events.push({
      provider: PROVIDER,
      id: e.id,
      sport,
      commenceTime: e.commence_time,
      homeTeam: e.home_team,
      awayTeam: e.away_team,
      homeAbbr: teamAbbr(sport, e.home_team),
      awayAbbr: teamAbbr(sport, e.away_team),
    });
  }
  dropped.report(opts.log, `odds-api events: dropped ${dropped.total} of ${data.length}`);
  return events;
}

function payloadFormat(data: unknown, label: string, opts: ParseOptions): OddsFormat | null {
  const format = detectOddsFormat(collectPrices(data), opts.requestedFormat);
  if (format === null) opts.log.warn(`${label}: prices mix American and decimal values; prices left empty`);
  return format;
}

function gradesStat(stat: StatType, sport: GradedSport): boolean {
  return STATS[stat].sports.includes(sport);
}

/**
 * One event-odds payload (live or historical) -> one PropQuote per outcome of each graded player
 * market. Ladders and one-sided markets stay as they are: every (book, player, line, side) is
 * its own quote. Unknown markets are skipped and counted; a bad outcome drops only itself.
 */
export function parseEventPropQuotes(raw: unknown, opts: ParseOptions): PropQuote[] {
  const { data } = unwrapHistorical(raw);
  const parsed = rawEventWithBooksSchema.safeParse(data);
  if (!parsed.success) {
    opts.log.warn(`odds-api event odds: expected one event object with bookmakers, got ${describeShape(data)}`);
    return [];
  }
  const event = parsed.data;
  const label = `odds-api event odds ${event.id}`;
  const sport = gradedSportForKey(event.sport_key);
  if (sport === null) {
    opts.log.warn(`${label}: sport key ${event.sport_key} has no graded props`);
    return [];
  }
  const format = payloadFormat(data, label, opts);
  const skippedMarkets = new Tally();
  const dropped = new Tally();
  const quotes: PropQuote[] = [];

  for (const rawBook of event.bookmakers) {
    const book = rawBookmakerSchema.safeParse(rawBook);
    if (!book.success) {
      dropped.add('malformed bookmaker');
      continue;
    }
    for (const rawMarket of book.data.markets) {
      const market = rawMarketSchema.safeParse(rawMarket);
      if (!market.success) {
        dropped.add(`malformed market at ${book.data.key}`);
        continue;
      }
      const stat = statForMarket(market.data.key);
      if (stat === null || !gradesStat(stat, sport)) {
        skippedMarkets.add(market.data.key);
        continue;
      }
      const lastUpdate = market.data.last_update ?? book.data.last_update ?? null;
      for (const rawOutcome of market.data.outcomes) {
        const outcome = rawOutcomeSchema.safeParse(rawOutcome);
        if (!outcome.success) {
          dropped.add(`malformed outcome in ${market.data.key}`);
          continue;
        }
        const o = outcome.data;
        const read = readOutcome(o, STATS[stat].yesLine);
        if ('drop' in read) {
          dropped.add(read.drop);
          continue;
        }
        const price = toAmerican(o.price, format);
        if (price === null && o.price !== null && o.price !== undefined && format !== null) dropped.add('invalid price kept as null');
        quotes.push({
          eventId: event.id,
          sport,
          book: book.data.key,
          stat,
          player: read.player,
          side: read.side,
          line: read.line,
          price,
          lastUpdate,
        });
      }
    }
  }
  skippedMarkets.report(opts.log, `${label}: skipped ${skippedMarkets.total} markets propgrade does not grade`);
  dropped.report(opts.log, `${label}: dropped ${dropped.total}`);
  return quotes;
}

function eventsOf(data: unknown): unknown[] | null {
  if (Array.isArray(data)) return data;
  if (data !== null && typeof data === 'object') return [data];
  return null;
}

/** /v4/sports/mma_mixed_martial_arts/odds (h2h, totals) -> bouts with each book's prices. */
export function parseMmaFightOdds(raw: unknown, opts: ParseOptions): MmaFightOdds[] {
  const { data } = unwrapHistorical(raw);
  const items = eventsOf(data);
  if (items === null) {
    opts.log.warn(`odds-api mma odds: expected an array of events, got ${describeShape(data)}`);
    return [];
  }
  const label = 'odds-api mma odds';
  const format = payloadFormat(data, label, opts);
  const skippedMarkets = new Tally();
  const dropped = new Tally();
  const fights: MmaFightOdds[] = [];

  for (const item of items) {
    const parsed = rawEventWithBooksSchema.safeParse(item);
    if (!parsed.success) {
      dropped.add('malformed event');
      continue;
    }
    const e = parsed.data;
    if (sportForKey(e.sport_key) !== 'mma' || !e.home_team || !e.away_team) {
      dropped.add(e.sport_key === 'mma_mixed_martial_arts' ? 'bout without two fighters' : `not an mma event: ${e.sport_key}`);
      continue;
    }
    const fighters: [string, string] = [e.home_team, e.away_team];
    const books: MmaBookOdds[] = [];
    for (const rawBook of e.bookmakers) {
      const book = rawBookmakerSchema.safeParse(rawBook);
      if (!book.success) {
        dropped.add('malformed bookmaker');
        continue;
      }
      const odds: MmaBookOdds = { book: book.data.key, lastUpdate: book.data.last_update ?? null, moneyline: [], totals: [] };
      for (const rawMarket of book.data.markets) {
        const market = rawMarketSchema.safeParse(rawMarket);
        if (!market.success) {
          dropped.add('malformed market');
          continue;
        }
        const kind = market.data.key;
        if (kind !== 'h2h' && kind !== 'totals') {
          skippedMarkets.add(kind);
          continue;
        }
        odds.lastUpdate = market.data.last_update ?? odds.lastUpdate;
        for (const rawOutcome of market.data.outcomes) {
          const outcome = rawOutcomeSchema.safeParse(rawOutcome);
          if (!outcome.success) {
            dropped.add(`malformed ${kind} outcome`);
            continue;
          }
          const o = outcome.data;
          const price = toAmerican(o.price, format);
          if (kind === 'h2h') {
            if (!fighters.includes(o.name)) {
              dropped.add('moneyline outcome for neither fighter');
              continue;
            }
            odds.moneyline.push({ fighter: o.name, price });
          } else {
            const side = sideOf(o.name);
            if (side === null) {
              dropped.add(`totals outcome "${o.name}" is not Over/Under`);
              continue;
            }
            odds.totals.push({ side, rounds: o.point ?? null, price });
          }
        }
      }
      if (odds.moneyline.length > 0 || odds.totals.length > 0) books.push(odds);
    }
    fights.push({ eventId: e.id, commenceTime: e.commence_time, fighters, books });
  }
  skippedMarkets.report(opts.log, `${label}: skipped ${skippedMarkets.total} markets other than h2h/totals`);
  dropped.report(opts.log, `${label}: dropped ${dropped.total}`);
  return fights;
}

/** /v4/sports/{futures key}/odds?markets=outrights -> each book's futures board. */
export function parseOutrights(raw: unknown, opts: ParseOptions): OutrightBook[] {
  const { data } = unwrapHistorical(raw);
  const items = eventsOf(data);
  if (items === null) {
    opts.log.warn(`odds-api outrights: expected an array of events, got ${describeShape(data)}`);
    return [];
  }
  const label = 'odds-api outrights';
  const format = payloadFormat(data, label, opts);
  const skippedMarkets = new Tally();
  const dropped = new Tally();
  const boards: OutrightBook[] = [];

  for (const item of items) {
    const parsed = rawEventWithBooksSchema.safeParse(item);
    if (!parsed.success) {
      dropped.add('malformed event');
      continue;
    }
    const e = parsed.data;
    for (const rawBook of e.bookmakers) {
      const book = rawBookmakerSchema.safeParse(rawBook);
      if (!book.success) {
        dropped.add('malformed bookmaker');
        continue;
      }
      for (const rawMarket of book.data.markets) {
        const market = rawMarketSchema.safeParse(rawMarket);
        if (!market.success || market.data.key !== 'outrights') {
          skippedMarkets.add(market.success ? market.data.key : 'malformed market');
          continue;
        }
        const selections: OutrightBook['selections'] = [];
        for (const rawOutcome of market.data.outcomes) {
          const outcome = rawOutcomeSchema.safeParse(rawOutcome);
          if (!outcome.success) {
            dropped.add('malformed selection');
            continue;
          }
          selections.push({ name: outcome.data.name, price: toAmerican(outcome.data.price, format) });
        }
        boards.push({
          eventId: e.id,
          sportKey: e.sport_key,
          title: e.sport_title ?? null,
          book: book.data.key,
          lastUpdate: market.data.last_update ?? book.data.last_update ?? null,
          selections,
        });
      }
    }
  }
  skippedMarkets.report(opts.log, `${label}: skipped ${skippedMarkets.total} markets`);
  dropped.report(opts.log, `${label}: dropped ${dropped.total}`);
  return boards;
}

/** /v4/sports -> the sports list. */
export function parseSportsList(raw: unknown, opts: ParseOptions): SportListing[] {
  if (!Array.isArray(raw)) {
    opts.log.warn(`odds-api sports: expected an array, got ${describeShape(raw)}`);
    return [];
  }
  const dropped = new Tally();
  const sports: SportListing[] = [];
  for (const item of raw) {
    const parsed = rawSportSchema.safeParse(item);
    if (!parsed.success) {
      dropped.add('malformed sport');
      continue;
    }
    const s = parsed.data;
    sports.push({ key: s.key, group: s.group, title: s.title, description: s.description, active: s.active, hasOutrights: s.has_outrights });
  }
  dropped.report(opts.log, `odds-api sports: dropped ${dropped.total} of ${raw.length}`);
  return sports;
}
