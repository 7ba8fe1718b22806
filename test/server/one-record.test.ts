import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { seasonRecord } from '../../src/domain/season-record.js';
import { readClock, requestClock } from '../../src/reads/read-clock.js';
import { readModelRecord } from '../../src/reads/record.js';
import { openStore, type SqliteStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';
import { everySportLoopFile } from '../helpers/replay-store.js';
import { startServer, type Running } from './_harness.js';

/**
 * One record (issue 41 item 3): on a store holding the three recorded sports and the NBA loop,
 * `propgrade record --json`, GET /api/ledger/model and GET /api/accuracy count the same entries in
 * the same windows, each sport's 30 days ending on its own data clock, and print the same figures
 * and intervals; `simulate`'s season record gives the same 95% intervals for the same entries.
 * Before: the CLI counted 488 entries, both routes 448 (30 days on the newest snapshot's clock).
 */
interface Row {
  id: number;
  sport: string;
  game_date: string;
  grade: string | null;
  outcome: string;
  locked_price: number | null;
  clv_verdict: string | null;
  close_lead_minutes: number | null;
  p_win: number | null;
  event_id: string;
}

/** Each sport's 30 ET days ending on the ET date of its newest snapshot (the bundled recording's clocks). */
const WINDOWS = [
  { sport: 'mlb', from: '2025-07-18', to: '2025-08-16' },
  { sport: 'nba', from: '2025-10-07', to: '2025-11-05' },
  { sport: 'wnba', from: '2024-05-04', to: '2024-06-02' },
  // The EPL matchday of 2025-08-30 (issue 42): its 4 pre-grades.
  { sport: 'soccer', from: '2025-08-01', to: '2025-08-30' },
];

describe('one record through the CLI and the API', () => {
  let dir: string;
  let db: string;
  let store: SqliteStore;
  let rows: Row[];
  let api: Running;
  const cli = (argv: string[]) => runCli(['--db', db, ...argv], { NO_COLOR: '1' });
  const get = async (path: string) => (await (await fetch(`${api.base}${path}`)).json()) as Record<string, any>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-one-record-'));
    db = join(dir, 'pg.sqlite');
    await everySportLoopFile(db, cli);
    store = openStore(db);
    rows = store.sqlite
      .prepare('select id, sport, game_date, grade, outcome, locked_price, clv_verdict, close_lead_minutes, p_win, event_id from ledger_entries where user_id is null order by id')
      .all() as Row[];
    const clock = await readClock(store, null, new Date(), loadConfig({}).SNAPSHOT_EXPECTED_INTERVAL);
    api = await startServer({ store, config: loadConfig({}), now: requestClock(clock) });
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts every public entry of each sport in its own window, the same number three ways', async () => {
    const inWindow = rows.filter((r) => WINDOWS.some((w) => w.sport === r.sport && r.game_date >= w.from && r.game_date <= w.to));
    // The NBA loop's 448 (2 snapshots), the recording's 20 WNBA, 20 MLB and 4 EPL pre-grades (the 2025-08-30 matchday, issue 42).
    expect(inWindow).toHaveLength(492);
    expect(new Map(['nba', 'wnba', 'mlb', 'soccer'].map((s) => [s, inWindow.filter((r) => r.sport === s).length]))).toEqual(new Map([['nba', 448], ['wnba', 20], ['mlb', 20], ['soccer', 4]]));
    const record = JSON.parse((await cli(['record', '--json'])).stdout);
    const model = await get('/api/ledger/model?limit=500');
    const accuracy = await get('/api/accuracy');
    for (const answer of [record, model]) {
      expect(answer.aggregate.counts.entries).toBe(492);
      expect(answer.aggregate.window).toEqual({ from: '2024-05-04', to: '2025-11-05' });
      expect(answer.windows).toEqual(WINDOWS);
    }
    expect(accuracy.windows).toEqual(record.windows);
    // The entries the API lists are the ones it counted.
    expect(model.total).toBe(492);
    expect(model.entries.map((e: { id: number }) => e.id).sort((a: number, b: number) => a - b)).toEqual(inWindow.map((r) => r.id));
  });

  it('prints the same figures and intervals through the CLI and both routes', async () => {
    const record = JSON.parse((await cli(['record', '--json'])).stdout);
    const model = await get('/api/ledger/model?limit=1');
    const accuracy = await get('/api/accuracy');
    expect(model.tiers).toEqual(record.tiers);
    expect(model.aggregate).toEqual(record.aggregate);
    expect(model.capped).toEqual(record.capped);
    for (const t of record.tiers) {
      const a = accuracy.tiers.find((x: { grade: string }) => x.grade === t.grade);
      expect(a.units, t.grade).toEqual(t.units);
      expect([a.n, a.hits, a.pct], t.grade).toEqual([t.hit_rate.n, t.hit_rate.successes, t.hit_rate.pct]);
      // The same Wilson interval; the two answers print it to different places (the wire rounds by context).
      expect(a.ci95, t.grade).toEqual(t.hit_rate.ci95 === null ? null : t.hit_rate.ci95.map((v: number) => expect.closeTo(v, 3)));
    }
    // The NBA C tier has 320 settled stakes: a real interval, resampled by game.
    const c = record.tiers.find((t: { grade: string }) => t.grade === 'C');
    expect(c.units.n).toBeGreaterThan(300);
    expect(c.units.roi_ci95[0]).toBeLessThan(c.units.roi_pct);
    expect(c.units.roi_ci95[1]).toBeGreaterThan(c.units.roi_pct);
  });

  it('gives the season record\'s intervals for the same entries (simulate and record, one method)', async () => {
    const nba = rows.filter((r) => r.sport === 'nba');
    const season = seasonRecord(nba.map((r) => ({ grade: r.grade, outcome: r.outcome, lockedPrice: r.locked_price, clvVerdict: r.clv_verdict, closeLeadMinutes: r.close_lead_minutes, pWin: r.p_win, eventId: r.event_id })));
    const read = await readModelRecord(store, { now: new Date('2025-11-05T17:05:00Z'), sport: 'nba' });
    expect(read.aggregate.units.n).toBe(season.all?.n);
    expect(read.aggregate.units.roiCi95).toEqual(season.all?.roiPct.ci95);
    for (const t of read.tiers) {
      const s = season[t.grade];
      if (!s || t.units.roiCi95 === null) continue;
      expect(t.units.roiCi95, t.grade).toEqual(s.roiPct.ci95);
      expect(t.hitRate.ci95?.map((v) => v / 100), t.grade).toEqual(s.hitRateCi95?.map((v) => expect.closeTo(v, 12)));
    }
  });
});
