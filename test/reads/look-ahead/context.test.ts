import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { streaks } from '../../../src/content/select.js';
import { evaluateProp } from '../../../src/reads/evaluate-prop.js';
import { trackedProps } from '../../../src/reads/live-tracked.js';
import { readLive } from '../../../src/reads/live.js';
import { gradeParlay } from '../../../src/reads/parlay.js';
import { resolvePlayer, suggestPlayers } from '../../../src/reads/player-lookup.js';
import { readDepth } from '../../../src/reads/stats-depth.js';
import { readLineups } from '../../../src/reads/stats-lineup.js';
import { readContentFacts } from '../../../src/store/repo/content-facts.js';
import type { SqliteStore } from '../../../src/store/db.js';
import { replayLoopFiles } from '../../helpers/replay-store.js';
import { startServer } from '../../server/_harness.js';
import { type Read, closeStores, contextDeps, sameAnswerCases, withGamesFrom } from './_stores.js';

/**
 * Issue 41 item 5, the reads reads.test.ts and record.test.ts do not ask: each is asked at
 * 2025-11-05 17:05 on the README loop's store as it stood then (`before`) and on the same store
 * with the night's real games added (`after`) or with the next morning's settle (`settled`). A
 * game or an outcome after the clock must change nothing. Where the recording holds nothing for a
 * read at that time (depth: no ESPN roster; lineups: MLB only; live: the scoreboard was recorded
 * after 17:05), the answer it gives (unavailable) is still the same on every store; live tracking
 * itself (trackedProps) is asked directly.
 */

const NOW = new Date('2025-11-05T17:05:00Z');
const DATE = '2025-11-05';

let dir: string;
let before: SqliteStore;
let after: SqliteStore;
let settled: SqliteStore;

const deps = (store: SqliteStore) => contextDeps(store, NOW);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propgrade-look-ahead-context-'));
  const files = await replayLoopFiles(dir);
  ({ before, after, settled } = withGamesFrom(dir, files, DATE));
}, 180_000);

afterAll(() => closeStores(dir, [before, after, settled]));

/** Reads of game history: the same answer with the night's games in the store. */
const HISTORY: Array<[string, Read]> = [
  ['scan (evaluate-prop): Brunson points over 27.5', (s) => evaluateProp(s, { player: 'Jalen Brunson', stat: 'points', line: 27.5, side: 'over', sport: 'nba' }, NOW)],
  [
    'parlay: two legs',
    (s) =>
      gradeParlay(
        s,
        [
          { player: 'Jalen Brunson', stat: 'points', line: 27.5, side: 'over', sport: 'nba' },
          { player: 'Karl-Anthony Towns', stat: 'rebounds', line: 11.5, side: 'over', sport: 'nba' },
        ],
        { now: NOW, tier: 'desk' },
      ),
  ],
  ['player lookup (resolve)', (s) => resolvePlayer(s, 'Jalen Brunson', ['nba'])],
  ['player lookup (suggest)', (s) => suggestPlayers(s, 'brunsn', ['nba'])],
  ['depth chart', (s) => readDepth(deps(s), 'NY', { sport: 'nba' })],
  ['lineups', (s) => readLineups(deps(s), 'nba', { date: DATE })],
];

/** Reads of outcomes: the same answer with the next morning's settle in the store. */
const OUTCOMES: Array<[string, Read]> = [
  ['live tracked props', (s) => trackedProps(s, 'nba', DATE, NOW)],
  ['live', (s) => readLive(deps(s), 'nba', { date: DATE })],
  ['content facts (settle, record, streaks)', async (s) => {
    const facts = await readContentFacts(s, { now: NOW, date: DATE, asOf: NOW });
    return { settleDate: facts.settleDate, settle: facts.settle, record: facts.record, streaks: streaks(facts.record, 1) };
  }],
];

describe('no read counts a game or an outcome after its own clock (issue 41 item 5): the rest', () => {
  sameAnswerCases(HISTORY, "the night's games", () => ({ before, other: after }));
  sameAnswerCases(OUTCOMES, "the next morning's settle", () => ({ before, other: settled }));

  it('the outcome reads see the settle once the clock has passed it', async () => {
    const next = new Date('2025-11-06T12:00:00Z');
    const tracked = await trackedProps(settled, 'nba', DATE, next);
    const raw = settled.sqlite.prepare("select count(*) as n from ledger_entries where user_id is null and sport = 'nba' and game_date = ? and outcome = 'hit'").get(DATE) as { n: number };
    expect(tracked.filter((p) => p.outcome === 'hit').length).toBe(raw.n);
    const facts = await readContentFacts(settled, { now: next, date: DATE, asOf: next });
    expect(facts.settle.filter((e) => e.outcome === 'hit').length).toBe(raw.n);
  }, 60_000);

  it('schedule lineups, injuries: the same answer with the night\'s games and the settle in the store', async () => {
    const body = async (s: SqliteStore, path: string) => {
      const api = await startServer({ store: s, config: loadConfig({}), now: () => NOW, runNow: () => NOW });
      try {
        return await (await fetch(`${api.base}${path}`)).json();
      } finally {
        await api.close();
      }
    };
    for (const path of ['/api/schedule/nba/lineups', '/api/schedule/nba/injuries']) {
      const without = await body(before, path);
      expect(await body(after, path)).toEqual(without);
      expect(await body(settled, path)).toEqual(without);
    }
  }, 60_000);
});
