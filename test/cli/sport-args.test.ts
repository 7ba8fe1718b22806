import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempStore } from '../helpers/replay-store.js';

/**
 * Every command that takes a sport parses it with the one sport schema (src/domain/sports.ts): an
 * unknown sport exits 2 everywhere, and so does mma (fight cards, never graded) wherever a graded
 * sport is meant, with the message naming the value and the sports it takes (issue 41 item 7:
 * `record --sport nfl` and `record --sport mma` exited 0). News and ticker pins are about any sport
 * propgrade knows, mma included.
 */
let t: ReturnType<typeof tempStore>;
beforeAll(() => {
  t = tempStore();
});
afterAll(() => t?.cleanup());

/** Each command with the sport in its place. */
const GRADED: Array<[string, (sport: string) => string[]]> = [
  ['snapshot', (s) => ['snapshot', s]],
  ['settle', (s) => ['settle', s]],
  ['slate', (s) => ['slate', s]],
  ['scan', (s) => ['scan', '--player', 'Jalen Brunson', '--stat', 'points', '--line', '27.5', '--direction', 'over', '--sport', s]],
  ['ledger', (s) => ['ledger', '--sport', s]],
  ['record', (s) => ['record', '--sport', s]],
  ['live', (s) => ['live', s]],
  ['showcase', (s) => ['showcase', s]],
  ['simulate', (s) => ['simulate', s, '--replay', 'data/replay']],
  ['backfill', (s) => ['backfill', s, '--from', '2025-11-01', '--to', '2025-11-02']],
  ['backtest', (s) => ['backtest', '--sport', s, '--gamelogs', 'x.csv', '--props', 'y.csv']],
  ['import', (s) => ['import', 'gamelogs', 'test/fixtures/history/gamelogs-nop-excerpt.csv', '--sport', s]],
  ['futures', (s) => ['futures', s]],
  ['stats player', (s) => ['stats', 'player', 'Jalen Brunson', '--sport', s]],
  ['stats leaders', (s) => ['stats', 'leaders', '--stat', 'points', '--sport', s]],
  ['stats lineup', (s) => ['stats', 'lineup', s]],
  ['stats depth', (s) => ['stats', 'depth', 'ATL', '--sport', s]],
];
const ANY: Array<[string, (sport: string) => string[]]> = [
  ['news', (s) => ['news', s]],
  ['ticker pin', (s) => ['ticker', 'pin', 'Doubleheader today', '--sport', s]],
];

describe('a sport argument on every command', () => {
  it.each([...GRADED, ...ANY])('%s: an unknown sport exits 2 naming it', async (_name, argv) => {
    const r = await runCli(['--db', t.path, ...argv('nfl')], { NO_COLOR: '1' });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/sport: 'nfl' is not one of (mlb|nba|all)/);
  });

  it.each(GRADED)('%s: mma (fight cards, never graded) exits 2', async (_name, argv) => {
    const r = await runCli(['--db', t.path, ...argv('mma')], { NO_COLOR: '1' });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/sport: 'mma' is not one of |mma is not graded/);
  });
});
