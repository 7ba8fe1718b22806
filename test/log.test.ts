import { describe, expect, it } from 'vitest';
import { formatLogLine, redact, secretsOf } from '../src/log.js';

const AT = new Date('2026-11-27T12:00:00Z');

describe('log lines', () => {
  it('redacts configured secrets, bearer tokens and credential query values', () => {
    const secrets = secretsOf({ ODDS_API_KEY: 'abcdef123456', GHOST_ADMIN_KEY: '64aa:deadbeefcafe', PATH: '/usr/bin' });
    expect(secrets).toEqual(['abcdef123456', '64aa:deadbeefcafe', 'deadbeefcafe']);
    expect(redact('GET https://api.the-odds-api.com/v4/sports?apiKey=abcdef123456&regions=us failed', secrets)).toBe('GET https://api.the-odds-api.com/v4/sports?apiKey=[redacted]&regions=us failed');
    expect(redact('sent Authorization: Bearer pg_live_xyz.123', [])).toBe('sent Authorization: Bearer [redacted]');
    expect(redact('the key abcdef123456 and ghost deadbeefcafe', secrets)).toBe('the key [redacted] and ghost [redacted]');
  });

  it('text is the message (a warning says so); json one object with snake_case fields and no colour codes', () => {
    expect(formatLogLine('text', { level: 'warn', message: 'nba: odds late', time: AT }, [])).toBe('warning: nba: odds late');
    const json = JSON.parse(formatLogLine('json', { level: 'info', message: '\u001b[33mnba\u001b[39m: run', fields: { sport: 'nba', runId: 7, requestId: undefined }, time: AT }, []));
    expect(json).toEqual({ time: '2026-11-27T12:00:00.000Z', level: 'info', message: 'nba: run', sport: 'nba', run_id: 7 });
  });
});
