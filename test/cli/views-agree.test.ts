import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boutStatusAt } from '../../src/domain/combat-card.js';
import { runCli } from '../helpers/cli.js';
import { seededStoreFile } from '../helpers/replay-store.js';

/**
 * Issue 41 item 8: views over the bundled replay agree with the data clock. The UFC card of
 * 2025-09-27 was recorded before fight night (ESPN says 'scheduled'); read on the replay's
 * default clock (2025-11-05) the bout is past, so it is not shown as scheduled.
 */

let dir: string;
let db: string;
const env = () => ({ PROPGRADE_DB: db, NO_COLOR: '1' });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propgrade-views-agree-'));
  db = join(dir, 'pg.sqlite');
  await seededStoreFile(db);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a past bout is not scheduled', () => {
  it('the rule: scheduled only before the start; after it, with no recorded result, unknown', () => {
    const start = '2025-09-28T02:00:00Z';
    expect(boutStatusAt('scheduled', start, new Date('2025-09-27T12:00:00Z'))).toBe('scheduled');
    expect(boutStatusAt('scheduled', start, new Date('2025-11-05T17:05:00Z'))).toBe('unknown');
    expect(boutStatusAt('final', start, new Date('2025-11-05T17:05:00Z'))).toBe('final');
    expect(boutStatusAt('scheduled', null, new Date('2025-11-05T17:05:00Z'))).toBe('scheduled');
  });

  it('fight 401801745 on the replay clock (2025-11-05) says the result is not in the data; on 2025-09-26 it is scheduled', async () => {
    const after = await runCli(['fight', '401801745', '--replay', 'data/replay'], env());
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout.split('\n')[0]).toBe('Carlos Ulberg vs Dominick Reyes — Light Heavyweight, 5 rounds, result not in the data (recorded before the bout)');
    const json = JSON.parse((await runCli(['--json', 'combat', '2025-09-27', '--replay', 'data/replay'], env())).stdout);
    const statuses = new Set(json.cards.flatMap((c: { bouts: Array<{ status: string }> }) => c.bouts.map((b) => b.status)));
    expect([...statuses]).toEqual(['unknown']);
    const before = await runCli(['fight', '401801745', '--replay', 'data/replay', '--now', '2025-09-26T12:00:00Z'], env());
    expect(before.stdout.split('\n')[0]).toBe('Carlos Ulberg vs Dominick Reyes — Light Heavyweight, 5 rounds, scheduled');
  });
});

describe('a replayed answer says it was recorded, and when', () => {
  const manifest = () => JSON.parse(readFileSync('data/replay/manifest.json', 'utf8')) as { entries: Array<{ key: string; recordedAt?: string }> };
  const recordedAt = (suffix: string) => manifest().entries.find((e) => e.key.endsWith(suffix))?.recordedAt;

  it("news: the recorded file's time (2025-05-20), not 'fetched ... (age 0 s)' on the data clock", async () => {
    expect(recordedAt('/baseball/mlb/news')).toBe('2025-05-20T05:15:59Z');
    const r = await runCli(['news', 'mlb', '--replay', 'data/replay'], env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('ESPN news recorded Tue, May 20, 1:15 AM EDT (replayed, read as of Wed, Nov 5, 12:05 PM EST)');
    expect(r.stdout).not.toMatch(/fetched .*\(age/);
    const json = JSON.parse((await runCli(['--json', 'news', 'mlb', '--replay', 'data/replay'], env())).stdout);
    // A replay, its recording's time and the data clock it was read as of; no fetch time, no age.
    expect(json).toMatchObject({ replay: true, recorded_at: '2025-05-20T05:15:59Z', read_as_of: '2025-11-05T17:05:00.000Z' });
    expect(json).not.toHaveProperty('fetched_at');
    expect(json).not.toHaveProperty('age_seconds');
  });

  it('combat and fight: the card and the odds each say their own recording (2025-09-25 and 2025-09-13), the same in both views', async () => {
    expect(recordedAt('/mma/ufc/scoreboard?dates=20250927')).toBe('2025-09-25T18:55:19Z');
    expect(recordedAt('/sports/mma_mixed_martial_arts/odds?dateFormat=iso&markets=h2h%2Ctotals&oddsFormat=american&regions=us')).toBe('2025-09-13T08:57:41Z');
    const combat = await runCli(['combat', '2025-09-27', '--replay', 'data/replay'], env());
    expect(combat.code, combat.stderr).toBe(0);
    expect(combat.stdout).toContain('ESPN fight cards recorded Thu, Sep 25, 2:55 PM EDT (replayed, read as of Wed, Nov 5, 12:05 PM EST)');
    expect(combat.stdout).toContain('MMA odds recorded Sat, Sep 13, 4:57 AM EDT (replayed, read as of Wed, Nov 5, 12:05 PM EST)');
    const fight = await runCli(['fight', '401801745', '--replay', 'data/replay'], env());
    expect(fight.stdout).toContain('ESPN fight card recorded Thu, Sep 25, 2:55 PM EDT (replayed');
    for (const out of [combat.stdout, fight.stdout]) expect(out).not.toMatch(/fetched|\(age/);
    const json = JSON.parse((await runCli(['--json', 'combat', '2025-09-27', '--replay', 'data/replay'], env())).stdout);
    expect(json).toMatchObject({ replay: true, recorded_at: '2025-09-25T18:55:19Z', odds: { replay: true, recorded_at: '2025-09-13T08:57:41Z' } });
  });

  it('futures: the 2021 outrights recording says 2021', async () => {
    expect(recordedAt('baseball_mlb_world_series_winner/odds?dateFormat=iso&markets=outrights&oddsFormat=american&regions=us')).toBe('2021-11-13T17:37:04Z');
    const r = await runCli(['futures', 'mlb', '--replay', 'data/replay'], { ...env(), FUTURES_ENABLED: '1' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('outrights recorded Sat, Nov 13, 2021, 12:37 PM EST (replayed, read as of Wed, Nov 5, 12:05 PM EST)');
    expect(r.stdout).not.toMatch(/fetched .*\(age/);
  });
});

describe('after the README MLB settle (2025-08-16, settled 2025-08-17 12:00)', () => {
  const NOW = '2025-08-17T12:00:00Z';
  beforeAll(async () => {
    expect((await runCli(['snapshot', 'mlb', '--replay', 'data/replay', '--quiet'], env())).code).toBe(0);
    const settle = await runCli(['settle', 'mlb', '--replay', 'data/replay', '--now', NOW], env());
    expect(settle.code, settle.stderr).toBe(0);
    // settle read 15 final games' box scores (the "Final games" column).
    expect(settle.stdout).toMatch(/│ mlb +│ ok +│ 2025-08-16 │ 9 +│ 11 +│ 0 +│ 0 +│ 0 +│ 0 +│ 15 +│/);
  }, 120_000);

  it('live reads the same 15 final box scores settle read; each value is the recorded boxscore file', async () => {
    const r = await runCli(['--json', 'live', 'mlb', '--date', '2025-08-16', '--replay', 'data/replay', '--now', NOW], env());
    expect(r.code, r.stderr).toBe(0);
    const v = JSON.parse(r.stdout) as { games: Array<{ game_id: string; status: string; box_score: string }>; rows: Array<{ player: string; game_id: string; current: number | null; phase: string; state: string | null }> };
    expect(v.games).toHaveLength(15);
    expect(v.games.every((g) => g.status === 'final' && g.box_score === 'ok')).toBe(true);
    expect(v.rows.every((row) => row.state !== null)).toBe(true);
    // Max Fried's strikeouts against the raw recorded boxscore of his game.
    const fried = v.rows.find((row) => row.player === 'Max Fried');
    const manifest = JSON.parse(readFileSync('data/replay/manifest.json', 'utf8')) as { entries: Array<{ url?: string; key: string; file: string }> };
    const entry = manifest.entries.find((e) => e.key.endsWith(`/api/v1/game/${fried?.game_id}/boxscore`));
    const raw = JSON.parse(readFileSync(join('data/replay', entry!.file), 'utf8')) as { teams: Record<string, { players: Record<string, { person: { fullName: string }; stats: { pitching?: { strikeOuts?: number } } }> }> };
    const line = Object.values(raw.teams).flatMap((t) => Object.values(t.players)).find((p) => p.person.fullName === 'Max Fried');
    expect(fried?.current).toBe(line?.stats.pitching?.strikeOuts);
    expect(fried?.current).toBe(6);
  });

  it('live says when the box scores it read were recorded (the newest boxscore entry), read as of the clock; from the cache, the same', async () => {
    const entries = (JSON.parse(readFileSync('data/replay/manifest.json', 'utf8')) as { entries: Array<{ key: string; recordedAt?: string }> }).entries;
    const times = entries.filter((e) => /\/api\/v1\/game\/\d+\/boxscore$/.test(e.key) && e.recordedAt !== undefined && Date.parse(e.recordedAt) <= Date.parse(NOW)).map((e) => e.recordedAt!);
    const newest = times.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
    const args = ['live', 'mlb', '--date', '2025-08-16', '--replay', 'data/replay', '--now', NOW];
    for (const _ of [1, 2]) {
      const json = JSON.parse((await runCli(['--json', ...args], env())).stdout);
      expect(json).toMatchObject({ replay: true, recorded_at: newest, read_as_of: '2025-08-17T12:00:00.000Z', stale: false });
      expect(json).not.toHaveProperty('fetched_at');
      expect(json).not.toHaveProperty('age_seconds');
    }
    const text = await runCli(args, env());
    expect(text.stdout).toMatch(/box scores recorded .* \(replayed, read as of Sun, Aug 17, 8:00 AM EDT\)/);
    expect(text.stdout).not.toMatch(/fetched|\(age/);
  });

  it('status names the clock of every time it shows', async () => {
    const r = await runCli(['status'], env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/│ Sport +│ State +│ Newest snapshot \(data clock\) │ Age +│ Last snapshot run \(data clock\) │ Last settle \(data clock\) +│/);
    expect(r.stdout).toMatch(/│ mlb +│ replayed +│ 2025-08-16T16:25:00.000Z +│ 0 min \(replay\) +│ ok 2025-08-16T16:25:00.000Z +│ ok 2025-08-17T12:00:00.000Z +│/);
    expect(r.stdout).toContain("Clocks: snapshot and run times are on each run's data clock");
  });

  it('Max Fried: scan and stats player read one archetype rule on the MLB clock (24 recorded starts before 2025-08-16)', async () => {
    const csv = readFileSync('data/replay/history/mlb-pitcher-gamelogs-before-2025-08-16.csv', 'utf8').split('\n');
    const recorded = csv.filter((l) => l.split(',')[1] === 'Max Fried').length;
    expect(recorded).toBe(24);
    const scan = JSON.parse((await runCli(['--json', 'scan', '--player', 'Max Fried', '--stat', 'strikeouts', '--line', '5.5', '--direction', 'over', '--sport', 'mlb'], env())).stdout);
    const stats = JSON.parse((await runCli(['--json', 'stats', 'player', 'Max Fried'], env())).stdout);
    expect(scan.intel).toMatchObject({ games: recorded, archetype: 'WORKHORSE' });
    // Before: stats player read on the NBA's clock (2025-11-05), took the settled 2025-08-16 start too, and said "thin data".
    expect(stats).toMatchObject({ as_of: '2025-08-16', profile: { games: recorded, last_game: '2025-08-10' }, archetype: { primary: 'WORKHORSE' }, archetype_note: null });
  });

  it('after the game (clock 2025-08-17) the settled start counts: 25 games, no rule fits (not "thin data")', async () => {
    const r = await runCli(['--json', 'stats', 'player', 'Max Fried', '--now', '2025-08-17T12:00:00Z'], env());
    const stats = JSON.parse(r.stdout);
    expect(stats).toMatchObject({ as_of: '2025-08-17', profile: { games: 25, last_game: '2025-08-16' }, archetype: null, archetype_note: 'no archetype rule fits his real games (docs/archetypes.md)' });
  });
});
