import fs, { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import zlib from 'node:zlib';
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
      // The merged folder's books sit in three regions (its manifest's oddsRegions, which simulate asks).
      const r = await runCli(['--db', db, 'snapshot', 'mlb', '--replay', join(dir, 'replay'), '--now', t, '--quiet'], { ODDS_API_REGIONS: 'us,eu,au' });
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

  it("carries Pinnacle's and Neds' outs as the raw file prices them (decimal to American, same line)", () => {
    const gz = zlib.gunzipSync(fs.readFileSync(join(SHARED, 'history', 'mlb_player_props_pinnacle_au_2025.csv.gz'))).toString('utf8');
    const [head, ...lines] = gz.trim().split(/\r?\n/);
    const cols = head!.split(',');
    const at = (name: string) => cols.indexOf(name);
    // Raw outs prices per book|line|American price (the CSV's outs rows have no quoted commas).
    const rawPrices = new Set<string>();
    for (const l of lines) {
      const c = l.split(',');
      if (c[at('market')] !== 'pitcher_outs') continue;
      for (const d of [c[at('over_price')], c[at('under_price')]]) {
        const x = Number(d);
        if (!(x > 1)) continue;
        const american = Math.round((x >= 2 ? 100 * (x - 1) : -100 / (x - 1)) * 100) / 100;
        rawPrices.add(`${c[at('book_key')]}|${Number(c[at('line')])}|${american}`);
      }
    }
    const manifest = JSON.parse(fs.readFileSync(join(dir, 'replay', 'manifest.json'), 'utf8')) as { entries: Array<{ file: string; url: string }> };
    let outcomes = 0;
    const books = new Set<string>();
    for (const e of manifest.entries.filter((x) => x.url.includes('/events/') && x.url.includes('/odds?'))) {
      expect(e.url).toContain('pitcher_outs');
      const body = JSON.parse(fs.readFileSync(join(dir, 'replay', e.file), 'utf8')) as { bookmakers: Array<{ key: string; markets: Array<{ key: string; outcomes: Array<{ point: number; price: number }> }> }> };
      for (const b of body.bookmakers) {
        for (const m of b.markets.filter((x) => x.key === 'pitcher_outs')) {
          books.add(b.key);
          for (const o of m.outcomes) {
            expect(rawPrices.has(`${b.key}|${o.point}|${o.price}`), `${b.key} ${o.point} ${o.price}`).toBe(true);
            outcomes += 1;
          }
        }
        // Hits allowed and batter markets stay out of the folder.
        expect(b.markets.every((m) => m.key === 'pitcher_strikeouts' || m.key === 'pitcher_outs')).toBe(true);
      }
    }
    expect(outcomes).toBeGreaterThan(20);
    expect(books.has('pinnacle')).toBe(true);
  });

  it('settles at least 90% of the entries whose games are in the logs, each as the raw row says', () => {
    const [head, ...lines] = fs.readFileSync(LOGS, 'utf8').trim().split(/\r?\n/);
    const cols = head!.split(',');
    const raw = lines.filter((l) => l.startsWith(`${DAY},`)).map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i]!, v])));
    const store = openStore(db);
    try {
      const entries = store.sqlite.prepare(`select player, stat_type, game_date, line, side, outcome, actual_value from ledger_entries where sport = 'mlb' and game_date = ?`).all(DAY) as Array<{ player: string; stat_type: string; line: number; side: 'over' | 'under'; outcome: string; actual_value: number | null }>;
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
        // Outs from the raw innings pitched ("5.2" = 17), strikeouts as written.
        const [whole, third] = row.innings_pitched!.split('.');
        const k = e.stat_type === 'pitcher_outs' ? Number(whole) * 3 + Number(third ?? '0') : Number(row.strikeouts);
        expect(['strikeouts', 'pitcher_outs']).toContain(e.stat_type);
        expect(e.actual_value, e.player).toBe(k);
        expect(e.outcome, e.player).toBe(k === e.line ? 'push' : (k > e.line) === (e.side === 'over') ? 'hit' : 'miss');
      }
      expect(inLogs).toBeGreaterThan(0);
      // Pinnacle's outs reach the ledger that day (issue 43) and settle from innings pitched (checked above).
      expect(entries.filter((e) => e.stat_type === 'pitcher_outs' && e.outcome !== 'pending').length).toBeGreaterThan(0);
      expect(settled / inLogs).toBeGreaterThanOrEqual(0.9);
    } finally {
      void store.close();
    }
  });
});
