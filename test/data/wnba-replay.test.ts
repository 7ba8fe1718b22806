/**
 * The bundled WNBA day (2024-06-02, data/README.md "WNBA day"): its event odds are the real
 * historical responses (prices unchanged), `snapshot all` grades it at its own recorded clock, and
 * `settle wnba` the next morning settles it with outcomes equal to the raw ESPN box-score rows.
 */
import fs, { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeName } from '../../src/domain/names.js';
import { openStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';

const REPLAY = path.resolve('data/replay');
const SHARED = path.resolve('..', 'shared');
const BOX_CSV = path.join(SHARED, 'history/wnba_player_box_scores_2019-2026.csv');
const GAMES_CSV = path.join(SHARED, 'history/wnba_games_2019-2026.csv');
const ODDS_DIR = path.join(SHARED, 'feeds/odds-api-wnba-2023-2024');
const sharedAvailable = fs.existsSync(BOX_CSV) && fs.existsSync(GAMES_CSV) && fs.existsSync(ODDS_DIR);

interface Entry {
  key: string;
  url: string;
  file: string;
  recordedAt: string;
}
const manifest = JSON.parse(fs.readFileSync(path.join(REPLAY, 'manifest.json'), 'utf8')) as {
  clocks: Record<string, string>;
  seed: { gamelogs: Array<{ sport: string; file: string; games?: string }> };
  entries: Entry[];
};
const wnbaOdds = manifest.entries.filter((e) => e.file.startsWith('odds-api/wnba-event-odds-'));
const readJson = (rel: string) => JSON.parse(fs.readFileSync(path.join(REPLAY, rel), 'utf8'));

describe('bundled WNBA day: recordings', () => {
  it('has its own clock and a seed dated by its games file, both before the slate', () => {
    expect(manifest.clocks['wnba']).toBe('2024-06-02T11:00:00Z');
    const seed = manifest.seed.gamelogs.find((g) => g.sport === 'wnba');
    expect(seed).toEqual({ sport: 'wnba', file: 'history/wnba-box-scores-before-2024-06-02.csv', games: 'history/wnba-games-before-2024-06-02.csv' });
    const games = parse(fs.readFileSync(path.join(REPLAY, seed!.games!)), { columns: true }) as Array<{ date: string }>;
    expect(games.length).toBeGreaterThan(100);
    for (const g of games) expect(g.date < '20240602').toBe(true);
  });

  it('files 4 games x (morning + closing) event odds, each recorded at the API stamp and before its tip', () => {
    expect(wnbaOdds).toHaveLength(8);
    for (const e of wnbaOdds) {
      const body = readJson(e.file);
      expect(body.commence_time > e.recordedAt).toBe(true);
      expect(e.key).toContain('markets=player_points%2C');
    }
  });

  it.skipIf(!sharedAvailable)('keeps every requested market of the real response byte-equal (prices, lines, names unchanged)', () => {
    const requested = ['player_points', 'player_rebounds', 'player_assists', 'player_threes', 'player_points_rebounds_assists', 'player_blocks', 'player_steals'];
    for (const e of wnbaOdds) {
      const id = /wnba-event-odds-([0-9a-f]{32})-/.exec(e.file)![1]!;
      const raws = fs.readdirSync(ODDS_DIR).filter((f) => f.startsWith(id)).map((f) => JSON.parse(fs.readFileSync(path.join(ODDS_DIR, f), 'utf8')));
      const raw = raws.find((r) => r.timestamp === e.recordedAt);
      expect(raw, e.file).toBeDefined();
      const body = readJson(e.file);
      const expected = raw.data.bookmakers
        .map((b: { markets: Array<{ key: string }> }) => ({ ...b, markets: b.markets.filter((m) => requested.includes(m.key)) }))
        .filter((b: { markets: unknown[] }) => b.markets.length > 0);
      expect(body.bookmakers).toEqual(expected);
      expect(body.id).toBe(raw.data.id);
    }
  });
});

describe.skipIf(!sharedAvailable)('bundled WNBA day: snapshot all, then settle the next morning', () => {
  let dir: string;
  let db: string;
  let snapshot: { runs: Array<{ sport: string; status: string; graded: number; slate_date: string }> };
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'propgrade-wnba-day-'));
    db = path.join(dir, 'day.sqlite');
    const snap = await runCli(['--db', db, 'snapshot', 'all', '--replay', 'data/replay', '--quiet', '--json']);
    expect(snap.code, snap.stderr).toBe(0);
    snapshot = JSON.parse(snap.stdout);
    const close = await runCli(['--db', db, 'snapshot', 'wnba', '--replay', 'data/replay', '--now', '2024-06-02T22:55:00Z', '--quiet']);
    expect(close.code, close.stderr).toBe(0);
    const settle = await runCli(['--db', db, 'settle', 'wnba', '--replay', 'data/replay', '--now', '2024-06-03T12:00:00Z']);
    expect(settle.code, settle.stderr).toBe(0);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('grades wnba at its own recorded clock beside nba', () => {
    const wnba = snapshot.runs.find((r) => r.sport === 'wnba')!;
    const nba = snapshot.runs.find((r) => r.sport === 'nba')!;
    expect(wnba.status).toBe('ok');
    expect(wnba.slate_date).toBe('2024-06-02');
    expect(wnba.graded).toBeGreaterThan(50);
    expect(nba.slate_date).toBe('2025-11-05');
    const store = openStore(db);
    try {
      const taken = store.sqlite.prepare("select taken_at from snapshots where sport = 'wnba' order by id limit 1").pluck().get();
      expect(taken).toBe('2024-06-02T11:00:00.000Z');
    } finally {
      void store.close();
    }
  });

  it('settles every entry, each outcome equal to the raw ESPN box-score row of that player and game', () => {
    const games = new Map((parse(fs.readFileSync(GAMES_CSV), { columns: true }) as Array<Record<string, string>>).map((g) => [g['game_id'], g]));
    const rows = (parse(fs.readFileSync(BOX_CSV), { columns: true }) as Array<Record<string, string>>).filter((r) => games.get(r['game_id']!)?.['date'] === '20240602');
    const raw = (player: string, stat: string): number | null => {
      const r = rows.find((x) => normalizeName(x['player']!).key === normalizeName(player).key);
      if (!r) return null;
      const n = (k: string) => Number(r[k]);
      return { points: n('pts'), rebounds: n('reb'), assists: n('ast'), threes: n('tpm'), pra: n('pts') + n('reb') + n('ast'), blocks: n('blk'), steals: n('stl') }[stat] ?? null;
    };
    const store = openStore(db);
    try {
      const entries = store.sqlite
        .prepare("select player, stat_type, line, side, outcome, actual_value from ledger_entries where sport = 'wnba'")
        .all() as Array<{ player: string; stat_type: string; line: number; side: string; outcome: string; actual_value: number | null }>;
      expect(entries.length).toBeGreaterThan(10);
      for (const e of entries) {
        const actual = raw(e.player, e.stat_type);
        expect(actual, `${e.player} ${e.stat_type}`).not.toBeNull();
        expect(e.actual_value, `${e.player} ${e.stat_type}`).toBe(actual);
        const want = actual === e.line ? 'push' : (e.side === 'over') === actual! > e.line ? 'hit' : 'miss';
        expect(e.outcome, `${e.player} ${e.stat_type} ${e.line} ${e.side}`).toBe(want);
      }
    } finally {
      void store.close();
    }
  });
});
