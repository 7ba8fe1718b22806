/**
 * The live path over a real socket (issue 34): `snapshot nba` and `settle nba` with no --replay,
 * ODDS_API_KEY set and every provider's base URL at a loopback stand-in serving data/replay, write
 * what the replay of the same times writes, book the credits the stand-in's headers reported,
 * honour ODDS_API_DAILY_BUDGET, and on each fault exit non-zero, say which provider failed (never
 * the key) and leave nothing half-written. A plain-http provider origin off loopback exits 2.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureReplaySeed } from '../../src/jobs/import-history.js';
import { readReplayManifest, type ReplaySeed } from '../../src/feeds/transport/replay.js';
import { openStore } from '../../src/store/db.js';
import { runCli, type CliRun } from '../helpers/cli.js';
import { startProviderStandin, type Fault, type ProviderStandin } from '../helpers/provider-standin.js';
import { collectingLogger, seededStoreFile } from '../helpers/replay-store.js';

const NOW = '2025-11-05T17:05:00Z';
const SETTLE_NOW = '2025-11-06T12:00:00Z';
const KEY = 'standin-key-5f0c2a9d';

type Row = Record<string, unknown>;

/** Every row of a table, ordered by its natural key, without the columns that only number rows. */
function rows(path: string, sql: string, drop: readonly string[] = ['id']): Row[] {
  const store = openStore(path);
  try {
    return (store.sqlite.prepare(sql).all() as Row[]).map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !drop.includes(k))));
  } finally {
    void store.close();
  }
}

const GRADED = 'SELECT * FROM graded_rows ORDER BY event_id, player_key, stat_type, line, side';
const LEDGER = 'SELECT * FROM ledger_entries ORDER BY event_id, player_key, stat_type, line, side';

function count(path: string, table: string): number {
  return (rows(path, `SELECT count(*) AS n FROM ${table}`)[0] as { n: number }).n;
}

/** Credits booked in the store's daily counts (`odds-api:credits:<ET date>`), whatever the wall day. */
function bookedCredits(path: string): number {
  return rows(path, "SELECT value FROM kv_cache WHERE key LIKE 'odds-api:credits:%'").reduce((sum, r) => sum + Number(JSON.parse(String(r['value']))), 0);
}

describe('live snapshot and settle against a loopback stand-in of the providers', () => {
  let dir: string;
  let standin: ProviderStandin;
  let replayDb: string;
  /** The back-off waits the live transport asked for (its wall-clock sleep, injected). */
  let sleeps: number[] = [];
  const live = () => ({ live: { timeoutMs: 500, sleep: async (ms: number) => void sleeps.push(ms), random: () => 0 } });
  const liveEnv = (extra: Record<string, string> = {}) => ({ ODDS_API_KEY: KEY, ...standin.env, ...extra });
  const fresh = async (name: string) => {
    const path = join(dir, name);
    await seededStoreFile(path);
    return path;
  };
  const liveRun = (argv: string[], db: string, extra: Record<string, string> = {}): Promise<CliRun> =>
    runCli(['--db', db, '--json', ...argv], liveEnv(extra), false, live());

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-standin-'));
    standin = await startProviderStandin({ dir: 'data/replay', apiKey: KEY, now: NOW });
    replayDb = await fresh('replay.sqlite');
    const snap = await runCli(['--db', replayDb, '--replay', 'data/replay', '--now', NOW, '--json', 'snapshot', 'nba', '--quiet'], {});
    expect(snap.code, snap.stderr).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await standin.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('snapshot grades the rows the replay grades, books the credits the headers reported, and settle writes the same settlements', async () => {
    const db = await fresh('live.sqlite');
    standin.setNow(NOW);
    const before = standin.served.length;
    const charged0 = standin.creditsCharged();
    const snap = await liveRun(['--now', NOW, 'snapshot', 'nba', '--quiet'], db);
    expect(snap.code, snap.stderr).toBe(0);
    expect(JSON.parse(snap.stdout).runs[0]).toMatchObject({ sport: 'nba', status: 'ok' });

    // Over the socket: the events list, every event's odds (with the key) and ESPN's injuries.
    const served = standin.served.slice(before);
    const odds = served.filter((s) => s.provider === 'odds-api');
    expect(odds.some((s) => s.path.startsWith('/v4/sports/basketball_nba/events?'))).toBe(true);
    const eventOdds = odds.filter((s) => /\/events\/[^/]+\/odds\?/.test(s.path));
    expect(eventOdds.length).toBeGreaterThan(5);
    expect(odds.every((s) => s.path.includes('apiKey=***') && s.status === 200)).toBe(true);

    const graded = rows(db, GRADED, ['id', 'snapshot_id']);
    const expected = rows(replayDb, GRADED, ['id', 'snapshot_id']);
    expect(graded.length).toBeGreaterThan(1000);
    expect(graded).toEqual(expected);
    expect(rows(db, 'SELECT sport, taken_at, slate_date, graded_count, row_count FROM snapshots')).toEqual(
      rows(replayDb, 'SELECT sport, taken_at, slate_date, graded_count, row_count FROM snapshots'),
    );
    expect(rows(db, 'SELECT source FROM snapshots')).toEqual([{ source: 'live' }]);
    expect(rows(db, LEDGER)).toEqual(rows(replayDb, LEDGER));

    // Credits: what the x-requests-last headers said, each priced markets x regions from the request itself.
    const charged = standin.creditsCharged() - charged0;
    for (const s of eventOdds) {
      const q = new URL(s.path, 'http://x').searchParams;
      expect(s.creditsLast).toBe((q.get('markets') ?? '').split(',').length * (q.get('regions') ?? '').split(',').length);
    }
    expect(charged).toBe(eventOdds.reduce((sum, s) => sum + (s.creditsLast ?? 0), 0));
    expect(charged).toBeGreaterThan(0);
    expect(bookedCredits(db)).toBe(charged);
    expect(bookedCredits(replayDb)).toBe(0);

    // The next morning, settled from ESPN over the socket: the same settlements as the replay.
    standin.setNow(SETTLE_NOW);
    const settle = await liveRun(['--now', SETTLE_NOW, 'settle', 'nba'], db);
    expect(settle.code, settle.stderr).toBe(0);
    const replaySettle = await runCli(['--db', replayDb, '--replay', 'data/replay', '--now', SETTLE_NOW, '--json', 'settle', 'nba'], {});
    expect(replaySettle.code, replaySettle.stderr).toBe(0);
    const settled = rows(db, LEDGER);
    expect(settled.filter((r) => r['outcome'] === 'hit' || r['outcome'] === 'miss').length).toBeGreaterThan(100);
    expect(settled).toEqual(rows(replayDb, LEDGER));
    expect(rows(db, 'SELECT * FROM player_game_stats ORDER BY sport, player_key, date, game_key')).toEqual(
      rows(replayDb, 'SELECT * FROM player_game_stats ORDER BY sport, player_key, date, game_key'),
    );
    expect(standin.served.slice(before).some((s) => s.provider === 'espn' && s.path.includes('/scoreboard?dates=20251105'))).toBe(true);
    for (const out of [snap.stdout, snap.stderr, settle.stdout, settle.stderr]) expect(out).not.toContain(KEY);
  }, 120_000);

  it('ODDS_API_DAILY_BUDGET below the day\'s cost stops before overspending; 0 requests no odds and writes nothing', async () => {
    standin.setNow(NOW);
    const full = await liveRun(['--now', NOW, 'snapshot', 'nba', '--quiet'], await fresh('full.sqlite'));
    expect(full.code).toBe(0);
    const fullCost = bookedCredits(join(dir, 'full.sqlite'));
    const budget = Math.floor(fullCost / 2);

    const db = await fresh('budget.sqlite');
    const charged0 = standin.creditsCharged();
    const before = standin.served.length;
    const run = await liveRun(['--now', NOW, 'snapshot', 'nba', '--quiet'], db, { ODDS_API_DAILY_BUDGET: String(budget) });
    expect(run.code, run.stderr).toBe(0);
    const charged = standin.creditsCharged() - charged0;
    expect(charged).toBeGreaterThan(0);
    expect(charged).toBeLessThanOrEqual(budget);
    expect(bookedCredits(db)).toBe(charged);
    // It stopped because the next event's odds would have crossed the budget, not earlier.
    const perEvent = standin.served.slice(before).find((s) => (s.creditsLast ?? 0) > 0)?.creditsLast ?? 0;
    expect(charged + perEvent).toBeGreaterThan(budget);
    expect(run.stderr).toMatch(/daily credit budget reached/);

    const none = await fresh('budget0.sqlite');
    const before0 = standin.served.length;
    const zero = await liveRun(['--now', NOW, 'snapshot', 'nba', '--quiet'], none, { ODDS_API_DAILY_BUDGET: '0' });
    expect(zero.code).toBe(1);
    expect(JSON.parse(zero.stdout).runs[0].message).toMatch(/^nba prop odds unavailable for all \d+ events: daily credit budget reached/);
    expect(standin.served.slice(before0).filter((s) => s.path.includes('/odds?'))).toEqual([]);
    expect(count(none, 'snapshots')).toBe(0);
    expect(bookedCredits(none)).toBe(0);
  }, 120_000);

  const faults: Array<{ name: string; key?: string; fault?: Fault; says: RegExp; sleeps?: number[] }> = [
    { name: 'a refused key (401)', key: 'wrong-key-0000', says: /The Odds API refused the key \(HTTP 401\)/ },
    { name: '429 with Retry-After', fault: { kind: '429', retryAfterSeconds: 7 }, says: /HTTP 429 from The Odds API .*\(after 4 attempts\)/, sleeps: [7000, 7000, 7000] },
    { name: 'a 5xx', fault: { kind: '5xx', status: 502 }, says: /HTTP 502 from The Odds API .*\(after 4 attempts\)/, sleeps: [500, 1000, 2000] },
    { name: 'a body slower than the timeout', fault: { kind: 'slow', delayMs: 3_000 }, says: /timeout after 500 ms: The Odds API/ },
    { name: 'a truncated body', fault: { kind: 'truncated' }, says: /network error .*from The Odds API/ },
  ];

  for (const f of faults) {
    it(`${f.name}: exits 1 naming the provider, never the key, and writes no snapshot`, async () => {
      standin.setNow(NOW);
      const db = await fresh(`fault-${f.name.replace(/\W+/g, '-')}.sqlite`);
      sleeps = [];
      if (f.fault) standin.fault('odds-api', f.fault);
      try {
        const run = await liveRun(['--now', NOW, 'snapshot', 'nba', '--quiet'], db, f.key ? { ODDS_API_KEY: f.key } : {});
        expect(run.code).toBe(1);
        const message = String(JSON.parse(run.stdout).runs[0].message);
        expect(message).toMatch(/^nba events feed unavailable: /);
        expect(`${message}\n${run.stderr}`).toMatch(f.says);
        for (const out of [run.stdout, run.stderr]) expect(out).not.toContain(KEY);
        if (f.key) expect(run.stderr).not.toContain(f.key);
        if (f.sleeps) expect(sleeps).toEqual(f.sleeps);
        for (const table of ['snapshots', 'graded_rows', 'grade_locks', 'ledger_entries', 'ticker_events', 'closing_prices']) expect(count(db, table), table).toBe(0);
        expect(rows(db, "SELECT status FROM pipeline_runs WHERE kind = 'snapshot'", [])).toEqual([{ status: 'failed' }]);
        expect(bookedCredits(db)).toBe(0);
      } finally {
        standin.clearFaults();
      }
    }, 60_000);
  }

  it('a transient 5xx is retried after the back-off and the run grades as before', async () => {
    standin.setNow(NOW);
    const db = await fresh('transient.sqlite');
    sleeps = [];
    standin.fault('odds-api', { kind: '5xx' }, 1);
    const run = await liveRun(['--now', NOW, 'snapshot', 'nba', '--quiet'], db);
    expect(run.code, run.stderr).toBe(0);
    expect(sleeps).toEqual([500]);
    expect(rows(db, GRADED, ['id', 'snapshot_id'])).toEqual(rows(replayDb, GRADED, ['id', 'snapshot_id']));
  }, 120_000);

  it('settle with ESPN failing exits 1 naming ESPN and settles nothing', async () => {
    const db = await fresh('settle-fault.sqlite');
    standin.setNow(NOW);
    expect((await liveRun(['--now', NOW, 'snapshot', 'nba', '--quiet'], db)).code).toBe(0);
    const pending = rows(db, LEDGER);
    standin.setNow(SETTLE_NOW);
    standin.fault('espn', { kind: '5xx' });
    try {
      const run = await liveRun(['--now', SETTLE_NOW, 'settle', 'nba'], db);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/espn scoreboard: unavailable: HTTP 503 from ESPN /);
      expect(rows(db, LEDGER)).toEqual(pending);
    } finally {
      standin.clearFaults();
    }
  }, 120_000);

  it('MLB at its recorded day: the Odds API, the MLB Stats API (lineups, box scores) and ESPN over the socket grade and settle as the replay does', async () => {
    const MLB_NOW = '2025-08-16T16:25:00Z';
    const MLB_SETTLE = '2025-08-17T12:00:00Z';
    const liveDb = join(dir, 'mlb-live.sqlite');
    const replayMlb = join(dir, 'mlb-replay.sqlite');
    for (const path of [liveDb, replayMlb]) {
      // The history a live deployment would already hold (the replay imports the same file itself).
      const store = openStore(path);
      await ensureReplaySeed(store, 'data/replay', readReplayManifest('data/replay').seed as ReplaySeed, new Date(MLB_NOW), collectingLogger(), ['mlb']);
      await store.close();
    }
    expect((await runCli(['--db', replayMlb, '--replay', 'data/replay', '--now', MLB_NOW, '--json', 'snapshot', 'mlb', '--quiet'], {})).code).toBe(0);
    standin.setNow(MLB_NOW);
    const before = standin.served.length;
    const snap = await liveRun(['--now', MLB_NOW, 'snapshot', 'mlb', '--quiet'], liveDb);
    expect(snap.code, snap.stderr).toBe(0);
    const graded = rows(liveDb, GRADED, ['id', 'snapshot_id']);
    expect(graded.length).toBeGreaterThan(100);
    expect(graded).toEqual(rows(replayMlb, GRADED, ['id', 'snapshot_id']));
    // Lineups were asked of the MLB Stats API (the recording holds no pregame schedule: absent in both runs).
    expect(standin.served.slice(before).some((s) => s.provider === 'mlb-statsapi' && s.path.startsWith('/api/v1/schedule?'))).toBe(true);

    standin.setNow(MLB_SETTLE);
    expect((await liveRun(['--now', MLB_SETTLE, 'settle', 'mlb'], liveDb)).code).toBe(0);
    expect((await runCli(['--db', replayMlb, '--replay', 'data/replay', '--now', MLB_SETTLE, '--json', 'settle', 'mlb'], {})).code).toBe(0);
    const settled = rows(liveDb, LEDGER);
    expect(settled.filter((r) => r['outcome'] === 'hit' || r['outcome'] === 'miss').length).toBeGreaterThan(10);
    expect(settled).toEqual(rows(replayMlb, LEDGER));
    expect(standin.served.slice(before).some((s) => s.provider === 'mlb-statsapi' && /\/api\/v1\/game\/\d+\/boxscore/.test(s.path))).toBe(true);
  }, 180_000);

  it('a plain-http provider origin off loopback exits 2 before any request', async () => {
    const before = standin.served.length;
    for (const [name, argv] of [
      ['ODDS_API_BASE_URL', ['snapshot', 'nba']],
      ['ESPN_BASE_URL', ['settle', 'nba']],
      ['MLB_STATSAPI_BASE_URL', ['slate', 'nba']],
    ] as const) {
      const run = await runCli(['--db', join(dir, 'never.sqlite'), '--now', NOW, ...argv], liveEnv({ [name]: 'http://odds.example.test' }));
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`${name}: must be https (plain http only for a loopback host`);
      expect(run.stderr).not.toContain(KEY);
    }
    expect(standin.served.length).toBe(before);
  });
});
