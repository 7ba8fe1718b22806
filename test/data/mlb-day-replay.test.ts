import fs, { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';

/**
 * The bundled MLB day (scripts/build-mlb-day-replay.mjs, data/README.md "The MLB day"): every figure
 * is checked against the raw sources: the feed versions (prices) and the raw game-log rows
 * (outcomes), never against the code's own fields.
 */
const REPLAY = 'data/replay';
const SHARED = path.resolve('..', 'shared');
const FEED_DIR = path.join(SHARED, 'feeds', 'strikeoutcenter-2025-08-16');
const LOGS = path.join(SHARED, 'history', 'mlb_pitcher_game_logs_2025.csv');
const sharedAvailable = fs.existsSync(FEED_DIR) && fs.existsSync(LOGS);
/** The raw game-log rows of 2025-08-16, byte-identical excerpt (test/fixtures/history/PROVENANCE.md). */
const DAY_ROWS = 'test/fixtures/history/mlb-pitcher-gamelogs-2025-08-16.csv';

interface Entry {
  provider: string;
  url: string;
  file: string;
  recordedAt: string;
}
const manifest = JSON.parse(fs.readFileSync(join(REPLAY, 'manifest.json'), 'utf8')) as { entries: Entry[]; seed: { gamelogs: Array<{ sport: string; file: string }> } };
const read = (file: string) => JSON.parse(fs.readFileSync(join(REPLAY, file), 'utf8'));

/** Same fold as the join recipe in ../shared/history/NOTES.md (accents, periods, suffixes). */
const fold = (n: string) =>
  n.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[.']/g, '').replace(/-/g, ' ').split(/\s+/).filter((t) => t && !['jr', 'sr', 'ii', 'iii'].includes(t)).join(' ');

function rawDayRows(): Array<Record<string, string>> {
  const [head, ...lines] = fs.readFileSync(DAY_ROWS, 'utf8').trim().split(/\r?\n/);
  const cols = (head as string).split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i] as string, v])));
}

describe('MLB day 2025-08-16: re-assembled odds', () => {
  const odds = manifest.entries.filter((e) => e.provider === 'odds-api' && e.url.includes('/baseball_mlb/events/'));

  it('requests exactly what the adapter asks for MLB', () => {
    expect(odds.length).toBe(81);
    for (const e of odds) expect(e.url).toMatch(/\/odds\?dateFormat=iso&markets=batter_hits,batter_total_bases,batter_home_runs,pitcher_strikeouts,pitcher_outs&oddsFormat=american&regions=us$/);
  });

  it.skipIf(!sharedAvailable)('carries every price of the feed version unchanged, under the API book key', () => {
    const KEY: Record<string, string> = { BetMGM: 'betmgm', 'BetOnline.ag': 'betonlineag', BetRivers: 'betrivers', Bovada: 'bovada', DraftKings: 'draftkings', FanDuel: 'fanduel', Fanatics: 'fanatics', 'MyBookie.ag': 'mybookieag' };
    const versions = new Map<string, { games: Array<{ event_id: string; pitchers: Array<{ pitcher_name: string; strikeout_line: number; individual_odds: Record<string, { over?: number; under?: number }> }> }> }>();
    for (const f of fs.readdirSync(FEED_DIR).filter((x) => x.endsWith('.json'))) {
      const json = JSON.parse(fs.readFileSync(join(FEED_DIR, f), 'utf8'));
      versions.set(new Date(Math.floor(Date.parse(json.metadata.generated_at) / 1000) * 1000).toISOString().replace('.000Z', 'Z'), json);
    }
    let checked = 0;
    for (const e of odds) {
      const body = read(e.file) as { id: string; bookmakers: Array<{ key: string; markets: Array<{ key: string; outcomes: Array<{ name: string; description: string; price: number; point: number }> }> }> };
      const game = versions.get(e.recordedAt)?.games.find((g) => g.event_id === body.id);
      expect(game, e.file).toBeDefined();
      const expected: string[] = [];
      for (const p of game!.pitchers) {
        for (const [title, o] of Object.entries(p.individual_odds)) {
          if (typeof o.over === 'number') expected.push(`${KEY[title]}|${p.pitcher_name}|${p.strikeout_line}|Over|${o.over}`);
          if (typeof o.under === 'number') expected.push(`${KEY[title]}|${p.pitcher_name}|${p.strikeout_line}|Under|${o.under}`);
        }
      }
      const got = body.bookmakers.flatMap((b) => b.markets.flatMap((m) => m.outcomes.map((o) => `${b.key}|${o.description}|${o.point}|${o.name}|${o.price}`)));
      expect(got.sort()).toEqual(expected.sort());
      checked += got.length;
    }
    expect(checked).toBe(2882);
  });
});

describe('MLB day 2025-08-16: box scores and seed history', () => {
  it('each box score lists the raw rows of its game, starter first', () => {
    const raw = rawDayRows();
    const boxes = manifest.entries.filter((e) => e.provider === 'mlb-statsapi' && /\/game\/\d+\/boxscore$/.test(e.url) && e.recordedAt === '2025-08-17T12:00:00Z');
    expect(boxes).toHaveLength(15);
    let pitchers = 0;
    for (const e of boxes) {
      const pk = /\/game\/(\d+)\//.exec(e.url)![1]!;
      const body = read(e.file) as { teams: Record<'home' | 'away', { pitchers: number[]; players: Record<string, { person: { id: number; fullName: string }; stats: { pitching: { strikeOuts: number; battersFaced: number; inningsPitched: string } } }> }> };
      for (const side of ['home', 'away'] as const) {
        const rows = raw.filter((r) => r.game_pk === pk && r.home_away === side);
        expect(body.teams[side].pitchers).toEqual(rows.map((r) => Number(r.mlbam_id)));
        expect(rows[0]!.is_starter).toBe('1');
        for (const r of rows) {
          const p = body.teams[side].players[`ID${r.mlbam_id}`]!;
          expect(p.person.fullName).toBe(r.pitcher);
          expect(p.stats.pitching).toMatchObject({ strikeOuts: Number(r.strikeouts), battersFaced: Number(r.batters_faced), inningsPitched: r.innings_pitched });
          pitchers += 1;
        }
      }
    }
    expect(pitchers).toBe(raw.length);
  });

  it.skipIf(!sharedAvailable)('seeds whole source rows dated before the day, bytes unchanged', () => {
    const seed = manifest.seed.gamelogs.find((g) => g.sport === 'mlb')!;
    const source = new Set(fs.readFileSync(LOGS, 'utf8').split('\r\n'));
    const [, ...rows] = fs.readFileSync(join(REPLAY, seed.file), 'utf8').split('\r\n').filter(Boolean);
    expect(rows.length).toBe(524);
    for (const r of rows) {
      expect(source.has(r)).toBe(true);
      expect(r.slice(0, 10) < '2025-08-16').toBe(true);
    }
  });
});

describe('MLB day 2025-08-16 through the product: snapshot, then settle the next morning', () => {
  let dir: string;
  let db: string;
  let snap: Awaited<ReturnType<typeof runCli>>;
  let settle: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-mlb-day-'));
    db = join(dir, 'pg.sqlite');
    snap = await runCli(['--db', db, 'snapshot', 'mlb', '--replay', REPLAY, '--quiet', '--json']);
    settle = await runCli(['--db', db, 'settle', 'mlb', '--replay', REPLAY, '--now', '2025-08-17T12:00:00Z', '--json']);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('grades the day at its own recording time', () => {
    expect(snap.code, snap.stderr).toBe(0);
    const out = JSON.parse(snap.stdout) as { runs: Array<{ sport: string; status: string; events: number; rows: number; graded: number }> };
    expect(out.runs[0]).toMatchObject({ sport: 'mlb', status: 'ok', events: 15, rows: 182, graded: 144 });
    expect(snap.stderr).toContain('mlb: snapshot run at 2025-08-16T16:25:00.000Z');
  });

  it('settles every entry, and each outcome is what the raw game-log row says', () => {
    expect(settle.code, settle.stderr).toBe(0);
    const store = openStore(db);
    try {
      const entries = store.sqlite.prepare(`select player, player_key, line, side, outcome, actual_value from ledger_entries where sport = 'mlb'`).all() as Array<{ player: string; line: number; side: 'over' | 'under'; outcome: string; actual_value: number | null }>;
      // 20 since issue 33: Adrian Houser 3.5 under prints -4.0%, the C floor, so it is C (was F, kept off the ledger).
      expect(entries.length).toBe(20);
      const raw = rawDayRows();
      for (const e of entries) {
        const row = raw.find((r) => fold(r.pitcher!) === fold(e.player));
        expect(row, e.player).toBeDefined();
        if (row!.is_starter !== '1') {
          expect(e.outcome).toBe('void');
          continue;
        }
        const k = Number(row!.strikeouts);
        expect(e.actual_value).toBe(k);
        expect(e.outcome).toBe(k === e.line ? 'push' : (k > e.line) === (e.side === 'over') ? 'hit' : 'miss');
      }
    } finally {
      void store.close();
    }
  });
});
