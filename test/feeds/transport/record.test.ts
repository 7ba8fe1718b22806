import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchEventPropQuotes, fetchEvents } from '../../../src/feeds/odds-api/fetch.js';
import { createLiveTransport } from '../../../src/feeds/transport/live.js';
import { createCollectingLogger } from '../../../src/feeds/transport/log.js';
import { createRecordTransport } from '../../../src/feeds/transport/record.js';
import { createReplayTransport, readReplayManifest } from '../../../src/feeds/transport/replay.js';
import { startLocalServer, type LocalServer } from './local-server.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/odds-api/${name}`, import.meta.url), 'utf8');
const EVENTS = fixture('soccer-bundesliga-events-2025-11-25.json');
const ODDS = fixture('nba-event-odds-player-points-2024-02-22-CLE-ORL.json');
const EVENT_ID = 'f54c4a22568ce9dc33fb410d1b0e75e9';
const SECRET = 'SECRET-KEY-7f3a9c21';

let server: LocalServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('record -> replay round trip', () => {
  it('replay yields records identical to what the recorded live run parsed; no credential in any written file', async () => {
    server = await startLocalServer({
      '/v4/sports/soccer_germany_bundesliga/events': (_req, res) =>
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-requests-remaining': '497', 'x-requests-used': '3' }).end(EVENTS),
      [`/v4/sports/basketball_nba/events/${EVENT_ID}/odds`]: (_req, res) =>
        res
          .writeHead(200, {
            'content-type': 'application/json',
            'content-encoding': 'gzip',
            'x-requests-remaining': '496',
            'x-requests-used': '4',
            'x-requests-last': '1',
            'set-cookie': `session=${SECRET}`,
          })
          .end(gzipSync(ODDS)),
    });
    const dir = mkdtempSync(join(tmpdir(), 'propgrade-record-'));
    const recordedAt = new Date('2024-02-22T23:58:00Z');
    const live = createLiveTransport({ timeoutMs: 2_000, retries: 0, concurrencyPerHost: 2, userAgent: 'propgrade-test' });
    const log = createCollectingLogger();
    const recorder = createRecordTransport(live, dir, { now: () => recordedAt, log });
    const opts = { apiKey: SECRET, log, base: server.base };

    const liveEvents = await fetchEvents(recorder, 'soccer_germany_bundesliga', opts);
    const liveQuotes = await fetchEventPropQuotes(recorder, 'basketball_nba', EVENT_ID, ['player_points'], { ...opts, books: { regions: ['us'] } });
    await recorder.close?.();
    expect(log.warnings).toEqual([]);
    expect(liveEvents.events).toHaveLength(18);
    expect(liveQuotes.quotes).toHaveLength(482);
    expect(server.seen.every((u) => u.includes(`apiKey=${SECRET}`))).toBe(true);

    const manifest = readReplayManifest(dir);
    expect(manifest.entries).toHaveLength(2);
    for (const e of manifest.entries) {
      expect(e.recordedAt).toBe('2024-02-22T23:58:00.000Z');
      expect(e.file).toMatch(/^odds-api\/[0-9a-f]{16}-20240222T235800Z\.json$/);
      expect(Object.keys(e.headers).every((h) => ['content-type', 'date', 'x-requests-remaining', 'x-requests-used', 'x-requests-last'].includes(h))).toBe(true);
    }
    // bodies are stored decoded and byte-identical
    const oddsEntry = manifest.entries.find((e) => e.key.includes('/odds'));
    expect(readFileSync(join(dir, oddsEntry!.file), 'utf8')).toBe(ODDS);

    const written = filesUnder(dir);
    expect(written).toHaveLength(3);
    for (const file of written) {
      const text = readFileSync(file, 'utf8');
      expect(text).not.toContain(SECRET);
      expect(text.toLowerCase()).not.toContain('apikey');
      expect(text).not.toContain('set-cookie');
    }

    // Replay: no server needed, no key given.
    await server.close();
    server = null;
    const replay = createReplayTransport(dir, { now: () => new Date('2024-02-23T00:00:00Z') });
    const replayLog = createCollectingLogger();
    const replayOpts = { log: replayLog, base: opts.base };
    const replayEvents = await fetchEvents(replay, 'soccer_germany_bundesliga', replayOpts);
    const replayQuotes = await fetchEventPropQuotes(replay, 'basketball_nba', EVENT_ID, ['player_points'], { ...replayOpts, books: { regions: ['us'] } });
    expect(replayEvents).toEqual(liveEvents);
    expect(replayQuotes).toEqual(liveQuotes);
    expect(replayQuotes.credits).toEqual({ remaining: 496, used: 4, last: 1 });
    expect(replayLog.warnings).toEqual([]);
  });

  it('a later recording of the same request adds a snapshot; replay picks by clock', async () => {
    let version = 0;
    server = await startLocalServer({
      '/v4/sports/basketball_nba/events': (_req, res) => {
        version += 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ v: version }]));
      },
    });
    const dir = mkdtempSync(join(tmpdir(), 'propgrade-record-'));
    let clock = new Date('2025-06-01T10:00:00Z');
    const live = createLiveTransport({ timeoutMs: 2_000, retries: 0, concurrencyPerHost: 2, userAgent: 't' });
    const recorder = createRecordTransport(live, dir, { now: () => clock });
    const req = { provider: 'odds-api' as const, url: `${server.base}/v4/sports/basketball_nba/events?dateFormat=iso`, secretQuery: { apiKey: SECRET } };
    await recorder.fetch(req);
    clock = new Date('2025-06-01T16:00:00Z');
    await recorder.fetch(req);
    await recorder.fetch(req); // same clock again: replaces, does not duplicate
    await recorder.close?.();
    expect(readReplayManifest(dir).entries.map((e) => e.recordedAt)).toEqual(['2025-06-01T10:00:00.000Z', '2025-06-01T16:00:00.000Z']);
    const at = async (iso: string) => {
      const o = await createReplayTransport(dir, { now: () => new Date(iso) }).fetch(req);
      return o.ok ? o.body : o.reason;
    };
    expect(await at('2025-06-01T12:00:00Z')).toBe('[{"v":1}]');
    expect(await at('2025-06-01T18:00:00Z')).toBe('[{"v":3}]');
  });

  it('does not write a response that echoes the credential, and passes failures through unrecorded', async () => {
    server = await startLocalServer({
      '/echo': (req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url })),
      '/fail': (_req, res) => res.writeHead(404).end(),
    });
    const dir = mkdtempSync(join(tmpdir(), 'propgrade-record-'));
    const log = createCollectingLogger();
    const live = createLiveTransport({ timeoutMs: 2_000, retries: 0, concurrencyPerHost: 2, userAgent: 't' });
    const recorder = createRecordTransport(live, dir, { now: () => new Date('2025-06-01T10:00:00Z'), log });
    const echoed = await recorder.fetch({ provider: 'odds-api', url: `${server.base}/echo`, secretQuery: { apiKey: SECRET } });
    expect(echoed.ok).toBe(true);
    const failed = await recorder.fetch({ provider: 'odds-api', url: `${server.base}/fail` });
    expect(failed).toMatchObject({ ok: false, status: 404 });
    await recorder.close?.();
    expect(readdirSync(dir)).toEqual([]);
    expect(log.warnings.map((w) => w.msg)).toEqual([`record: not written, the response echoes a credential: odds-api GET ${server.base}/echo`]);
  });
  it('upserting into an existing manifest keeps its defaultNow, seed and extra entry keys', async () => {
    server = await startLocalServer({ '/v4/sports': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]') });
    const dir = mkdtempSync(join(tmpdir(), 'propgrade-record-'));
    const existing = { key: 'espn GET https://x/y', provider: 'espn', url: 'https://x/y', file: 'espn/y.json', status: 200, headers: {} };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ version: 1, defaultNow: '2025-11-05T17:05:00Z', seed: { gamelogs: [] }, entries: [existing] }));
    const live = createLiveTransport({ timeoutMs: 2_000, retries: 0, concurrencyPerHost: 2, userAgent: 't' });
    const recorder = createRecordTransport(live, dir, { now: () => new Date('2025-11-05T18:00:00Z') });
    await recorder.fetch({ provider: 'odds-api', url: `${server.base}/v4/sports` });
    await recorder.close?.();
    const written = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    expect(written.defaultNow).toBe('2025-11-05T17:05:00Z');
    expect(written.seed).toEqual({ gamelogs: [] });
    expect(written.entries[0]).toEqual(existing);
    expect(written.entries[1].key).toBe(`odds-api GET ${server.base}/v4/sports`);
  });
});
