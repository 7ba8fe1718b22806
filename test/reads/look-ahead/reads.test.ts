import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../../src/store/db.js';
import { replayLoopFiles } from '../../helpers/replay-store.js';
import { closeStores, contextDeps, wireOf, withGamesFrom } from './_stores.js';
import { findHero } from '../../../src/reads/board.js';
import { readLedgerListing } from '../../../src/reads/ledger-listing.js';
import { playerSearch } from '../../../src/reads/players.js';
import { readShowcase } from '../../../src/reads/showcase.js';
import { readSlate } from '../../../src/reads/slate.js';
import { readCascade } from '../../../src/reads/stats-cascade.js';
import { readGame } from '../../../src/reads/stats-game.js';
import { readLeaders } from '../../../src/reads/stats-leaders.js';
import { readPlayerStats } from '../../../src/reads/stats-player.js';
import { buildTeamHub, resolveTeam } from '../../../src/reads/team-hub.js';
import { readTicker } from '../../../src/reads/ticker.js';
import { toWire } from '../../../src/wire.js';

/**
 * Issue 41 item 5: no read counts anything after its own as-of time. Every read model that reads
 * game history is asked the same question at 2025-11-05 17:05 (the README loop's noon snapshot)
 * on two stores: the loop's store as it stood then, and the same store holding the real games
 * played that night (the 2025-11-05 box scores the next morning's settle read from the replay,
 * Brunson's eighth game among them). The answers must be equal: a game after the clock changes
 * nothing. The ledger listing is asked the same on the store before and after the settle itself:
 * no entry locked after the clock, each lock as it stood. Its outcome columns are read without an
 * as-of bound here (a replayed store on its own clock reads the recording whole); asked as of
 * 17:05, the record and the listing read every entry settled after it as pending
 * (look-ahead/record.test.ts, docs/ledger.md "As of a time"). Scan, parlay, player lookup, depth,
 * lineups, injuries, live and the desk's facts are asked in context.test.ts, the MLB day in mlb.test.ts.
 */

const NOW = new Date('2025-11-05T17:05:00Z');
const AFTER_CLOCK = '2025-11-05';

let dir: string;
let before: SqliteStore;
let after: SqliteStore;
let settled: SqliteStore;
let inserted = 0;

const deps = (store: SqliteStore) => contextDeps(store, NOW);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propgrade-look-ahead-'));
  const files = await replayLoopFiles(dir);
  ({ before, after, settled, inserted } = withGamesFrom(dir, files, AFTER_CLOCK));
}, 180_000);

afterAll(() => closeStores(dir, [before, after, settled]));

type Read = (store: SqliteStore) => Promise<unknown>;

/** Each read model that reads game history, asked one question at NOW. */
const READS: Array<[string, Read]> = [
  ['stats player', (s) => readPlayerStats(deps(s), 'Jalen Brunson', { sport: 'nba' })],
  ['stats leaders', (s) => readLeaders(deps(s), { sport: 'nba', stat: 'points', minGames: 1 })],
  ['stats game (one before the clock)', (s) => readGame(deps(s), '2025-11-03:NY', { sport: 'nba' })],
  ["stats game (that night's)", (s) => readGame(deps(s), '2025-11-05:NY', { sport: 'nba' })],
  ['stats cascade', (s) => readCascade(deps(s), 'Jalen Brunson', { sport: 'nba' })],
  ['team hub', async (s) => buildTeamHub(s, (await resolveTeam(s, 'NY', 'nba'))!, NOW)],
  ['players search', (s) => playerSearch(s)('nba', 'brunson', 10, NOW)],
  ['slate (board)', (s) => readSlate(s, 'nba', { all: true })],
  ['hero (board)', (s) => findHero(s, NOW, ['nba'])],
  ['showcase', (s) => readShowcase(deps(s), { sport: 'nba' })],
  ['ticker', (s) => readTicker(s, NOW, [])],
];

const seen = async (read: Read, s: SqliteStore) => wireOf(toWire(await read(s)));

describe('no read counts a game after its own clock (issue 41 item 5)', () => {
  it("the second store really holds the night's games (Brunson's eighth among them)", () => {
    expect(inserted).toBeGreaterThan(100);
    const n = (s: SqliteStore) => (s.sqlite.prepare("select count(*) as n from player_game_stats where sport = 'nba' and player_key = 'jalen brunson' and date >= '2025-10-01'").get() as { n: number }).n;
    expect(n(after)).toBe(n(before) + 1);
  });

  for (const [name, read] of READS) {
    it(`${name}: the same answer with the night's games in the store`, async () => {
      const without = await seen(read, before);
      const withGames = await seen(read, after);
      expect(without).not.toBeNull();
      // A read that answers nothing would pass vacuously: each one here answers (that night's box score is the refusal under test).
      if (name === "stats game (that night's)") expect(without).toMatchObject({ available: false, reason: expect.stringContaining('before 2025-11-05') });
      else expect(JSON.stringify(without)).not.toMatch(/^\{[^{]*"available":false/);
      expect(withGames).toEqual(without);
    }, 60_000);
  }

  it('the check sees a game once the clock has passed it: at the next morning the team hub counts it', async () => {
    const next = new Date('2025-11-06T12:00:00Z');
    const hub = async (s: SqliteStore) => (await buildTeamHub(s, (await resolveTeam(s, 'NY', 'nba'))!, next)).roster.find((p) => p.key === 'jalen brunson')!.seasonGames;
    expect(await hub(before)).toBe(7);
    expect(await hub(after)).toBe(8);
  }, 60_000);

  it("ledger listing: no entry locked after the clock, and each entry's lock as it stood then", async () => {
    const read = (s: SqliteStore) => readLedgerListing(s, { sport: 'nba', date: '2025-11-05' }, 500, () => NOW);
    // What was known at the lock; the outcome columns are the settle's (see the note above).
    const locks = async (s: SqliteStore) =>
      (await read(s)).entries.map((e) => ({ id: e.id, player: e.player, stat: e.statType, line: e.line, side: e.side, grade: e.grade, book: e.book, lockedPrice: e.lockedPrice, lockedFairProb: e.lockedFairProb, lockedAt: e.lockedAt }));
    const without = await locks(before);
    expect(without.length).toBeGreaterThan(400);
    expect(without.every((e) => e.lockedAt <= NOW.toISOString())).toBe(true);
    expect(await locks(settled)).toEqual(without);
  }, 60_000);
});
