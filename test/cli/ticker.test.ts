/**
 * `propgrade ticker pin` parses, calls the pin job (jobs/ticker.ts) and renders: the line and the
 * --json it prints and the row the job wrote.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';

let dir: string;
let db: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propgrade-ticker-cli-'));
  db = join(dir, 'pg.sqlite');
  // A pin goes into an existing store: only snapshot, import, db migrate and users add make one.
  await openStore(db).close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('propgrade ticker pin', () => {
  it('prints the pin and its expiry, as text and as --json, and writes one PIN row at the data clock', async () => {
    const now = ['--db', db, '--now', '2025-11-05T17:05:00Z'];
    const text = await runCli([...now, 'ticker', 'pin', 'Rain delay risk at Wrigley', '--sport', 'mlb', '--hours', '6']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe('Pinned: Rain delay risk at Wrigley (until 2025-11-05T23:05:00.000Z)\n');
    const json = await runCli([...now, '--json', 'ticker', 'pin', 'Doubleheader today: lineups at 11am']);
    expect(JSON.parse(json.stdout)).toEqual({ pinned: 'Doubleheader today: lineups at 11am', expires_at: null });

    const store = openStore(db);
    const rows = store.sqlite.prepare('select kind, sport, created_at as createdAt, text, expires_at as expiresAt from ticker_events order by id').all();
    void store.close();
    expect(rows).toEqual([
      { kind: 'PIN', sport: 'mlb', createdAt: '2025-11-05T17:05:00.000Z', text: 'Rain delay risk at Wrigley', expiresAt: '2025-11-05T23:05:00.000Z' },
      { kind: 'PIN', sport: null, createdAt: '2025-11-05T17:05:00.000Z', text: 'Doubleheader today: lineups at 11am', expiresAt: null },
    ]);
  });

  it('refuses an empty pin (exit 2) and writes nothing', async () => {
    const count = () => {
      const store = openStore(db);
      const n = (store.sqlite.prepare('select count(*) as n from ticker_events').get() as { n: number }).n;
      void store.close();
      return n;
    };
    const before = count();
    const r = await runCli(['--db', db, 'ticker', 'pin', '   ']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pin text is empty');
    expect(count()).toBe(before);
  });
});
