import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/_io.js';
import { openStore } from '../../src/store/db.js';
import { kvDelete } from '../../src/store/repo/kv.js';
import { forbiddenTransport, guardNetwork, type NetworkGuard } from '../helpers/no-network.js';

/**
 * Issue 33 item 6, the CLI side: on a store graded by `snapshot nba --replay data/replay`, every
 * context command run WITHOUT --replay (live, news, combat, fight, futures, stats *, showcase)
 * answers from the recording the store was graded from, through the real CLI in-process, with a
 * provider transport that records every call and a guard on every socket: neither is touched.
 */

let dir: string;
let db: string;
let guard: NetworkGuard;
const upstream = forbiddenTransport();
const env = () => ({ PROPGRADE_DB: db, NO_COLOR: '1', FUTURES_ENABLED: '1' });

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false, env: env(), transport: upstream };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propgrade-offline-cli-'));
  db = join(dir, 'pg.sqlite');
  const r = await run(['snapshot', 'nba', '--replay', 'data/replay', '--quiet']);
  expect(r.code, r.stderr).toBe(0);
  guard = guardNetwork();
}, 180_000);
afterAll(() => {
  guard?.restore();
  rmSync(dir, { recursive: true, force: true });
});

const COMMANDS: string[][] = [
  ['live', 'nba', '--date', '2025-11-05'],
  ['live', 'nba', '--date', '2025-11-05', '--now', '2025-11-06T12:00:00Z'],
  ['news', 'mlb', '--limit', '3'],
  ['news', 'nba'],
  ['combat', '2025-09-27'],
  ['fight', '401801745'],
  ['futures', 'mlb'],
  ['stats', 'player', 'Jalen Brunson'],
  ['stats', 'leaders', '--stat', 'threes', '--season', '2024-25', '--limit', '3'],
  ['stats', 'game', '2025-11-03:NY'],
  ['stats', 'game', '716896', '--sport', 'mlb'],
  ['stats', 'arsenal', 'Carlos Rodón', '--season', '2022'],
  ['stats', 'lineup', 'mlb', '--date', '2023-08-22'],
  ['stats', 'depth', 'ATL', '--sport', 'mlb'],
  ['stats', 'cascade', 'Joel Embiid'],
  ['showcase'],
];

describe('the context commands on a replayed store, without --replay', () => {
  it('answer from the store’s recording: no provider call, no socket, no upstream host in the output', async () => {
    for (const argv of COMMANDS) {
      for (const args of [argv, ['--json', ...argv]]) {
        const r = await run(args);
        expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(0);
        expect(/api\.espn\.com|statsapi\.mlb\.com|baseballsavant|the-odds-api|getaddrinfo|ENOTFOUND/.exec(r.stdout)?.[0], args.join(' ')).toBeUndefined();
        expect(upstream.calls.map((c) => c.url), args.join(' ')).toEqual([]);
      }
    }
    expect(guard.attempts).toEqual([]);
  }, 240_000);

  it('the recorded answers themselves: the MLB wire, the card, the morning-after box scores', async () => {
    const news = await run(['news', 'mlb', '--limit', '3']);
    expect(news.stdout).toContain('MLB news wire — 3 items, newest first');
    expect(news.stderr).toMatch(/context reads answer from the recording this store was replayed from: .*data\/replay/);
    const live = JSON.parse((await run(['--json', 'live', 'nba', '--date', '2025-11-05', '--now', '2025-11-06T12:00:00Z'])).stdout);
    expect(live).toMatchObject({ sport: 'nba', available: true, tracking: true });
    const fight = JSON.parse((await run(['--json', 'fight', '401801745'])).stdout);
    expect(fight).toMatchObject({ available: true });
  }, 60_000);

  it('without a known recording: the provider-backed views exit 1 with UNAVAILABLE_ON_REPLAY’s words; store-backed ones still answer', async () => {
    const store = openStore(db);
    await kvDelete(store, 'meta:replay-folder');
    await store.close();
    for (const argv of [['news', 'mlb'], ['live', 'nba', '--date', '2025-11-05'], ['combat', '2025-09-27'], ['stats', 'depth', 'ATL', '--sport', 'mlb']]) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.stderr, argv.join(' ')).toMatch(/is unavailable on a replayed store: .*--replay <folder>/);
    }
    expect((await run(['stats', 'game', '2025-11-03:NY'])).code).toBe(0);
    expect(upstream.calls).toEqual([]);
    expect(guard.attempts).toEqual([]);
  }, 60_000);
});
