import { describe, expect, it } from 'vitest';
import { publicReason, scrubAnswer, scrubPublic } from '../../src/feeds/public-reason.js';

/** The failure texts the transports and adapters really write (live.ts describeError, replay.ts, credits.ts), and what a body may say of them. */
describe('publicReason', () => {
  const cases: Array<[string, string]> = [
    ['espn news: unavailable network error ENOTFOUND: getaddrinfo ENOTFOUND site.api.espn.com (https://site.api.espn.com/apis/site/v2/sports/baseball/mlb/news) (after 2 attempts)', 'the provider could not be reached'],
    ['mlb schedule: unavailable timeout after 10000 ms: https://statsapi.mlb.com/api/v1/schedule?date=2025-08-16', 'the provider did not answer in time'],
    ['savant arsenal stats: unavailable HTTP 500 from https://baseballsavant.mlb.com/leaderboard/pitch-arsenal-stats?csv=true (after 2 attempts)', 'the provider answered HTTP 500'],
    ['espn scoreboard: unavailable not recorded: espn GET https://site.api.espn.com/apis/site/v2/sports/basketball/nba/scoreboard?dates=20251105 (only recordings after 2025-11-05T17:05:00.000Z)', 'not recorded yet (only recordings after 2025-11-05T17:05:00.000Z)'],
    ['espn news: unavailable not recorded: espn GET https://site.api.espn.com/apis/site/v2/sports/mma/ufc/news', 'not recorded in the replay folder'],
    ['espn news: unavailable recorded HTTP 404: espn GET https://site.api.espn.com/x', 'the recording holds an HTTP 404 answer'],
    ['espn news: unavailable replay folder has no readable manifest.json: /srv/propgrade/replay/manifest.json', 'the replay folder could not be read'],
    ['unavailable: daily credit budget reached: call needs 2 credits, 1 of 6 left today', 'daily credit budget reached: call needs 2 credits, 1 of 6 left today'],
    ['odds-api mma odds: response is not JSON (starts with "<html>")', 'the provider’s answer could not be read'],
    ['something nobody foresaw at https://api.the-odds-api.com/v4', 'the provider read failed'],
  ];
  it.each(cases)('%s', (internal, expected) => {
    expect(publicReason(internal)).toBe(expected);
  });
});

describe('scrubPublic and scrubAnswer: the last guard before a body', () => {
  it('replaces URLs, hosts, addresses, resolver codes and absolute paths; leaves plain words, ratios and dates alone', () => {
    expect(scrubPublic('no ESPN nba scoreboard for 2025-11-05: HTTP 500 from http://127.0.0.1:4312/apis/x')).toBe('no ESPN nba scoreboard for 2025-11-05: HTTP 500 from (upstream)');
    expect(scrubPublic('getaddrinfo ENOTFOUND statsapi.mlb.com')).toBe('(network error) (network error) (upstream)');
    expect(scrubPublic('replay manifest /tmp/pg-x/no-such/manifest.json is invalid')).toBe('replay manifest (path) is invalid');
    expect(scrubPublic('3/4 games, W/L 6-2, 10.5 rebounds, Kelly Oubre Jr.')).toBe('3/4 games, W/L 6-2, 10.5 rebounds, Kelly Oubre Jr.');
  });

  it('touches only explanation fields: a news item’s own link stays, its reason-like siblings are scrubbed', () => {
    const answer = { available: true, items: [{ headline: 'x', href: 'https://www.espn.com/mlb/story/_/id/1' }], staleReason: 'HTTP 503 from https://site.api.espn.com/apis/x', odds: { available: false, reason: 'see 10.0.0.7:443' } };
    expect(scrubAnswer(answer)).toEqual({ available: true, items: [{ headline: 'x', href: 'https://www.espn.com/mlb/story/_/id/1' }], staleReason: 'HTTP 503 from (upstream)', odds: { available: false, reason: 'see (address)' } });
  });
});
