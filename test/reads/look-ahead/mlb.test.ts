import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { runSettle } from '../../../src/jobs/settle.js';
import { readArsenal } from '../../../src/reads/arsenal.js';
import { evaluateProp } from '../../../src/reads/evaluate-prop.js';
import { trackedProps } from '../../../src/reads/live-tracked.js';
import { readLive } from '../../../src/reads/live.js';
import { readModelRecord } from '../../../src/reads/record.js';
import { readDepth } from '../../../src/reads/stats-depth.js';
import { readLeaders } from '../../../src/reads/stats-leaders.js';
import { readLineups } from '../../../src/reads/stats-lineup.js';
import { readPlayerStats } from '../../../src/reads/stats-player.js';
import { buildTeamHub, resolveTeam } from '../../../src/reads/team-hub.js';
import { openStore, type SqliteStore } from '../../../src/store/db.js';
import { collectingLogger, resultsAt, seededStore, snapshotAt } from '../../helpers/replay-store.js';
import { startServer } from '../../server/_harness.js';
import { type Read, closeStores, contextDeps, sameAnswerCases, withGamesFrom } from './_stores.js';

/**
 * Issue 41 item 5 on the bundled MLB day: each read asked at 2025-08-16 16:25 (the recording's MLB
 * snapshot) on the store as it stood then (`before`), with that night's real box-score lines added
 * (`after`: Max Fried's start among them, 6 strikeouts) and after the next morning's settle
 * (`settled`). A game or an outcome after the clock must change nothing. The pitchers route's ERA
 * is checked against the raw seed CSV: it has no earned-runs column, so before the night's box
 * scores no stored line carries ER and every ERA is null (absent, never 0). At 16:25 the recording
 * holds no arsenal export, schedule (lineups, live) or ESPN roster (depth) yet: those reads answer
 * unavailable, the same on every store; their stored-history parts read before the clock's date.
 */

const NOW = new Date('2025-08-16T16:25:00Z');
const DATE = '2025-08-16';
const SETTLE = new Date('2025-08-17T12:00:00Z');

let dir: string;
let before: SqliteStore;
let after: SqliteStore;
let settled: SqliteStore;

const deps = (store: SqliteStore) => contextDeps(store, NOW);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propgrade-look-ahead-mlb-'));
  const presettle = join(dir, 'presettle.sqlite');
  const settledFile = join(dir, 'settled.sqlite');
  const seeded = await seededStore();
  try {
    await snapshotAt(seeded.store, 'mlb', NOW.toISOString());
    seeded.store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(seeded.path, presettle);
    const sources = await resultsAt(SETTLE.toISOString());
    await runSettle('mlb', { store: seeded.store, results: sources.results, now: SETTLE, log: collectingLogger() });
    await sources.close();
    seeded.store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(seeded.path, settledFile);
  } finally {
    seeded.cleanup();
  }
  ({ before, after, settled } = withGamesFrom(dir, { presettle, settled: settledFile }, DATE));
}, 180_000);

afterAll(() => closeStores(dir, [before, after, settled]));

const HISTORY: Array<[string, Read]> = [
  ['stats player (Max Fried)', (s) => readPlayerStats(deps(s), 'Max Fried', { sport: 'mlb' })],
  ['stats leaders (strikeouts)', (s) => readLeaders(deps(s), { sport: 'mlb', stat: 'strikeouts', minGames: 1 })],
  ['team hub (NYY)', async (s) => buildTeamHub(s, (await resolveTeam(s, 'NYY', 'mlb'))!, NOW)],
  ['scan (evaluate-prop): Max Fried strikeouts over 5.5', (s) => evaluateProp(s, { player: 'Max Fried', stat: 'strikeouts', line: 5.5, side: 'over', sport: 'mlb' }, NOW)],
  ['pitcher arsenal (Max Fried)', (s) => readArsenal(deps(s), 'Max Fried')],
  ['depth chart (NYY)', (s) => readDepth(deps(s), 'NYY', { sport: 'mlb' })],
  ['lineups', (s) => readLineups(deps(s), 'mlb', { date: DATE })],
];

const OUTCOMES: Array<[string, Read]> = [
  ['record (mlb)', (s) => readModelRecord(s, { now: NOW, sport: 'mlb' }, () => NOW, NOW)],
  ['live tracked props', (s) => trackedProps(s, 'mlb', DATE, NOW)],
  ['live', (s) => readLive(deps(s), 'mlb', { date: DATE })],
];

/** GET /api/schedule/mlb/pitchers on a store, the server's clock pinned at NOW. */
async function pitchers(s: SqliteStore): Promise<{ games: Array<{ pitchers: Array<{ player: string; era: number | null }> }> }> {
  const api = await startServer({ store: s, config: loadConfig({}), now: () => NOW, runNow: () => NOW });
  try {
    const body = (await (await fetch(`${api.base}/api/schedule/mlb/pitchers`)).json()) as { data?: unknown };
    return (body.data ?? body) as Awaited<ReturnType<typeof pitchers>>;
  } finally {
    await api.close();
  }
}

describe('no MLB read counts a game or an outcome after its own clock (issue 41 item 5)', () => {
  it("the second store really holds the night's games (Max Fried's start among them)", () => {
    const n = (s: SqliteStore) => (s.sqlite.prepare("select count(*) as n from player_game_stats where sport = 'mlb' and player_key = 'max fried' and date = ?").get(DATE) as { n: number }).n;
    expect(n(before)).toBe(0);
    expect(n(after)).toBe(1);
  });

  sameAnswerCases(HISTORY, "the night's games", () => ({ before, other: after }));
  sameAnswerCases(OUTCOMES, "the next morning's settle", () => ({ before, other: settled }));

  it("pitchers route: each starter's ERA is the raw seed's (no ER column: null), the night's box scores after the clock changing nothing", async () => {
    const header = readFileSync('data/replay/history/mlb-pitcher-gamelogs-before-2025-08-16.csv', 'utf8').split('\n')[0]!.split(',');
    expect(header.some((c) => /earned/i.test(c))).toBe(false);
    const without = await pitchers(before);
    const starters = without.games.flatMap((g) => g.pitchers);
    expect(starters.length).toBeGreaterThan(10);
    expect(starters.every((p) => p.era === null)).toBe(true);
    expect(await pitchers(after)).toEqual(without);
  }, 60_000);

  it('pitchers route: a box-score line that carries ER but is dated on the clock\'s date is not counted', async () => {
    // The recording's box scores carry no earned runs (live MLB Stats API ones do), so this sets a
    // stand-in ER on Max Fried's 2025-08-16 line in a copy: it checks only which dates count, not a figure.
    const file = join(dir, 'with-er.sqlite');
    after.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(after.path, file);
    const withEr = openStore(file);
    try {
      const changed = withEr.sqlite.prepare("update player_game_stats set extras = json_set(extras, '$.earned_runs', 2) where sport = 'mlb' and player_key = 'max fried' and date = ?").run(DATE).changes;
      expect(changed).toBe(1);
      const fried = (b: Awaited<ReturnType<typeof pitchers>>) => b.games.flatMap((g) => g.pitchers).find((p) => p.player === 'Max Fried');
      expect(fried(await pitchers(before))).toMatchObject({ era: null });
      expect(await pitchers(withEr)).toEqual(await pitchers(before));
    } finally {
      await withEr.close();
    }
  }, 60_000);
});
