import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { createReplayTransport, readReplayManifest, selectReplayEntry } from '../../../src/feeds/transport/replay.js';
import { replayKey } from '../../../src/feeds/transport/replay-key.js';
import type { FetchRequest, ReplayEntry } from '../../../src/feeds/transport/types.js';

const URL_ = 'https://api.the-odds-api.com/v4/sports/basketball_nba/events?dateFormat=iso';
const REQ: FetchRequest = { provider: 'odds-api', url: URL_, secretQuery: { apiKey: 'k-should-not-matter' } };
const KEY = replayKey(REQ);

function folder(manifest: unknown, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'propgrade-replay-'));
  writeFileSync(join(dir, 'manifest.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), body);
  }
  return dir;
}

const entry = (file: string, recordedAt?: string, status = 200): ReplayEntry => ({
  key: KEY,
  file,
  status,
  headers: { 'content-type': 'application/json', 'x-requests-remaining': '490' },
  ...(recordedAt ? { recordedAt } : {}),
});

describe('selectReplayEntry', () => {
  const entries = [entry('a.json', '2025-06-01T10:00:00Z'), entry('b.json', '2025-06-01T16:00:00Z'), entry('any.json')];
  it('picks the latest recordedAt at or before now', () => {
    expect(selectReplayEntry(entries, KEY, new Date('2025-06-01T12:00:00Z'))?.file).toBe('a.json');
    expect(selectReplayEntry(entries, KEY, new Date('2025-06-01T16:00:00Z'))?.file).toBe('b.json');
    expect(selectReplayEntry(entries, KEY, new Date('2025-06-02T00:00:00Z'))?.file).toBe('b.json');
  });
  it('falls back to an undated entry before the first snapshot; null when there is none', () => {
    expect(selectReplayEntry(entries, KEY, new Date('2025-06-01T09:00:00Z'))?.file).toBe('any.json');
    expect(selectReplayEntry(entries.slice(0, 2), KEY, new Date('2025-06-01T09:00:00Z'))).toBeNull();
  });
  it('with no clock, takes the latest snapshot', () => {
    expect(selectReplayEntry(entries, KEY, null)?.file).toBe('b.json');
  });
});

describe('replay transport', () => {
  const manifest = {
    version: 1,
    defaultNow: '2025-06-01T12:00:00Z',
    entries: [entry('odds-api/a.json', '2025-06-01T10:00:00Z'), entry('odds-api/b.json', '2025-06-01T16:00:00Z')],
  };
  const files = { 'odds-api/a.json': '["morning"]', 'odds-api/b.json': '["evening"]' };

  it('answers by key (credentials ignored), by the injected clock, with recorded headers', async () => {
    const dir = folder(manifest, files);
    const at = (iso: string) => createReplayTransport(dir, { now: () => new Date(iso) });
    const morning = await at('2025-06-01T11:00:00Z').fetch(REQ);
    expect(morning).toEqual({ ok: true, status: 200, headers: entry('x').headers, body: '["morning"]', source: 'replay' });
    const evening = await at('2025-06-01T20:00:00Z').fetch({ ...REQ, url: `${URL_}&apiKey=other` });
    expect(evening.ok && evening.body).toBe('["evening"]');
  });

  it('uses the manifest defaultNow when no clock is given', async () => {
    const outcome = await createReplayTransport(folder(manifest, files)).fetch(REQ);
    expect(outcome.ok && outcome.body).toBe('["morning"]');
  });

  it('an unrecorded request is reported clearly as not recorded', async () => {
    const t = createReplayTransport(folder(manifest, files));
    const other = await t.fetch({ provider: 'odds-api', url: 'https://api.the-odds-api.com/v4/sports/baseball_mlb/events?dateFormat=iso' });
    expect(other).toEqual({
      ok: false,
      status: null,
      reason: 'not recorded: odds-api GET https://api.the-odds-api.com/v4/sports/baseball_mlb/events?dateFormat=iso',
    });
    const tooEarly = await createReplayTransport(folder(manifest, files), { now: () => new Date('2025-06-01T09:00:00Z') }).fetch(REQ);
    expect(tooEarly.ok).toBe(false);
    expect(!tooEarly.ok && tooEarly.reason).toBe(`not recorded: ${KEY} (only recordings after 2025-06-01T09:00:00.000Z)`);
  });

  it('a recorded error status, a missing file and a path outside the folder are failures', async () => {
    const errStatus = await createReplayTransport(folder({ version: 1, entries: [entry('e.json', undefined, 404)] }, { 'e.json': '' })).fetch(REQ);
    expect(errStatus).toEqual({ ok: false, status: 404, reason: `recorded HTTP 404: ${KEY}` });
    const missing = await createReplayTransport(folder({ version: 1, entries: [entry('gone.json')] })).fetch(REQ);
    expect(!missing.ok && missing.reason).toBe(`replay file missing: gone.json (for ${KEY})`);
    const escape = await createReplayTransport(folder({ version: 1, entries: [entry('../../etc/passwd')] })).fetch(REQ);
    expect(!escape.ok && escape.reason).toBe('replay entry points outside the folder: ../../etc/passwd');
  });

  it('a bad manifest fails each fetch (no throw); readReplayManifest throws BAD_INPUT', async () => {
    const dir = folder({ version: 2, entries: [] });
    const outcome = await createReplayTransport(dir).fetch(REQ);
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.reason).toMatch(/replay manifest .* is invalid: version/);
    expect(() => readReplayManifest(dir)).toThrow(AppError);
    const empty = mkdtempSync(join(tmpdir(), 'propgrade-replay-'));
    expect(() => readReplayManifest(empty)).toThrow(/no readable manifest.json/);
    const notJson = await createReplayTransport(folder('{oops')).fetch(REQ);
    expect(!notJson.ok && notJson.reason).toMatch(/replay manifest is not JSON/);
  });

  it('readReplayManifest keeps defaultNow and seed', () => {
    const m = readReplayManifest(folder({ ...manifest, seed: { slate: '2025-06-01' } }));
    expect(m.defaultNow).toBe('2025-06-01T12:00:00Z');
    expect(m.seed).toEqual({ slate: '2025-06-01' });
    expect(m.entries).toHaveLength(2);
  });
});
