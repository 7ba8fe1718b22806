import { copyFileSync, existsSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';
import { seededStore, snapshotAt } from '../helpers/replay-store.js';
import { quiet, startServer } from '../server/_harness.js';

const counts = (path: string): Record<string, number> => {
  const store = openStore(path);
  try {
    const out: Record<string, number> = {};
    for (const t of ['snapshots', 'graded_rows', 'ledger_entries', 'player_game_stats', 'grade_locks']) out[t] = (store.sqlite.prepare(`select count(*) as n from ${t}`).get() as { n: number }).n;
    return out;
  } finally {
    void store.close();
  }
};

describe('store care: db check, db backup and the README restore drill', () => {
  const dir = mkdtempSync(join(tmpdir(), 'propgrade-care-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('backs up while the server serves reads, checks the copy, and restores it', async () => {
    const t = await seededStore();
    await snapshotAt(t.store, 'nba', '2025-11-05T17:05:00Z');
    const live = t.path;
    const api = await startServer({ store: t.store, config: loadConfig({}), now: () => new Date('2025-11-05T17:10:00Z'), log: quiet });
    try {
      // Readers keep going during the backup.
      const reads = Array.from({ length: 20 }, () => fetch(`${api.base}/api/snapshot/summary`).then((r) => r.status));
      const backup = join(dir, 'backups', 'pg-2025-11-05.sqlite');
      const r = await runCli(['--db', live, '--json', 'db', 'backup', backup]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ target: backup, check: { ok: true } });
      expect((await Promise.all(reads)).every((s) => s === 200)).toBe(true);
      // A backup never overwrites.
      const again = await runCli(['--db', live, 'db', 'backup', backup]);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('exists; choose a new file');

      // The drill (README "Operations"): check the copy, put it in place, check and read again.
      const check = await runCli(['--db', backup, 'db', 'check']);
      expect(check.code, check.stdout).toBe(0);
      expect(check.stdout).toContain(': ok');
      const restored = join(dir, 'restored.sqlite');
      copyFileSync(backup, restored);
      for (const ext of ['-wal', '-shm']) if (existsSync(restored + ext)) unlinkSync(restored + ext);
      expect(counts(restored)).toEqual(counts(live));
      const slate = await runCli(['--db', restored, 'slate', 'nba']);
      expect(slate.code).toBe(0);
      expect(slate.stdout).toContain('NBA slate 2025-11-05');
    } finally {
      await api.close();
      t.cleanup();
    }
  }, 60_000);

  it('db check finds orphan rows and exits 1; a missing store is named', async () => {
    const path = join(dir, 'orphans.sqlite');
    const store = openStore(path);
    store.sqlite.pragma('foreign_keys = OFF');
    store.sqlite.prepare(`insert into api_tokens (user_id, token_hash, created_at) values (999, 'x', '2026-01-01T00:00:00Z')`).run();
    await store.close();
    const r = await runCli(['--db', path, '--json', 'db', 'check']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.ok).toBe(false);
    expect(report.orphans).toContainEqual({ relation: 'api_tokens -> users', rows: 1 });
    const missing = await runCli(['--db', join(dir, 'nope.sqlite'), 'db', 'check']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no store at');
  });
});
