/**
 * Issue 33, done-when: on the store of the README's first command (`snapshot all --replay
 * data/replay`), for every graded row of NBA, WNBA and MLB, ev_pct is the EV of the locked price
 * against the market's locked fair: 100 x (locked_fair_prob x decimal(locked_odds) - 1) within 0.1
 * (no model term in any letter), and the letter is the band of the printed EV, or the row names the
 * cap that holds it below that band. Decimal odds and bands are computed here from the raw columns,
 * not by the code under test.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { seededStoreFile } from '../helpers/replay-store.js';

interface Row {
  sport: string;
  player: string;
  stat_type: string;
  line: number;
  side: string;
  grade: string;
  grade_uncapped: string | null;
  cap_reason: string | null;
  ev_pct: number;
  locked_odds: number;
  locked_fair_prob: number;
  fair_source: string | null;
}

const decimalOf = (american: number): number => (american > 0 ? 1 + american / 100 : 1 + 100 / -american);
/** The band of an EV as printed with one decimal (README: A+ >= +5%, A +2..5%, B 0..+2%, C -4..0%, F below). */
const bandOf = (printed: number): string => (printed >= 5 ? 'A+' : printed >= 2 ? 'A' : printed >= 0 ? 'B' : printed >= -4 ? 'C' : 'F');
const printedOf = (ev: number): number => Number.parseFloat(ev.toFixed(1));

describe('the letter is the EV of the locked price against the market fair, in every sport (bundled replay)', () => {
  let dir: string;
  let db: string;
  let rows: Row[];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-ev-'));
    db = join(dir, 'pg.sqlite');
    await seededStoreFile(db);
    const run = await runCli(['--db', db, 'snapshot', 'all', '--replay', 'data/replay']);
    expect(run.code, run.stderr).toBe(0);
    const sql = new Database(db, { readonly: true });
    // The newest snapshot per sport: what `slate <sport>` reads.
    rows = sql
      .prepare(
        `select s.sport, g.player, g.stat_type, g.line, g.side, g.grade, g.grade_uncapped, g.cap_reason, g.ev_pct, g.locked_odds, g.locked_fair_prob, g.fair_source
         from graded_rows g join snapshots s on s.id = g.snapshot_id
         where g.grade is not null and s.id = (select id from snapshots s2 where s2.sport = s.sport order by taken_at desc, id desc limit 1)`,
      )
      .all() as Row[];
    sql.close();
  }, 240_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ev_pct = 100 x (locked_fair_prob x decimal(locked_odds) - 1) within 0.1 on every graded row of NBA, WNBA and MLB', () => {
    for (const sport of ['nba', 'wnba', 'mlb']) {
      const graded = rows.filter((r) => r.sport === sport);
      expect(graded.length, sport).toBeGreaterThan(100);
      const off = graded.filter((r) => Math.abs(r.ev_pct - 100 * (r.locked_fair_prob * decimalOf(r.locked_odds) - 1)) > 0.1);
      expect(off.map((r) => `${r.player} ${r.stat_type} ${r.line} ${r.side} ${r.ev_pct}`), sport).toEqual([]);
    }
    // The WNBA rebounds rows the issue named are on the market now (Alyssa Thomas 9.5 under was "B +21.3%").
    const thomas = rows.find((r) => r.sport === 'wnba' && r.player === 'Alyssa Thomas' && r.stat_type === 'rebounds' && r.line === 9.5 && r.side === 'under');
    if (thomas) expect(thomas.ev_pct).toBeLessThan(0);
  });

  it('the letter is the band of the printed EV, or the row names its cap and the band it would earn', () => {
    const order = ['A+', 'A', 'B', 'C', 'F'];
    let capped = 0;
    for (const r of rows) {
      const band = bandOf(printedOf(r.ev_pct));
      expect(r.grade_uncapped, `${r.sport} ${r.player}`).toBe(band);
      if (r.grade === band) {
        expect(r.cap_reason).toBeNull();
      } else {
        capped += 1;
        expect(r.cap_reason, `${r.sport} ${r.player} ${r.stat_type} ${r.line} ${r.grade} vs ${band}`).not.toBeNull();
        // A cap only ever lowers a letter.
        expect(order.indexOf(r.grade)).toBeGreaterThan(order.indexOf(band));
      }
    }
    expect(capped).toBeGreaterThan(0);
    // Every reason matches the market the row was graded on.
    for (const r of rows.filter((x) => x.cap_reason === 'alternate_rung')) expect(r.fair_source).toBe('market_implied');
    for (const r of rows.filter((x) => x.cap_reason === 'own_book_only')) expect(r.fair_source).toBe('book');
  });
});
