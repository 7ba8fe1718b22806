import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { seededStoreFile } from '../helpers/replay-store.js';

/**
 * `propgrade stats <view>` and `propgrade showcase` over the bundled replay, as the README examples
 * run them after `propgrade snapshot nba --replay data/replay`: a table (or the hidden state's
 * reason) and the same data with --json; exit 1 for a name that does not resolve, 2 for bad input.
 */

let dir: string;
let db: string;
const env = () => ({ PROPGRADE_DB: db, NO_COLOR: '1' });
const run = (argv: string[]) => runCli(argv, env());
const json = async (argv: string[]) => {
  const r = await run(['--json', ...argv]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propgrade-stats-cli-'));
  db = join(dir, 'pg.sqlite');
  await seededStoreFile(db);
  const r = await runCli(['snapshot', 'nba', '--replay', 'data/replay', '--quiet'], env());
  expect(r.code, r.stderr).toBe(0);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('propgrade stats player', () => {
  it('season averages, form, archetype and tonight’s main lines; --json is the route’s object', async () => {
    const r = await run(['stats', 'player', 'Jalen Brunson', '--replay', 'data/replay']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Jalen Brunson — NY (nba), 72 stored games 2024-10-22 to 2025-11-03, 72 played');
    expect(r.stdout).toMatch(/│ 2025-26 +│ 7 of 7 +│ 34\.0 +│ 29 +│/);
    expect(r.stdout).toMatch(/│ 2025-11-03 +│ NY +│ WSH +│ 32 +│ 16 +│/);
    expect(r.stdout).toContain('Archetype: SLASHER / VOLUME_SCORER');
    expect(r.stdout).toMatch(/│ Points +│ 27\.5 +│ over +│ C +│/);
    const j = await json(['stats', 'player', 'Jalen Brunson', '--replay', 'data/replay']);
    expect(j.seasons[0].stats[0]).toEqual({ stat: 'points', avg: 29, n: 7, total: 203 });
  });

  it('an ambiguous name lists the candidates and exits 1; a misspelt one says did you mean; bad input exits 2', async () => {
    const amb = await run(['stats', 'player', 'Williams', '--replay', 'data/replay']);
    expect(amb.code).toBe(1);
    expect(amb.stdout).toMatch(/^'Williams' is ambiguous: \d+ players match \(.*Jalen Williams \(nba\)/);
    const typo = await run(['stats', 'player', 'Brunsn', '--replay', 'data/replay']);
    expect(typo.code).toBe(1);
    expect(typo.stdout).toContain("no player 'Brunsn' in the store; did you mean Jalen Brunson?");
    expect((await run(['stats', 'player', 'Jalen Brunson', '--sport', 'nfl'])).code).toBe(2);
  });
});

describe('propgrade stats leaders, game, cascade', () => {
  it('leaders with the minimum stated', async () => {
    const r = await run(['stats', 'leaders', '--stat', 'threes', '--season', '2024-25', '--limit', '3', '--replay', 'data/replay']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('NBA 3-pointers made leaders 2024-25');
    expect(r.stdout).toContain('Qualified: 200 of 432 players with 58+ played games');
    expect(r.stdout).toMatch(/│ 1 +│ Stephen Curry +│ GS +│ 70 +│ 4\.44 +│ 311 +│/);
    expect((await run(['stats', 'leaders', '--stat', 'hits'])).code).toBe(2);
    expect((await run(['stats', 'leaders'])).code).toBe(2);
  });

  it('a stored game, an ESPN summary and an MLB live feed', async () => {
    const stored = await run(['stats', 'game', '2025-11-03:NY', '--replay', 'data/replay']);
    expect(stored.code, stored.stderr).toBe(0);
    expect(stored.stdout).toContain('Game 2025-11-03:NY (nba) 2025-11-03 — NY vs WSH, 15 player lines, from store');
    // The seed CSV holds 8 NYK and 7 WAS lines of that game: the store says its history is partial.
    const seed = readFileSync('data/replay/history/nba-gamelogs-before-2025-11-04.csv', 'utf8').split('\n').filter((l) => l.includes(',2025-11-03,'));
    expect([seed.filter((l) => l.includes(',NYK vs. WAS,')).length, seed.filter((l) => l.includes(',WAS @ NYK,')).length]).toEqual([8, 7]);
    expect(stored.stdout).toContain('Partial history: the store keeps the players its history was imported with, not every box-score line (NY 8 lines, WSH 7 lines)');
    const espn = await run(['stats', 'game', 'c13de17fcb4b3e9c45de21f479151ed5', '--replay', 'data/replay']);
    expect(espn.stdout).toMatch(/│ Devin Booker +│ 39 +│ 38 +│/);
    const mlb = await json(['stats', 'game', '716896', '--sport', 'mlb', '--replay', 'data/replay']);
    expect(mlb).toMatchObject({ source: 'mlb statsapi live feed', players: 30 });
  });

  it('the cascade: with → without per teammate, n on both sides', async () => {
    const r = await run(['stats', 'cascade', 'Joel Embiid', '--replay', 'data/replay']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('PHI games: 79 (23 with him, 56 without)');
    expect(r.stdout).toMatch(/│ Eric Gordon +│ 9 +│ 24 +│ 10\.7 → 21\.8 +│/);
    // The history spells "Kelly Oubre Jr."; every table shows a name by the slate's one display rule.
    expect(readFileSync('data/replay/history/nba-gamelogs-before-2025-11-04.csv', 'utf8')).toContain(',Kelly Oubre Jr.,');
    expect(r.stdout).toMatch(/│ Kelly Oubre Jr +│/);
    expect(r.stdout).not.toContain('Oubre Jr.');
  });
});

describe('propgrade stats arsenal, lineup, depth', () => {
  it('arsenal: 2022 at the bundled clock; 2025 with --now; a missing velocity is "-" and null in --json', async () => {
    const rodon = await run(['stats', 'arsenal', 'Carlos Rodón', '--season', '2022', '--replay', 'data/replay']);
    expect(rodon.code, rodon.stderr).toBe(0);
    expect(rodon.stdout).toMatch(/│ 4-Seamer \(FF\) +│ 60\.8 +│ 25\.8 +│ 95\.7 +│ 29\.1 +│ 1422 +│ 357 +│/);
    // Savant's 2022 code CUKC groups curveballs and knuckle-curves: named, never glued to the name.
    expect(rodon.stdout).toMatch(/│ Curveball \(CU\+KC\) +│ 5\.8 +│/);
    expect(rodon.stdout).not.toContain('CUKC');
    expect(rodon.stdout).toContain('CU+KC: curveballs and knuckle-curves counted together');
    const senga = await run(['stats', 'arsenal', 'Kodai Senga', '--replay', 'data/replay', '--now', '2026-01-24T00:00:00Z']);
    expect(senga.stdout).toMatch(/│ Split-Finger \(FS\) +│ 28\.5 +│ 41\.8 +│ - +│/);
    const j = await json(['stats', 'arsenal', 'Kodai Senga', '--replay', 'data/replay', '--now', '2026-01-24T00:00:00Z']);
    expect(j.pitches.find((p: { pitch_type: string }) => p.pitch_type === 'FS').velocity_mph).toBeNull();
    const amb = await run(['stats', 'arsenal', 'Luis Garcia', '--replay', 'data/replay', '--now', '2026-01-24T00:00:00Z']);
    expect(amb.code).toBe(1);
    expect(amb.stdout).toContain('MLBAM 472610');
    const missing = await run(['stats', 'arsenal', 'Kevin Gausman', '--replay', 'data/replay']);
    expect(missing.code).toBe(0);
    expect(missing.stdout).toMatch(/^No 2025 arsenal for 'Kevin Gausman': .*not recorded/);
  });

  it('lineups of 2023-08-22 and the depth charts', async () => {
    const lineup = await run(['stats', 'lineup', 'mlb', '--date', '2023-08-22', '--replay', 'data/replay']);
    expect(lineup.code, lineup.stderr).toBe(0);
    expect(lineup.stdout).toContain('MLB lineups 2023-08-22 — 15 games; players: 18 confirmed, 3 not in, 0 projected');
    expect(lineup.stdout).toContain('CHC (posted): 1. Mike Tauchman, 2. Nico Hoerner');
    expect(lineup.stdout).toContain('Nick Madrigal (NOT IN)');
    const atl = await run(['stats', 'depth', 'ATL', '--sport', 'mlb', '--replay', 'data/replay']);
    expect(atl.code, atl.stderr).toBe(0);
    expect(atl.stdout).toContain('Source: ESPN MLB team roster 2025, provider time 2025-05-19T04:14:04Z');
    // MLB lines have no minutes, and the store holds no ATL MLB line: no Min column, and games unknown, not 0.
    const header = atl.stdout.split('\n').find((l) => l.includes('│ Pos'))!.split('│').map((c) => c.trim());
    expect(header).toEqual(['', 'Pos', '#', 'Player', 'Jersey', 'Games', 'Injury', '']);
    const rows = atl.stdout.split('\n').filter((l) => /^│ [A-Z0-9 ]+│ \d+ /.test(l)).map((l) => l.split('│').map((c) => c.trim()));
    expect(rows).toHaveLength(25);
    expect(rows.every((c) => c[header.indexOf('Games')] === '-')).toBe(true);
    expect(atl.stdout).toContain("- = the store cannot say (it holds MLB starting pitchers' game logs only)");
    const atlJson = await json(['stats', 'depth', 'ATL', '--sport', 'mlb', '--replay', 'data/replay']);
    expect(atlJson.positions.flatMap((p: { players: { games: number | null }[] }) => p.players).every((p: { games: number | null }) => p.games === null)).toBe(true);
    const lal = await run(['stats', 'depth', 'LAL', '--replay', 'data/replay', '--now', '2026-05-24T00:00:00Z']);
    expect(lal.stdout).toMatch(/│ G +│ 1 +│ Luka Doncic +│ 77 +│ 4 +│ 38\.3 +│ OUT +│/);
    expect((await run(['stats', 'depth', 'Nowhere', '--replay', 'data/replay'])).code).toBe(1);
    expect((await run(['stats', 'lineup', 'mlb', '--date', '08/22/2023'])).code).toBe(2);
  });
});

describe('propgrade showcase', () => {
  it('the ladder with prices, grades and edges, and the same-team tile', async () => {
    const r = await run(['showcase']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Desk showcase — Pascal Siakam (IND) pra under, Brooklyn Nets @ Indiana Pacers');
    // The grade with the price, book and time it was made on, then the market now.
    expect(r.stdout).toMatch(/│ 39\.5 +│ main +│ A +│ \+105 bovada 12:05 PM +│ bovada +│ \+105 +│ -101 +│ 4 books +│ \+2\.8% +│/);
    // The Market column uses the slate's words, and every label has its legend line.
    expect(r.stdout).not.toMatch(/│ (consensus|market_implied) +│/);
    for (const label of ['Main =', 'Graded =', 'Market =', 'Edge now =']) expect(r.stdout).toContain(label);
    expect(r.stdout).toContain('Correlation tile: 0.34 (same team)');
    expect(r.stdout).not.toMatch(/kelly/i);
    const j = await json(['showcase', 'nba']);
    expect(j).toMatchObject({ available: true, rungs: expect.any(Array), correlation: { coefficient: 0.34 } });
  });

  it('no board for a sport: says so, exit 0; a bad sport exits 2', async () => {
    const r = await run(['showcase', 'mlb']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('No desk showcase: no graded board stored for mlb: run a snapshot first.\n');
    expect((await run(['showcase', 'nfl'])).code).toBe(2);
  });
});
