/**
 * One real EPL matchday (Saturday 2025-09-27, gameweek 6: 7 matches) in The Odds API's own
 * response shapes, built from the real prices in test/fixtures/soccer-epl-props-2025-09-27.csv.gz
 * (see test/fixtures/soccer-epl-matchday-2025-09-27.PROVENANCE.md). No recorded Odds API payload
 * holds EPL player props, so the shapes are those of the recorded soccer event odds
 * (shared/feeds/odds-api soccer-bundesliga-*: an events array; one event object whose bookmakers
 * carry `key`, `title`, `markets[{key, last_update, outcomes}]`, decimal prices) and, for the
 * anytime goalscorer, the Odds API's Yes/No outcome `{name: "Yes"|"No", description: <player>}`.
 * Every price is the book's decimal price as scraped; nothing is converted or invented.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export const PROPS_FIXTURE = 'test/fixtures/soccer-epl-props-2025-09-27.csv.gz';
export const MATCHES_FIXTURE = 'test/fixtures/soccer-epl-matches-2025-09-27.csv';
/** The scrape the prices come from (the props file's snapshot_utc). */
export const SNAPSHOT_UTC = '2025-09-27T08:34:05Z';

/** Rows as `{column: value}`; neither file quotes a field (NOTES.md §6-7). */
export function csvRows(text: string): Record<string, string>[] {
  const [head, ...rest] = text.trim().split('\n') as [string, ...string[]];
  const cols = head.split(',');
  return rest.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i] as string, v])));
}

export const propRows = (): Record<string, string>[] => csvRows(gunzipSync(readFileSync(PROPS_FIXTURE)).toString('utf8'));
export const matchRows = (): Record<string, string>[] => csvRows(readFileSync(MATCHES_FIXTURE, 'utf8'));

/** `<c3><a9>` byte escapes (NOTES.md §6 quirks) decoded as UTF-8: the name the book showed. */
export function decodeName(s: string): string {
  return s.includes('<') ? Buffer.from(s.replace(/<([0-9a-f]{2})>/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8') : s;
}

/** The props file's market -> The Odds API market key (goals at 0.5 only: the anytime goalscorer). */
const MARKET_KEY: Record<string, string> = {
  player_goals: 'player_goal_scorer_anytime',
  player_shots_on_target: 'player_shots_on_target',
  player_shots: 'player_shots',
  player_assists: 'player_assists',
  player_tackles: 'player_tackles',
};
/** The Odds API's au-region key for PointsBet; the other books keep the file's book_key. */
const BOOK_KEY: Record<string, string> = { pointsbet_au: 'pointsbetau' };

/** A stable 32-hex event id for a match (The Odds API's id format; the id itself is made here). */
export const eventIdOf = (matchId: string): string => createHash('md5').update(matchId).digest('hex');

/** The book's "Home v Away" -> the match of file 7 (home team first; names as NOTES.md §6 maps them). */
function matchOf(bookMatch: string, matches: Record<string, string>[]): Record<string, string> | null {
  const home = bookMatch.split(' v ')[0]?.trim().replace(/\u00a0/g, ' ');
  return matches.find((m) => m['home_team_long'] === home || m['home_team'] === home) ?? null;
}

export interface Matchday {
  events: unknown[];
  /** Event id -> its event-odds payload. */
  eventOdds: Map<string, unknown>;
}

export function eplMatchday(): Matchday {
  const matches = matchRows();
  const events = matches.map((m) => ({
    id: eventIdOf(m['match_id'] as string),
    sport_key: 'soccer_epl',
    sport_title: 'EPL',
    commence_time: m['kickoff_utc'],
    home_team: m['home_team_long'],
    away_team: m['away_team_long'],
  }));
  type Outcome = { name: string; description: string; price: number; point?: number };
  const books = new Map<string, Map<string, Map<string, Outcome[]>>>(); // event -> book -> market -> outcomes
  for (const r of propRows()) {
    const match = matchOf(r['match'] as string, matches);
    const market = MARKET_KEY[r['market'] as string];
    if (!match || !market) continue;
    const id = eventIdOf(match['match_id'] as string);
    const book = BOOK_KEY[r['book_key'] as string] ?? (r['book_key'] as string);
    const byBook = books.get(id) ?? new Map<string, Map<string, Outcome[]>>();
    books.set(id, byBook);
    const byMarket = byBook.get(book) ?? new Map<string, Outcome[]>();
    byBook.set(book, byMarket);
    const outcomes = byMarket.get(market) ?? [];
    byMarket.set(market, outcomes);
    const player = decodeName(r['player_name'] as string);
    const line = Number(r['line']);
    const yesNo = market === 'player_goal_scorer_anytime';
    for (const [side, column] of [['over', 'over_price'], ['under', 'under_price']] as const) {
      const price = r[column];
      if (!price) continue;
      const name = yesNo ? (side === 'over' ? 'Yes' : 'No') : side === 'over' ? 'Over' : 'Under';
      outcomes.push(yesNo ? { name, description: player, price: Number(price) } : { name, description: player, price: Number(price), point: line });
    }
  }
  const eventOdds = new Map<string, unknown>();
  for (const e of events) {
    const byBook = books.get(e.id) ?? new Map<string, Map<string, Outcome[]>>();
    eventOdds.set(e.id, {
      ...e,
      bookmakers: [...byBook].map(([key, byMarket]) => ({
        key,
        title: key,
        markets: [...byMarket].filter(([, o]) => o.length > 0).map(([mkey, outcomes]) => ({ key: mkey, last_update: SNAPSHOT_UTC, outcomes })),
      })),
    });
  }
  return { events, eventOdds };
}
