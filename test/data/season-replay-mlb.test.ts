import fs, { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';

/**
 * The MLB season builder (scripts/season-replay/mlb.mjs) on one real day, run through the product
 * the way `simulate` runs a season: every recorded snapshot in time order, then a settle the next
 * morning. Outcomes are checked against the raw game-log rows, not against the code's fields.
 */
const SHARED = path.resolve('..', 'shared');
const LOGS = join(SHARED, 'history', 'mlb_pitcher_game_logs_2025.csv');
const available = fs.existsSync(LOGS) && fs.existsSync(join(SHARED, 'history', 'mlb_pitcher_strikeouts_props_first_last_pregame_2025.csv'));
const DAY = '2025-06-10';

const fold = (n: string) =>
  n.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[.']/g, '').replace(/-/g, ' ').split(/\s+/).filter((t) => t && !['jr', 'sr', 'ii', 'iii'].includes(t)).join(' ');

describe.skipIf(!available)(`MLB season replay, one day (${DAY}) through snapshot and settle`, () => {
  let dir: string;
  let db: string;
  let summary: { snapshots: number; days: number; boxscores: number; recordingTimes: string[] };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-season-mlb-'));
    db = join(dir, 'pg.sqlite');
    // A plain-ESM script (no types): imported by URL.
    const { build } = (await import(pathToFileURL(path.resolve('scripts/season-replay/mlb.mjs')).href)) as { build: (o: object) => typeof summary };
    summary = build({ shared: SHARED, outDir: join(dir, 'replay'), from: DAY, to: DAY });
    for (const t of summary.recordingTimes) {
      const r = await runCli(['--db', db, 'snapshot', 'mlb', '--replay', join(dir, 'replay'), '--now', t, '--quiet']);
      expect(r.code, r.stderr).toBe(0);
    }
    const s = await runCli(['--db', db, 'settle', 'mlb', '--replay', join(dir, 'replay'), '--now', '2025-06-11T12:00:00Z']);
    expect(s.code, s.stderr).toBe(0);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every snapshot time of the day and one box score per game', () => {
    expect(summary.snapshots).toBeGreaterThanOrEqual(4);
    expect(summary.days).toBe(1);
    expect(summary.boxscores).toBeGreaterThanOrEqual(10);
  });

  it('settles at least 90% of the entries whose games are in the logs, each as the raw row says', () => {
    const [head, ...lines] = fs.readFileSync(LOGS, 'utf8').trim().split(/\r?\n/);
    const cols = head!.split(',');
    const raw = lines.filter((l) => l.startsWith(`${DAY},`)).map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i]!, v])));
    const store = openStore(db);
    try {
      const entries = store.sqlite.prepare(`select player, game_date, line, side, outcome, actual_value from ledger_entries where sport = 'mlb' and game_date = ?`).all(DAY) as Array<{ player: string; line: number; side: 'over' | 'under'; outcome: string; actual_value: number | null }>;
      expect(entries.length).toBeGreaterThan(0);
      let inLogs = 0;
      let settled = 0;
      for (const e of entries) {
        const rows = raw.filter((r) => fold(r.pitcher!) === fold(e.player));
        if (rows.length === 0) continue;
        inLogs += 1;
        if (e.outcome === 'pending') continue;
        settled += 1;
        const row = rows[0]!;
        if (row.is_starter !== '1') {
          expect(e.outcome, e.player).toBe('void');
          continue;
        }
        const k = Number(row.strikeouts);
        expect(e.actual_value, e.player).toBe(k);
        expect(e.outcome, e.player).toBe(k === e.line ? 'push' : (k > e.line) === (e.side === 'over') ? 'hit' : 'miss');
      }
      expect(inLogs).toBeGreaterThan(0);
      expect(settled / inLogs).toBeGreaterThanOrEqual(0.9);
    } finally {
      void store.close();
    }
  });
});
