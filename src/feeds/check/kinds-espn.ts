import type { Sport } from '../../domain/sports.js';
import { espnLeague, type EspnLeague } from '../espn/common.js';
import {
  parseAthleteCoreStatistics,
  parseAthleteGamelog,
  parseAthleteSeasonStats,
  parseFightCards,
  parseInjuries,
  parseNews,
  parseRoster,
  parseScoreboard,
  parseSummary,
} from '../espn/index.js';
import type { FeedLogger } from '../transport/log.js';
import { count, jsonBody, matches, pathParams, type FeedKind } from './kind.js';

/** The ESPN responses propgrade reads (site API, now API, web and core athlete APIs). */

const ESPN_SITE = 'apis/site/v2/sports/:sport/:league';
const ESPN_WEB_ATHLETE = 'apis/common/v3/sports/:sport/:league/athletes/:id';

/** The ESPN league a site path names; null for leagues propgrade does not serve. */
function espnLeagueOf(sportSegment: string, league: string): EspnLeague | null {
  const key = `${sportSegment}/${league}`;
  const fixed: Record<string, Sport> = { 'basketball/nba': 'nba', 'basketball/wnba': 'wnba', 'baseball/mlb': 'mlb' };
  const sport = fixed[key];
  if (sport) return espnLeague(sport);
  if (sportSegment === 'soccer') return espnLeague('soccer', league);
  if (sportSegment === 'mma') return espnLeague('mma', league);
  return null;
}

function siteLeague(url: URL, rest: string): EspnLeague | null {
  const p = pathParams(url, `${ESPN_SITE}/${rest}`);
  return p ? espnLeagueOf(p['sport']!, p['league']!) : null;
}

/** Runs an ESPN site parser with the league its URL names. */
function siteKind(
  kind: string,
  unit: string,
  rest: string,
  parse: (json: unknown, league: EspnLeague, log: FeedLogger) => number | null,
  accept: (league: EspnLeague) => boolean = () => true,
): FeedKind {
  return {
    provider: 'espn',
    kind,
    unit,
    match: (url) => {
      const league = siteLeague(url, rest);
      return league !== null && accept(league);
    },
    parse: (body, url, log) => {
      const league = siteLeague(url, rest)!;
      const json = jsonBody(body, `espn ${kind}`, log);
      return json === null ? null : parse(json, league, log);
    },
  };
}

export const ESPN_KINDS: readonly FeedKind[] = [
  siteKind('scoreboard', 'games', 'scoreboard', (json, league, log) => count(parseScoreboard(json, league, log)), (l) => l.sport !== 'mma'),
  siteKind(
    'fight cards',
    'bouts',
    'scoreboard',
    (json, league, log) => {
      const cards = parseFightCards(json, league, log);
      return cards === null ? null : cards.reduce((n, c) => n + c.bouts.length, 0);
    },
    (l) => l.sport === 'mma',
  ),
  siteKind('summary', 'player lines', 'summary', (json, league, log) => parseSummary(json, league, log)?.lines.length ?? null),
  siteKind('injuries', 'injuries', 'injuries', (json, league, log) => count(parseInjuries(json, league.sport, log))),
  siteKind('team roster', 'players', 'teams/:team/roster', (json, league, log) => count(parseRoster(json, league, log))),
  siteKind('news', 'items', 'news', (json, league, log) => count(parseNews(json, league, log))),
  {
    provider: 'espn',
    kind: 'news (now API)',
    unit: 'items',
    match: matches('v1/sports/news'),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'espn now news', log);
      // The all-sports feed names no league; the league only feeds team abbreviations, which the
      // doctor neither keeps nor reports.
      return json === null ? null : count(parseNews(json, espnLeague('mlb'), log));
    },
  },
  {
    provider: 'espn',
    kind: 'athlete season stats',
    unit: 'rows',
    match: matches(`${ESPN_WEB_ATHLETE}/stats`),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'espn athlete stats', log);
      return json === null ? null : count(parseAthleteSeasonStats(json, log));
    },
  },
  {
    provider: 'espn',
    kind: 'athlete game log',
    unit: 'games',
    match: matches(`${ESPN_WEB_ATHLETE}/gamelog`),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'espn athlete gamelog', log);
      return json === null ? null : count(parseAthleteGamelog(json, log));
    },
  },
  {
    provider: 'espn',
    kind: 'athlete core statistics',
    unit: 'stats',
    match: matches('v2/sports/:sport/leagues/:league/athletes/:id/statistics'),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'espn core statistics', log);
      const stats = json === null ? null : parseAthleteCoreStatistics(json, log);
      return stats === null ? null : Object.values(stats).reduce((n, cat) => n + Object.keys(cat).length, 0);
    },
  },
];
