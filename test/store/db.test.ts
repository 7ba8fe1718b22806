import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationStatus, openStore } from '../../src/store/db.js';
import { insertLedgerEntries, type NewLedgerEntry } from '../../src/store/repo/ledger.js';
import { runCli } from '../helpers/cli.js';

describe('the store', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('opens with WAL, foreign keys and a busy timeout, creating the folder and applying every migration', async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-db-'));
    const path = join(dir, 'nested', 'folder', 'pg.sqlite');
    expect(migrationStatus(path).exists).toBe(false);
    const store = openStore(path);
    expect(store.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(store.sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);
    await store.close();
    const status = migrationStatus(path);
    expect(status.pending).toEqual([]);
    expect(status.applied.map((a) => a.tag)).toEqual(['0000_init', '0001_run_locks', '0002_ledger_closing_book', '0003_graded_rows_main_line', '0004_market_fair', '0005_snapshot_source', '0006_accounts_content', '0007_history_one_index', '0008_claim_price_one_yardstick', '0009_close_lead_minutes', '0010_grade_cap', '0011_data_migrations', '0012_close_books_pinnacle', '0013_ledger_entered_at']);
    expect(status.tables.map((t) => t.name)).toContain('ledger_entries');
  });

  it('the public record never duplicates: the unique key treats a null user as one owner', async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-db-'));
    const store = openStore(join(dir, 'pg.sqlite'));
    const entry: NewLedgerEntry = {
      userId: null,
      source: 'pipeline',
      sport: 'nba',
      eventId: 'e1',
      commenceTime: '2025-11-06T00:00:00Z',
      gameDate: '2025-11-05',
      player: 'Jalen Brunson',
      playerKey: 'jalen brunson',
      statType: 'points',
      line: 27.5,
      side: 'over',
      lockedAt: '2025-11-05T17:05:00Z',
      outcome: 'pending',
    };
    expect(await insertLedgerEntries(store, [entry])).toBe(1);
    expect(await insertLedgerEntries(store, [{ ...entry, lockedAt: '2025-11-05T18:00:00Z' }])).toBe(0);
    const count = store.sqlite.prepare('select count(*) as n from ledger_entries').get() as { n: number };
    expect(count.n).toBe(1);
    await store.close();
  });

  it('db migrate and db status report through the CLI', async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-db-'));
    const db = join(dir, 'pg.sqlite');
    const before = await runCli(['--db', db, '--json', 'db', 'status']);
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toMatchObject({ exists: false });
    const migrate = await runCli(['--db', db, '--json', 'db', 'migrate']);
    expect(JSON.parse(migrate.stdout).applied).toEqual(['0000_init', '0001_run_locks', '0002_ledger_closing_book', '0003_graded_rows_main_line', '0004_market_fair', '0005_snapshot_source', '0006_accounts_content', '0007_history_one_index', '0008_claim_price_one_yardstick', '0009_close_lead_minutes', '0010_grade_cap', '0011_data_migrations', '0012_close_books_pinnacle', '0013_ledger_entered_at']);
    const again = await runCli(['--db', db, '--json', 'db', 'migrate']);
    expect(JSON.parse(again.stdout)).toMatchObject({ applied: [], pending: [] });
  });
});
