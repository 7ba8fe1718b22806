import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createReplayTransport } from '../../src/feeds/transport/index.js';
import { ContextCache } from '../../src/store/cache.js';
import type { ContextDeps } from '../../src/feeds/context.js';
import { silentLogger } from '../../src/feeds/sources.js';
import { readCascade, stintStart } from '../../src/reads/stats-cascade.js';
import { readDepth } from '../../src/reads/stats-depth.js';
import { readGame } from '../../src/reads/stats-game.js';
import { readLeaders } from '../../src/reads/stats-leaders.js';
import { readLineups } from '../../src/reads/stats-lineup.js';
import { readPlayerStats } from '../../src/reads/stats-player.js';
import type { Store } from '../../src/store/db.js';
import { toWire } from '../../src/wire.js';
import { REPLAY_DIR, seededStore, snapshotAt } from '../helpers/replay-store.js';

/**
 * The stats reads (issue 17) on real data: the bundled seed's 23,822 NBA game lines, the
 * 2025-11-05 17:05 snapshot of the bundled replay, and the replay's recorded ESPN rosters, ESPN
 * summary, MLB schedule and live feed (data/README.md, "Stats recordings").
 */

const NOW = new Date('2025-11-05T17:05:00Z');
const SEED = `${REPLAY_DIR}/history/nba-gamelogs-before-2025-11-04.csv`;

/** The seed CSV's own rows: figures below are checked against them, not against the code under test. */
const seedRows = parse(readFileSync(SEED), { columns: true }) as Array<Record<string, string>>;
const rowsOf = (player: string, from: string, to = '2025-11-04') => seedRows.filter((r) => r.player === player && r.date! >= from && r.date! < to && Number(r.minutes) > 0);

let store: Store;
let cleanup: () => void;

function deps(now = NOW): ContextDeps {
  const replay = createReplayTransport(REPLAY_DIR, { now: () => now });
  return { store, config: loadConfig({}), cache: new ContextCache(store), providers: { source: 'replay', keyless: replay, odds: replay, close: async () => {} }, now, log: silentLogger };
}

beforeAll(async () => {
  const seeded = await seededStore();
  store = seeded.store;
  cleanup = seeded.cleanup;
  await snapshotAt(store, 'nba', '2025-11-05T17:05:00Z');
}, 120_000);
afterAll(() => cleanup());

describe('stats player', () => {
  it('season averages and recent form from the stored lines, each with its n', async () => {
    const v = await readPlayerStats(deps(), 'Jalen Brunson');
    if ('status' in v || !v.available) throw new Error('Brunson should resolve with figures');
    const rows = rowsOf('Jalen Brunson', '2025-08-01');
    const current = v.seasons[0]!;
    expect(current).toMatchObject({ season: '2025-26', games: 7, played: 7, minutes: { n: 7 } });
    const points = current.stats.find((s) => s.stat === 'points')!;
    expect(points).toEqual({ stat: 'points', n: rows.length, total: rows.reduce((t, r) => t + Number(r.pts), 0), avg: rows.reduce((t, r) => t + Number(r.pts), 0) / rows.length });
    expect(points.avg).toBe(29);
    expect(v.seasons[1]).toMatchObject({ season: '2024-25', played: rowsOf('Jalen Brunson', '2024-08-01', '2025-08-01').length });
    expect(v.form.n).toBe(5);
    expect(v.form.games.map((g) => g.date)).toEqual(['2025-11-03', '2025-11-02', '2025-10-31', '2025-10-28', '2025-10-26']);
    expect(v.form.games[0]).toEqual({ date: '2025-11-03', team: 'NY', opponent: 'WSH', minutes: 32, values: { points: 16, rebounds: 1, assists: 9, threes: 1, pra: 26, blocks: 0, steals: 1 } });
    expect(v.archetype?.primary).toBe('SLASHER');
    expect(v.profile).toEqual({ team: 'NY', firstGame: '2024-10-22', lastGame: '2025-11-03', games: 72, played: 72 });
  });

  it("tonight's props are the snapshot's graded main lines of the player", async () => {
    const v = await readPlayerStats(deps(), 'Jalen Brunson');
    if ('status' in v) throw new Error('resolved');
    expect(v.props.length).toBe(14);
    expect(v.props.every((p) => p.mainLine === true && p.grade !== null && p.player === 'Jalen Brunson')).toBe(true);
    expect(v.props.find((p) => p.statType === 'points' && p.side === 'over')).toMatchObject({ line: 27.5, game: 'Minnesota Timberwolves @ New York Knicks' });
  });

  it('a player with no stored lines shows no figures at all (a rookie on the board)', async () => {
    const v = await readPlayerStats(deps(), 'Cedric Coward');
    if ('status' in v) throw new Error('resolved');
    expect(v.available).toBe(false);
    expect(v).not.toHaveProperty('seasons');
    expect(v).not.toHaveProperty('form');
    expect(JSON.stringify(toWire(v))).not.toMatch(/"avg"/);
    // His board rows are refusals (no history, no projection): no graded prop either.
    expect(v.props).toEqual([]);
  });

  it('an ambiguous name answers the candidates, never a guess; an unknown one did-you-mean names', async () => {
    const amb = await readPlayerStats(deps(), 'Williams');
    expect(amb).toMatchObject({ status: 'ambiguous' });
    if (!('status' in amb) || amb.status !== 'ambiguous') return;
    expect(amb.candidates.map((c) => c.name)).toContain('Jalen Williams');
    expect(amb.candidates.length).toBeGreaterThan(1);
    const unknown = await readPlayerStats(deps(), 'Jalen Brunsonn');
    expect(unknown).toMatchObject({ status: 'unknown', suggestions: [{ name: 'Jalen Brunson' }] });
  });
});

describe('stats leaders', () => {
  it('2024-25 threes: 70% of 82 team games = 58 minimum; Curry first at 311 in 70 games', async () => {
    const v = await readLeaders(deps(), { sport: 'nba', stat: 'threes', season: '2024-25', limit: 3 });
    if (!v.available) throw new Error(v.reason);
    expect(v).toMatchObject({ season: '2024-25', teamGamesMax: 82, minGames: 58 });
    expect(v.leaders.map((l) => [l.rank, l.player, l.games, l.total])).toEqual([
      [1, 'Stephen Curry', 70, 311],
      [2, 'Anthony Edwards', 79, 320],
      [3, 'Malik Beasley', 82, 319],
    ]);
    expect(rowsOf('Stephen Curry', '2024-08-01', '2025-08-01').reduce((t, r) => t + Number(r.threes_made), 0)).toBe(311);
    expect(v.leaders.every((l) => l.games >= 58)).toBe(true);
  });

  it('the current season scales the minimum with the games played so far (8 team games: 6); ties share a rank', async () => {
    const v = await readLeaders(deps(), { sport: 'nba', stat: 'pts', limit: 5 });
    if (!v.available) throw new Error(v.reason);
    expect(v).toMatchObject({ season: '2025-26', teamGamesMax: 8, minGames: 6, until: '2025-11-05' });
    expect(v.leaders[0]).toMatchObject({ player: 'Giannis Antetokounmpo', games: 6, avg: 34 });
    const tied = v.leaders.filter((l) => l.rank === 4);
    expect(tied.map((l) => l.player).sort()).toEqual(['Austin Reaves', 'Lauri Markkanen']);
    const asked = await readLeaders(deps(), { sport: 'nba', stat: 'points', minGames: 8, limit: 100 });
    if (!asked.available) throw new Error(asked.reason);
    expect(asked.minGames).toBe(8);
    expect(asked.leaders.every((l) => l.games >= 8)).toBe(true);
  });

  it('a stat of another sport or a bad season is bad input; a season with no lines is hidden', async () => {
    await expect(readLeaders(deps(), { sport: 'nba', stat: 'hits' })).rejects.toMatchObject({ code: 'BAD_INPUT' });
    await expect(readLeaders(deps(), { sport: 'nba', stat: 'points', season: '2024-26' })).rejects.toMatchObject({ code: 'BAD_INPUT' });
    expect(await readLeaders(deps(), { sport: 'mlb', stat: 'hits' })).toMatchObject({ available: false });
  });
});

describe('stats cascade', () => {
  it("Joel Embiid's stint: teammates with and without him, n on both sides, only where both reach 5", async () => {
    const v = await readCascade(deps(), 'Joel Embiid');
    if ('status' in v || !v.available) throw new Error('Embiid should have a split');
    expect(v).toMatchObject({ team: 'PHI', minGames: 5, gamesWith: 23, gamesWithout: 56, teamGames: 79, window: { from: '2024-11-12', until: '2025-11-05' } });
    expect(v.teammates.length).toBeGreaterThan(5);
    expect(v.teammates.every((t) => t.with.n >= 5 && t.without.n >= 5)).toBe(true);
    const gordon = v.teammates.find((t) => t.player === 'Eric Gordon')!;
    expect([gordon.with.n, gordon.without.n]).toEqual([9, 24]);
    // Checked against the CSV: Eric Gordon's PHI games with minutes, split by whether Embiid played that date.
    const embiidDates = new Set(rowsOf('Joel Embiid', '2024-11-12').map((r) => r.date));
    const gordonRows = rowsOf('Eric Gordon', '2024-11-12').filter((r) => r.matchup!.startsWith('PHI'));
    const without = gordonRows.filter((r) => !embiidDates.has(r.date));
    expect(without.length).toBe(24);
    expect(gordon.without.minutes?.avg).toBeCloseTo(without.reduce((t, r) => t + Number(r.minutes), 0) / 24, 10);
    expect(gordon.delta.minutesAvg).toBeCloseTo(gordon.without.minutes!.avg - gordon.with.minutes!.avg, 10);
  });

  it('a raised minimum hides more; it never goes below 5', async () => {
    const strict = await readCascade(deps(), 'Joel Embiid', { minGames: 15 });
    if ('status' in strict || !strict.available) throw new Error('split');
    expect(strict.teammates.every((t) => t.with.n >= 15 && t.without.n >= 15)).toBe(true);
    const loose = await readCascade(deps(), 'Joel Embiid', { minGames: 1 });
    if ('status' in loose || !loose.available) throw new Error('split');
    expect(loose.minGames).toBe(5);
  });

  it('the stint starts at his first game for his latest team (Luka Doncic: the Lakers from Feb 2025)', () => {
    expect(stintStart([{ team: 'LAL', date: '2025-11-01' }, { team: 'LAL', date: '2025-02-10' }, { team: 'DAL', date: '2024-12-25' }])).toEqual({ team: 'LAL', from: '2025-02-10' });
  });
});

describe('stats game', () => {
  it('a stored game by date and team: both teams, from the store', async () => {
    const v = await readGame(deps(), '2025-11-03:NY');
    if (!v.available) throw new Error(v.reason);
    expect(v).toMatchObject({ source: 'store', date: '2025-11-03', status: null });
    expect(v.teams.map((t) => t.team)).toEqual(['NY', 'WSH']);
    expect(v.teams[0]!.players[0]).toEqual({ player: 'Jalen Brunson', key: 'jalen brunson', minutes: 32, didNotPlay: false, values: { points: 16, rebounds: 1, assists: 9, threes: 1, pra: 26, blocks: 0, steals: 1 } });
  });

  it('not stored: the provider, through the replay (ESPN summary of 2025-11-04; MLB live feed of 716896)', async () => {
    const nba = await readGame(deps(), 'c13de17fcb4b3e9c45de21f479151ed5');
    if (!nba.available) throw new Error(nba.reason);
    expect(nba).toMatchObject({ source: 'espn summary', date: '2025-11-04', status: 'final' });
    expect(nba.teams.find((t) => t.team === 'PHX')?.players[0]).toMatchObject({ player: 'Devin Booker', minutes: 39, values: { points: 38 } });
    const mlb = await readGame(deps(), '716896', { sport: 'mlb' });
    if (!mlb.available) throw new Error(mlb.reason);
    expect(mlb).toMatchObject({ source: 'mlb statsapi live feed', date: '2023-08-22', status: 'final', players: 30 });
    expect(mlb.teams.map((t) => t.team)).toEqual(['CHC', 'DET']);
  });

  it('nothing anywhere: hidden with the reason (a game recorded after the clock, an unknown stored key)', async () => {
    const later = await readGame(deps(), 'd4e0fbd35e825d1acf8d2fdca5b22ccd');
    expect(later).toMatchObject({ available: false });
    if (later.available) return;
    expect(later.reason).toMatch(/only recordings after/);
    expect(await readGame(deps(), '2025-11-03:XYZ')).toMatchObject({ available: false });
  });
});

describe('stats lineup (MLB Stats API schedule + live feed, 2023-08-22)', () => {
  it('CHC and DET from the live feed: 9 CONFIRMED with slots each, substitutes NOT_IN; unreadable games show no states', async () => {
    const v = await readLineups(deps(), 'mlb', { date: '2023-08-22' });
    if (!v.available) throw new Error(v.reason);
    expect(v.games).toHaveLength(15);
    const game = v.games.find((g) => g.gameId === '716896')!;
    const chc = game.teams.find((t) => t.team === 'CHC')!;
    expect(chc.posted).toBe(true);
    expect(chc.players.filter((p) => p.state === 'CONFIRMED').map((p) => [p.battingSlot, p.player])).toEqual([
      [1, 'Mike Tauchman'],
      [2, 'Nico Hoerner'],
      [3, 'Ian Happ'],
      [4, 'Cody Bellinger'],
      [5, 'Dansby Swanson'],
      [6, 'Seiya Suzuki'],
      [7, 'Jeimer Candelario'],
      [8, 'Christopher Morel'],
      [9, 'Miguel Amaya'],
    ]);
    // Nick Madrigal took the first slot later (battingOrder 101): in the game, not in the posted lineup.
    expect(chc.players.find((p) => p.player === 'Nick Madrigal')).toEqual({ player: 'Nick Madrigal', key: 'nick madrigal', state: 'NOT_IN', battingSlot: null });
    expect(v.counts).toEqual({ CONFIRMED: 18, NOT_IN: 3, PROJECTED: 0 });
    const other = v.games.find((g) => g.gameId !== '716896')!;
    expect(other.teams.every((t) => t.posted === null && t.players.length === 0 && /could not be read/.test(t.note ?? ''))).toBe(true);
  });

  it('basketball has no lineup states; an unrecorded date is hidden with the reason', async () => {
    expect(await readLineups(deps(), 'nba')).toMatchObject({ available: false, reason: expect.stringMatching(/MLB batting orders only/) });
    expect(await readLineups(deps(), 'mlb', { date: '2023-08-23' })).toMatchObject({ available: false, reason: expect.stringMatching(/not recorded/) });
  });
});

describe('stats depth (ESPN rosters)', () => {
  it('Lakers 2026-05-23: by position, ordered by stored minutes this season, then the roster order; the roster’s own time', async () => {
    const v = await readDepth(deps(new Date('2026-05-24T00:00:00Z')), 'Los Angeles Lakers');
    if ('status' in v || !v.available) throw new Error('LAL depth');
    expect(v).toMatchObject({ sport: 'nba', team: { abbr: 'LAL' }, providerTime: '2026-05-23T19:25:38Z', providerSeason: '2025-26', statsSeason: '2025-26', players: 17 });
    expect(v.positions.map((p) => p.position)).toEqual(['G', 'F', 'C']);
    const guards = v.positions[0]!.players;
    expect(guards.slice(0, 2).map((p) => [p.depth, p.player, p.games])).toEqual([
      [1, 'Luka Doncic', 4],
      [2, 'Austin Reaves', 7],
    ]);
    expect(guards[0]!.injury).toEqual({ status: 'Out', chip: 'OUT' });
    // No stored game this season: listed with null figures, never 0 minutes.
    const lebron = v.positions[1]!.players.find((p) => p.player === 'LeBron James')!;
    expect(lebron).toMatchObject({ games: 0, minutesAvg: null });
  });

  it('Braves 2025-05-19 (MLB): every position in the roster order, the store holding no MLB games', async () => {
    const v = await readDepth(deps(), 'ATL', { sport: 'mlb' });
    if ('status' in v || !v.available) throw new Error('ATL depth');
    expect(v.positions.map((p) => p.position)).toEqual(['SP', 'RP', 'C', '1B', '2B', 'SS', '3B', 'LF', 'CF', 'RF', 'DH']);
    expect(v.positions[0]!.players.map((p) => p.player)).toEqual(['Grant Holmes', 'Chris Sale', 'Spencer Schwellenbach', 'AJ Smith-Shawver']);
    expect(v.positions.every((p) => /roster order/.test(p.basis))).toBe(true);
    // No stored ATL MLB line: the store cannot say how many games anyone played, so null, never 0.
    expect(v.positions.flatMap((p) => p.players).every((p) => p.games === null && p.minutesAvg === null)).toBe(true);
  });

  it('an unknown team; a roster not recorded at the clock is hidden with the reason', async () => {
    expect(await readDepth(deps(), 'Nowhere FC')).toMatchObject({ status: 'unknown_team' });
    // ATL without --sport: the Hawks (the store holds NBA lines for ATL), whose roster is not recorded.
    expect(await readDepth(deps(), 'ATL')).toMatchObject({ sport: 'nba', available: false, reason: expect.stringMatching(/not recorded/) });
  });
});
