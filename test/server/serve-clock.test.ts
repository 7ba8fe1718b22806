import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/_io.js';
import { seededStore, snapshotAt } from '../helpers/replay-store.js';

describe('propgrade serve on a replayed store, without --now', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('serves as of the newest snapshot and says so, so the bundled day is not "stale"', async () => {
    const t = await seededStore();
    await snapshotAt(t.store, 'nba', '2025-11-05T17:05:00Z');
    t.store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    await t.store.close();
    dirs.push(dirname(t.path));
    let stdout = '';
    let stderr = '';
    const io: CliIO = { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), isTTY: false, env: {} };
    const before = new Set(process.listeners('SIGTERM'));
    expect(await main(['--db', t.path, 'serve', '--port', '0', '--quiet'], io)).toBe(0);
    const stop = process.listeners('SIGTERM').find((l) => !before.has(l)) as () => void;
    try {
      expect(stderr).toContain('clock (each sport its own): nba 2025-11-05T17:05:00.000Z, the time of each sport\'s newest snapshot (replayed from recorded data)');
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout)![1]!;
      const summary = (await (await fetch(new URL('/api/snapshot/summary', url))).json()) as { sports: Array<{ sport: string; sync_status: string }> } & Record<string, unknown>;
      const nba = JSON.stringify(summary);
      expect(nba).toContain('"normal"');
      expect(nba).not.toContain('"stale"');
    } finally {
      stop();
    }
  }, 60_000);
});
