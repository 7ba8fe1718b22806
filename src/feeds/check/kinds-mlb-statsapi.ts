import {
  parseBoxscore,
  parseGameLog,
  parseLiveFeed,
  parsePeople,
  parseSchedule,
  parseSeasonStats,
  parseTeamRoster,
} from '../mlb-statsapi/index.js';
import { count, jsonBody, matches, param, pathParams, type FeedKind } from './kind.js';

/** The MLB Stats API responses propgrade reads. */

const MLB_PEOPLE_STATS = 'api/v1/people/:id/stats';
const MLB_GAME_STATS = 'api/v1/people/:id/stats/game/:pk';
const isGameLogQuery = (url: URL) => url.searchParams.getAll('stats').some((s) => s.split(',').includes('gameLog'));

/**
 * Box scores and per-game stat splits carry no game date (nor, for the latter, the player's name);
 * the doctor only counts lines, so the lines it builds and discards get empty text rather than a
 * value guessed from elsewhere.
 */
const UNDATED = '';
const UNNAMED = '';

export const MLB_STATSAPI_KINDS: readonly FeedKind[] = [
  {
    provider: 'mlb-statsapi',
    kind: 'schedule',
    unit: 'games',
    match: matches('api/v1/schedule'),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'mlb schedule', log);
      return json === null ? null : count(parseSchedule(json, log));
    },
  },
  {
    provider: 'mlb-statsapi',
    kind: 'boxscore',
    unit: 'player lines',
    match: matches('api/v1/game/:pk/boxscore'),
    parse: (body, url, log) => {
      const json = jsonBody(body, 'mlb boxscore', log);
      const gamePk = Number(param(url, 'api/v1/game/:pk/boxscore', 'pk'));
      return json === null ? null : count(parseBoxscore(json, { gamePk, date: UNDATED }, log));
    },
  },
  {
    provider: 'mlb-statsapi',
    kind: 'live feed',
    unit: 'player lines',
    match: matches('api/v1.1/game/:pk/feed/live'),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'mlb live feed', log);
      return json === null ? null : (parseLiveFeed(json, log)?.lines.length ?? null);
    },
  },
  {
    provider: 'mlb-statsapi',
    kind: 'people',
    unit: 'people',
    match: (url) => matches('api/v1/people/:id')(url) || matches('api/v1/sports/:sportId/players')(url),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'mlb people', log);
      return json === null ? null : count(parsePeople(json, log));
    },
  },
  {
    provider: 'mlb-statsapi',
    kind: 'team roster',
    unit: 'players',
    match: matches('api/v1/teams/:id/roster'),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'mlb team roster', log);
      return json === null ? null : count(parseTeamRoster(json, log));
    },
  },
  {
    provider: 'mlb-statsapi',
    kind: 'season stats',
    unit: 'stat lines',
    match: matches(MLB_PEOPLE_STATS, (_p, url) => !isGameLogQuery(url)),
    parse: (body, _url, log) => {
      const json = jsonBody(body, 'mlb season stats', log);
      return json === null ? null : count(parseSeasonStats(json, log));
    },
  },
  {
    provider: 'mlb-statsapi',
    kind: 'game log',
    unit: 'games',
    match: (url) => matches(MLB_PEOPLE_STATS, (_p, u) => isGameLogQuery(u))(url) || matches(MLB_GAME_STATS)(url),
    parse: (body, url, log) => {
      const json = jsonBody(body, 'mlb game log', log);
      if (json === null) return null;
      const perGame = pathParams(url, MLB_GAME_STATS);
      const mlbamId = Number((perGame ?? pathParams(url, MLB_PEOPLE_STATS))?.['id']);
      const ctx = { mlbamId, playerName: UNNAMED, ...(perGame ? { gamePk: Number(perGame['pk']) } : {}) };
      return count(parseGameLog(json, ctx, log));
    },
  },
];
