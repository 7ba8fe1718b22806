/** URL builders for The Odds API v4. Credentials never go here: the apiKey travels in `secretQuery`. */
export const ODDS_API_BASE = 'https://api.the-odds-api.com';

/** Which books to price: whole regions, or an explicit allow-list (billed per 10 books, see credits.ts). */
export type BookSelection = { regions: readonly string[] } | { bookmakers: readonly string[] };

export interface UrlOptions {
  /** Tests point this at a loopback server. */
  base?: string;
}

function build(base: string | undefined, path: string, params: Array<[string, string | undefined]>): string {
  const query = params
    .filter((p): p is [string, string] => p[1] !== undefined)
    // Commas stay literal so a URL reads the way the API documents it.
    .map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2C/gi, ',')}`)
    .join('&');
  return `${(base ?? ODDS_API_BASE).replace(/\/+$/, '')}${path}${query ? `?${query}` : ''}`;
}

const seg = encodeURIComponent;

function bookParams(books: BookSelection): Array<[string, string]> {
  return 'bookmakers' in books ? [['bookmakers', books.bookmakers.join(',')]] : [['regions', books.regions.join(',')]];
}

/** GET /v4/sports (free). */
export function sportsUrl(opts: UrlOptions = {}): string {
  return build(opts.base, '/v4/sports', []);
}

/** GET /v4/sports/{sport}/events (free). */
export function eventsUrl(sportKey: string, opts: UrlOptions & { commenceTimeFrom?: string; commenceTimeTo?: string } = {}): string {
  return build(opts.base, `/v4/sports/${seg(sportKey)}/events`, [
    ['dateFormat', 'iso'],
    ['commenceTimeFrom', opts.commenceTimeFrom],
    ['commenceTimeTo', opts.commenceTimeTo],
  ]);
}

/** GET /v4/sports/{sport}/events/{id}/odds: the only endpoint that serves player props. */
export function eventOddsUrl(sportKey: string, eventId: string, markets: readonly string[], books: BookSelection, opts: UrlOptions = {}): string {
  return build(opts.base, `/v4/sports/${seg(sportKey)}/events/${seg(eventId)}/odds`, [
    ...bookParams(books),
    ['markets', markets.join(',')],
    ['oddsFormat', 'american'],
    ['dateFormat', 'iso'],
  ]);
}

/** GET /v4/sports/{sport}/odds: featured markets for every event (MMA h2h,totals; futures outrights). */
export function sportOddsUrl(sportKey: string, markets: readonly string[], books: BookSelection, opts: UrlOptions = {}): string {
  return build(opts.base, `/v4/sports/${seg(sportKey)}/odds`, [
    ...bookParams(books),
    ['markets', markets.join(',')],
    ['oddsFormat', 'american'],
    ['dateFormat', 'iso'],
  ]);
}

/** Futures: the `outrights` market of a `*_winner` key. */
export function outrightsUrl(futuresKey: string, books: BookSelection, opts: UrlOptions = {}): string {
  return sportOddsUrl(futuresKey, ['outrights'], books, opts);
}

/** GET /v4/historical/sports/{sport}/events?date=: the snapshot at or before `date`. */
export function historicalEventsUrl(sportKey: string, date: string, opts: UrlOptions = {}): string {
  return build(opts.base, `/v4/historical/sports/${seg(sportKey)}/events`, [
    ['date', date],
    ['dateFormat', 'iso'],
  ]);
}

/** GET /v4/historical/sports/{sport}/events/{id}/odds?date= (paid plans; 10x credits). */
export function historicalEventOddsUrl(
  sportKey: string,
  eventId: string,
  date: string,
  markets: readonly string[],
  books: BookSelection,
  opts: UrlOptions = {},
): string {
  return build(opts.base, `/v4/historical/sports/${seg(sportKey)}/events/${seg(eventId)}/odds`, [
    ...bookParams(books),
    ['markets', markets.join(',')],
    ['date', date],
    ['oddsFormat', 'american'],
    ['dateFormat', 'iso'],
  ]);
}
