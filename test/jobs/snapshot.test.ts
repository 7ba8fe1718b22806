/**
 * One snapshot job for the CLI and the server (issue 28): on a replay that holds an ESPN injuries
 * recording, `propgrade snapshot nba` and `POST /api/internal/snapshot/nba` at the same clock write
 * the same graded rows, field for field, injury chips included (the server's runs read no injury or
 * lineup status before).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { injuriesUrl } from '../../src/feeds/espn/injuries.js';
import { espnLeague } from '../../src/feeds/espn/common.js';
import { createSnapshotRunner } from '../../src/server/snapshot-runner.js';
import { openStore } from '../../src/store/db.js';
import { latestSnapshot, snapshotRows } from '../../src/store/repo/snapshots.js';
import { runCli } from '../helpers/cli.js';
import { seededStoreFile } from '../helpers/replay-store.js';

const INJURIES = join('..', 'shared', 'feeds', 'espn', 'nba-injuries-2026-05-23.json');
const NOW = '2025-11-05T17:05:00Z';

describe.skipIf(!existsSync(INJURIES))('the snapshot job: the CLI and the server run the same thing', () => {
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
    seededStoreFile(cliDb);
    seededStoreFile(serverDb);
    const cli = await runCli(['--db', cliDb, 'snapshot', 'nba', '--replay', replay, '--now', NOW, '--quiet']);
    expect(cli.code, cli.stderr).toBe(0);

    const store = openStore(serverDb);
    try {
      const run = createSnapshotRunner(store, { ...loadConfig({}), PROPGRADE_REPLAY: replay }, () => new Date(NOW), { info: () => {}, warn: () => {} });
      const [summary] = await run(['nba']);
      expect(summary?.status).toBe('ok');
    } finally {
      store.close();
    }

    const rowsOf = (path: string) => {
      const s = openStore(path);
      try {
        return snapshotRows(s.db, latestSnapshot(s.db, 'nba')!.id).map(({ id: _id, snapshotId: _snapshot, ...rest }) => rest);
      } finally {
        s.close();
      }
    };
    const fromCli = rowsOf(cliDb);
    const fromServer = rowsOf(serverDb);
    expect(fromCli.length).toBeGreaterThan(4000);
    expect(fromServer).toEqual(fromCli);
    // The chips are there in both: the server's run reads the injury feed as the CLI's does.
    expect(fromServer.filter((r) => r.injuryStatus !== null).length).toBeGreaterThan(0);
  }, 120_000);
});
