import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';
import { replayLoopFiles } from '../helpers/replay-store.js';

/**
 * The slate of the README loop (two snapshots of 2025-11-05): what a table leads with is true now,
 * and an ungraded row says why. The bands below are the documented ones (docs/model.md §3), written
 * out here rather than read from the code.
 */

interface Row {
  player: string;
  grade: string | null;
  ev_pct: number | null;
  ev_now_pct: number | null;
  edge_now: string | null;
  refusal_reason: string | null;
}
const ORDER = ['A+', 'A', 'B', 'C', 'F'];
const band = (ev: number) => (ev >= 5 ? 'A+' : ev >= 2 ? 'A' : ev >= 0 ? 'B' : ev >= -4 ? 'C' : 'F');
/** The documented standing letter's rank: 0 = A+ ... 4 = F, 5 = no grade. */
function standingRank(r: Row): number {
  if (r.grade === null) return 5;
  const locked = ORDER.indexOf(r.grade);
  if ((r.edge_now === 'reduced' || r.edge_now === 'gone') && r.ev_now_pct !== null) return Math.max(locked, ORDER.indexOf(band(r.ev_now_pct)));
  return locked;
}

let dir: string;
let db: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propgrade-slate-cli-'));
  db = (await replayLoopFiles(dir)).presettle;
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('propgrade slate (the README loop at 17:05)', () => {
  it('orders each game by the claim as it stands now: a gone edge never leads, ranked with the letter today\'s EV earns', async () => {
    const all = JSON.parse((await runCli(['--db', db, '--json', 'slate', 'nba', '--all'])).stdout) as { games: { rows: Row[] }[] };
    const rows = all.games.flatMap((g) => g.rows);
    const gone = rows.filter((r) => r.edge_now === 'gone');
    expect(gone.length).toBeGreaterThan(0);
    for (const g of all.games) {
      const ranks = g.rows.map(standingRank);
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      // Within a standing letter, today's EV leads.
      for (let i = 1; i < g.rows.length; i++) {
        const [a, b] = [g.rows[i - 1]!, g.rows[i]!];
        if (standingRank(a) === standingRank(b) && a.ev_now_pct !== null && b.ev_now_pct !== null) expect(a.ev_now_pct).toBeGreaterThanOrEqual(b.ev_now_pct);
      }
    }
    // The README's example: Kelly Oubre Jr's A+ over, gone at -5.2%, ranks with the F rows.
    const kelly = rows.find((r) => r.player === 'Kelly Oubre Jr' && r.grade === 'A+' && r.edge_now === 'gone')!;
    expect(standingRank(kelly)).toBe(4);
    const card = JSON.parse((await runCli(['--db', db, '--json', 'slate', 'nba'])).stdout) as { games: { rows: Row[] }[] };
    for (const g of card.games) expect(g.rows[0]!.edge_now).not.toBe('gone');
  });

  it('an ungraded row says why in a word, with its legend line; the count matches the store', async () => {
    const store = openStore(db);
    const noHistory = (
      store.sqlite
        .prepare("select count(*) as n from graded_rows where snapshot_id = (select max(id) from snapshots) and grade is null and refusal_reason like 'only % played game(s) with % in the last % days (need %)'")
        .get() as { n: number }
    ).n;
    const ungraded = (store.sqlite.prepare('select count(*) as n from graded_rows where snapshot_id = (select max(id) from snapshots) and grade is null').get() as { n: number }).n;
    void store.close();
    expect(noHistory).toBe(646);
    expect(ungraded).toBe(noHistory);
    const r = await runCli(['--db', db, 'slate', 'nba', '--all'], { NO_COLOR: '1' });
    expect(r.code, r.stderr).toBe(0);
    const cells = r.stdout.split('\n').filter((l) => /^│ —/.test(l));
    expect(cells).toHaveLength(ungraded);
    expect(cells.every((l) => l.includes('│ no history '))).toBe(true);
    expect(r.stdout).toContain('No grade (—), why in Graded: no history = too few played games with the stat in the lookback (5 needed)');
    expect(r.stdout).toMatch(/^Order = the claim as it stands now/m);
  });
});
