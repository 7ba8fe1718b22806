import {
  parseEventPropQuotes,
  parseEvents,
  parseJsonBody,
  parseMmaFightOdds,
  parseOutrights,
  parseSportsList,
  unwrapHistorical,
  type OddsFormat,
} from '../odds-api/index.js';
import type { FeedLogger } from '../transport/log.js';
import { matches, type FeedKind } from './kind.js';

/** The Odds API v4 responses propgrade reads, each parsed by its adapter. */

function oddsJson(body: string, label: string, log: FeedLogger): unknown {
  return parseJsonBody(body, `odds-api ${label}`, log)?.value ?? null;
}

function requestedFormat(url: URL): { requestedFormat?: OddsFormat } {
  const f = url.searchParams.get('oddsFormat');
  return f === 'american' || f === 'decimal' ? { requestedFormat: f } : {};
}

/** Historical endpoints must answer in their wrapper; a bare payload is worth a warning. */
function warnIfNotWrapped(json: unknown, label: string, log: FeedLogger): void {
  if (unwrapHistorical(json).snapshot === null) log.warn(`odds-api ${label}: no historical wrapper {timestamp, data} around the payload`);
}

const ODDS_EVENTS = 'v4/sports/:sport/events';
const ODDS_HIST_EVENTS = 'v4/historical/sports/:sport/events';
const ODDS_EVENT_ODDS = 'v4/sports/:sport/events/:id/odds';
const ODDS_HIST_EVENT_ODDS = 'v4/historical/sports/:sport/events/:id/odds';
const ODDS_SPORT_ODDS = 'v4/sports/:sport/odds';

export const ODDS_API_KINDS: readonly FeedKind[] = [
  {
    provider: 'odds-api',
    kind: 'sports list',
    unit: 'sports',
    match: matches('v4/sports'),
    parse: (body, _url, log) => {
      const json = oddsJson(body, 'sports', log);
      return json === null ? null : parseSportsList(json, { log }).length;
    },
  },
  {
    provider: 'odds-api',
    kind: 'events',
    unit: 'events',
    match: matches(ODDS_EVENTS),
    parse: (body, _url, log) => {
      const json = oddsJson(body, 'events', log);
      return json === null ? null : parseEvents(json, { log }).length;
    },
  },
  {
    provider: 'odds-api',
    kind: 'historical events',
    unit: 'events',
    match: matches(ODDS_HIST_EVENTS),
    parse: (body, _url, log) => {
      const json = oddsJson(body, 'historical events', log);
      if (json === null) return null;
      warnIfNotWrapped(json, 'historical events', log);
      return parseEvents(json, { log }).length;
    },
  },
  {
    provider: 'odds-api',
    kind: 'event odds (player props)',
    unit: 'quotes',
    match: matches(ODDS_EVENT_ODDS),
    parse: (body, url, log) => {
      const json = oddsJson(body, 'event odds', log);
      return json === null ? null : parseEventPropQuotes(json, { log, ...requestedFormat(url) }).length;
    },
  },
  {
    provider: 'odds-api',
    kind: 'historical event odds',
    unit: 'quotes',
    match: matches(ODDS_HIST_EVENT_ODDS),
    parse: (body, url, log) => {
      const json = oddsJson(body, 'historical event odds', log);
      if (json === null) return null;
      warnIfNotWrapped(json, 'historical event odds', log);
      return parseEventPropQuotes(json, { log, ...requestedFormat(url) }).length;
    },
  },
  {
    provider: 'odds-api',
    kind: 'outrights (futures)',
    unit: 'boards',
    match: matches(ODDS_SPORT_ODDS, (p) => p['sport']!.endsWith('_winner')),
    parse: (body, url, log) => {
      const json = oddsJson(body, 'outrights', log);
      return json === null ? null : parseOutrights(json, { log, ...requestedFormat(url) }).length;
    },
  },
  {
    // propgrade reads featured markets (/odds) only for MMA; other sports' boards drop with a warning.
    provider: 'odds-api',
    kind: 'featured odds (mma h2h/totals)',
    unit: 'bouts',
    match: matches(ODDS_SPORT_ODDS, (p) => !p['sport']!.endsWith('_winner')),
    parse: (body, url, log) => {
      const json = oddsJson(body, 'featured odds', log);
      return json === null ? null : parseMmaFightOdds(json, { log, ...requestedFormat(url) }).length;
    },
  },
];
