/**
 * One snapshot job for the CLI and the server (issue 28): on a replay that holds an ESPN injuries
 * recording, `propgrade snapshot nba` and `POST /api/internal/snapshot/nba` at the same clock write
 * the same graded rows, field for field, injury chips included (the server's runs read no injury or
 * lineup status before); and on a priced upstream both carry the credits other runs spent that day
 * into their budget and record what they spent (the server's runs recorded none before).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { injuriesUrl } from '../../src/feeds/espn/injuries.js';
import { createReplayTransport } from '../../src/feeds/transport/replay.js';
import type { Transport } from '../../src/feeds/transport/types.js';
import { runSnapshotJob } from '../../src/jobs/snapshot.js';
import { espnLeague } from '../../src/feeds/espn/common.js';
import { createSnapshotRunner } from '../../src/server/snapshot-runner.js';
import { openStore, type Store } from '../../src/store/db.js';
import { addCreditsSpent, creditsSpentToday } from '../../src/store/repo/odds-credits.js';
import { lastRun } from '../../src/store/repo/runs.js';
import { latestSnapshot, snapshotRows } from '../../src/store/repo/snapshots.js';
import { runCli } from '../helpers/cli.js';
import { seededStoreFile } from '../helpers/replay-store.js';
import { quiet, startServer } from '../server/_harness.js';

// A real ESPN injuries payload (copied from ../shared/feeds/espn with its provenance in test/fixtures/espn).
const INJURIES = join('test', 'fixtures', 'espn', 'nba-injuries-2026-05-23.json');
const NOW = '2025-11-05T17:05:00Z';

describe('the snapshot job: the CLI and the server run the same thing', () => {
  let dir: string;
  let replay: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-job-'));
    replay = join(dir, 'replay');
    cpSync('data/replay', replay, { recursive: true });
    // The bundled day plus a real ESPN injuries payload (../shared/feeds/espn), filed as the answer
    // at the run's time: the plumbing under test is the same whatever day the report is from.
    cpSync(INJURIES, join(replay, 'espn', 'nba-injuries.json'));
    const manifest = JSON.parse(readFileSync(join(replay, 'manifest.json'), 'utf8')) as { entries: Array<Record<string, unknown>> };
    const url = injuriesUrl(espnLeague('nba'));
    manifest.entries.push({ key: `espn GET ${url}`, provider: 'espn', url, file: 'espn/nba-injuries.json', status: 200, headers: { 'content-type': 'application/json' }, recordedAt: '2025-11-05T16:00:00Z' });
    writeFileSync(join(replay, 'manifest.json'), JSON.stringify(manifest));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('write the same graded rows, injury chips included', async () => {
    const cliDb = join(dir, 'cli.sqlite');
    const serverDb = join(dir, 'server.sqlite');
    await seededStoreFile(cliDb);
    await seededStoreFile(serverDb);
    const cli = await runCli(['--db', cliDb, 'snapshot', 'nba', '--replay', replay, '--now', NOW, '--quiet']);
    expect(cli.code, cli.stderr).toBe(0);

    const store = openStore(serverDb);
    try {
      const run = createSnapshotRunner(store, { ...loadConfig({}), PROPGRADE_REPLAY: replay }, () => new Date(NOW), { info: () => {}, warn: () => {} });
      const [summary] = await run(['nba']);
      expect(summary?.status).toBe('ok');
    } finally {
      await store.close();
    }

    const rowsOf = async (path: string) => {
      const s = openStore(path);
      try {
        return (await snapshotRows(s, (await latestSnapshot(s, 'nba'))!.id)).map(({ id: _id, snapshotId: _snapshot, ...rest }) => rest);
      } finally {
        await s.close();
      }
    };
    const fromCli = await rowsOf(cliDb);
    const fromServer = await rowsOf(serverDb);
    expect(fromCli.length).toBeGreaterThan(4000);
    expect(fromServer).toEqual(fromCli);
    // The chips are there in both: the server's run reads the injury feed as the CLI's does.
    expect(fromServer.filter((r) => r.injuryStatus !== null).length).toBeGreaterThan(0);
  }, 120_000);
});

/**
 * The Odds API as its documentation prices it, over the bundled recording: every answer carries
 * `x-requests-last` (the call's cost: markets x regions for an event's odds; listing events is
 * free), `x-requests-used` and `x-requests-remaining`, and is served as a live answer.
 */
function pricedUpstream(startUsed: number): { transport: Transport; charged: () => number } {
  const replay = createReplayTransport('data/replay', { now: () => new Date(NOW) });
  let used = startUsed;
  let charged = 0;
  const transport: Transport = {
    kind: 'live',
    async fetch(request) {
      const out = await replay.fetch(request);
      if (!out.ok || request.provider !== 'odds-api') return out.ok ? { ...out, source: 'live' } : out;
      const url = new URL(request.url);
      const perRegion = (url.searchParams.get('markets') ?? '').split(',').filter(Boolean).length;
      const regions = (url.searchParams.get('regions') ?? '').split(',').filter(Boolean).length;
      const cost = /\/events\/[^/]+\/odds$/.test(url.pathname) ? perRegion * regions : 0;
      used += cost;
      charged += cost;
      const headers = { ...out.headers, 'x-requests-last': String(cost), 'x-requests-used': String(used), 'x-requests-remaining': String(20_000 - used) };
      return { ...out, headers, source: 'live' };
    },
    close: () => replay.close?.() ?? Promise.resolve(),
  };
  return { transport, charged: () => charged };
}

describe('the snapshot job: both runs carry and record the day\'s Odds API credits', () => {
  const EARLIER = 37; // credits other runs (combat, futures, an earlier snapshot) spent today
  // Credits are money: they count by the wall clock's day, not the day the data is read as of.
  const WALL = new Date('2026-11-27T15:00:00Z');
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-credits-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const seeded = async (name: string) => {
    const path = join(dir, name);
    await seededStoreFile(path);
    const store = openStore(path);
    await addCreditsSpent(store, WALL, EARLIER);
    return store;
  };
  const nbaRun = (store: Store) => lastRun(store, 'snapshot', 'nba');

  it('the CLI\'s job and POST /api/internal/snapshot/nba spend, carry and record the same credits', async () => {
    const config = loadConfig({ ODDS_API_KEY: 'test-odds-key-0123', INTERNAL_API_KEY: 'test-internal-key-0123456789' });

    // The job exactly as `propgrade snapshot nba --now NOW` calls it, on a live (priced) upstream.
    const cliStore = await seeded('cli.sqlite');
    const cliUpstream = pricedUpstream(1_000);
    try {
      const [summary] = await runSnapshotJob({ store: cliStore, config, sports: ['nba'], now: new Date(NOW), pinned: true, replayDir: null, recordDir: null, log: quiet, wallNow: () => WALL, transport: cliUpstream.transport });
      expect(summary?.status).toBe('ok');
    } finally {
      await cliStore.close();
    }

    // The same run through the real app on a loopback socket, called as cron's proxy would call it.
    const serverStore = await seeded('server.sqlite');
    const serverUpstream = pricedUpstream(1_000);
    const runner = createSnapshotRunner(serverStore, config, () => new Date(NOW), quiet, () => WALL, () => serverUpstream.transport);
    const running = await startServer({ store: serverStore, config, now: () => new Date(NOW), wallClock: () => WALL, runSnapshot: runner });
    try {
      const res = await fetch(`${running.base}/api/internal/snapshot/nba`, { method: 'POST', headers: { 'x-internal-key': 'test-internal-key-0123456789' } });
      expect(res.status).toBe(200);
    } finally {
      await running.close();
    }

    const spent = cliUpstream.charged();
    expect(spent).toBeGreaterThan(0);
    expect(serverUpstream.charged()).toBe(spent);
    const cli = openStore(join(dir, 'cli.sqlite'));
    try {
      for (const store of [cli, serverStore]) {
        // Recorded: the day's count is the earlier runs' plus this run's, as the upstream charged it.
        expect(await creditsSpentToday(store, WALL)).toBe(EARLIER + spent);
        // Nothing is booked on the data clock's day (2025-11-05), which the run graded.
        expect(await creditsSpentToday(store, new Date(NOW))).toBe(0);
        // Carried: the run's budget started from the day's earlier spend.
        expect((await nbaRun(store))?.creditsUsed).toBe(EARLIER + spent);
        expect((await nbaRun(store))?.creditsRemaining).toBe(20_000 - 1_000 - spent);
      }
    } finally {
      await cli.close();
      await serverStore.close();
    }
  }, 120_000);
});
