/**
 * Provider origins (issue 34): a configured base receives the live request with the provider's own
 * path and query, while the request (and so a recording's key) keeps the provider's URL; config
 * refuses plain http off loopback.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { providerOrigins } from '../../../src/feeds/factory.js';
import { createLiveTransport } from '../../../src/feeds/transport/live.js';
import { originMap, wireUrlFor } from '../../../src/feeds/transport/origins.js';
import { createRecordTransport } from '../../../src/feeds/transport/record.js';
import { startLocalServer, type LocalServer } from './local-server.js';

let server: LocalServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('provider base URLs', () => {
  it('config: https anywhere, http only on loopback, no query or credentials; a trailing slash is dropped', () => {
    for (const ok of ['https://cache.example.com/espn/', 'http://127.0.0.1:8080', 'http://127.3.2.1/x', 'http://localhost:9', 'http://[::1]:7']) {
      expect(loadConfig({ ESPN_BASE_URL: ok }).ESPN_BASE_URL).toBe(ok.replace(/\/$/, ''));
    }
    for (const bad of ['http://odds.example.test', 'http://10.0.0.2', 'http://127.0.0.1.example.com', 'http://[::2]', 'ftp://127.0.0.1', 'https://u:p@cache.example.com', 'https://x.example.com/?apiKey=1', 'not a url']) {
      let code: number | null = null;
      try {
        loadConfig({ ODDS_API_BASE_URL: bad });
      } catch (err) {
        code = (err as { exitCode?: number }).exitCode ?? null;
        expect((err as Error).message).toMatch(/^invalid environment: ODDS_API_BASE_URL: /);
      }
      expect(code, bad).toBe(2);
    }
  });

  it('maps each provider origin to its variable; unset ones are not rewritten', () => {
    const map = providerOrigins(loadConfig({ ODDS_API_BASE_URL: 'http://127.0.0.1:1/odds/', MLB_STATSAPI_BASE_URL: 'https://mlb.cache.example' }));
    expect(map).toEqual({ 'https://api.the-odds-api.com': 'http://127.0.0.1:1/odds', 'https://statsapi.mlb.com': 'https://mlb.cache.example' });
    expect(wireUrlFor('https://api.the-odds-api.com/v4/sports/basketball_nba/events?dateFormat=iso', map)).toBe('http://127.0.0.1:1/odds/v4/sports/basketball_nba/events?dateFormat=iso');
    expect(wireUrlFor('https://statsapi.mlb.com/api/v1.1/game/1/feed/live', map)).toBe('https://mlb.cache.example/api/v1.1/game/1/feed/live');
    expect(wireUrlFor('https://site.api.espn.com/apis/site/v2/sports/basketball/nba/injuries', map)).toBe('https://site.api.espn.com/apis/site/v2/sports/basketball/nba/injuries');
    expect(originMap({})).toEqual({});
  });

  it('the live transport sends to the base with the key; a recording under it keeps the provider URL and no key', async () => {
    server = await startLocalServer({ '/prefix/v4/sports/basketball_nba/events': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]') });
    const live = createLiveTransport({ timeoutMs: 2_000, retries: 0, concurrencyPerHost: 1, userAgent: 't', origins: { 'https://api.the-odds-api.com': `${server.base}/prefix` } });
    const dir = mkdtempSync(join(tmpdir(), 'propgrade-origins-'));
    try {
      const recorder = createRecordTransport(live, dir, { now: () => new Date('2025-11-05T17:05:00Z') });
      const out = await recorder.fetch({ provider: 'odds-api', url: 'https://api.the-odds-api.com/v4/sports/basketball_nba/events?dateFormat=iso', secretQuery: { apiKey: 'k-123456' } });
      await recorder.close?.();
      expect(out).toMatchObject({ ok: true, body: '[]' });
      expect(server.seen).toEqual(['/prefix/v4/sports/basketball_nba/events?dateFormat=iso&apiKey=k-123456']);
      const manifest = readFileSync(join(dir, 'manifest.json'), 'utf8');
      expect(manifest).toContain('"odds-api GET https://api.the-odds-api.com/v4/sports/basketball_nba/events?dateFormat=iso"');
      expect(manifest).not.toContain('127.0.0.1');
      expect(manifest).not.toContain('k-123456');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
