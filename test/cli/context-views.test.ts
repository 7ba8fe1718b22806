import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { seededStoreFile } from '../helpers/replay-store.js';

/**
 * The CLI views of the context routes over the bundled replay, as the README examples run them:
 * `live`, `news`, `futures`, `combat`, `fight`. Each prints a table (or the hidden state's reason)
 * and the same data with --json.
 */

let dir: string;
let db: string;
const env = (extra: Record<string, string> = {}) => ({ PROPGRADE_DB: db, NO_COLOR: '1', ...extra });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propgrade-ctx-cli-'));
  db = join(dir, 'pg.sqlite');
  await seededStoreFile(db);
  const r = await runCli(['snapshot', 'nba', '--replay', 'data/replay', '--quiet'], env());
  expect(r.code, r.stderr).toBe(0);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('propgrade live', () => {
  it('the morning after the bundled day: every game final, so final states with a count per state, none in-game', async () => {
    const r = await runCli(['live', 'nba', '--date', '2025-11-05', '--replay', 'data/replay', '--now', '2025-11-06T12:00:00Z'], env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/NBA live tracking 2025-11-05 — \d+ tracked props/);
    expect(r.stdout).toMatch(/never changes a locked grade/);
    expect(r.stdout).toMatch(/│ HIT +│ final +│/);
    expect(r.stdout).toMatch(/^States: \d+ HIT · \d+ MISS · \d+ VOID$/m);
    expect(r.stdout).toMatch(/^Phase: tracking = the game so far/m);
    expect(r.stdout).not.toMatch(/NEEDS|HOLDS|LINE PASSED|ON PACE|awaiting settlement/);
    expect(r.stdout).toMatch(/more: --all shows every tracked prop/);
    const json = JSON.parse((await runCli(['--json', 'live', 'nba', '--date', '2025-11-05', '--replay', 'data/replay', '--now', '2025-11-06T12:00:00Z'], env())).stdout);
    expect(json).toMatchObject({ sport: 'nba', available: true, tracking: true });
    expect(json.rows[0]).toHaveProperty('pace_projection');
    const counted = (json.state_counts as { state: string | null; count: number }[]).reduce((a, c) => a + c.count, 0);
    expect(counted).toBe(json.rows.length);
    const hits = (json.rows as { state: string | null }[]).filter((x) => x.state === 'HIT').length;
    expect(r.stdout).toContain(`States: ${hits} HIT`);
  });

  it('before the games (the replay clock): the reason, exit 0; a bad sport or date is exit 2', async () => {
    const r = await runCli(['live', 'nba', '--replay', 'data/replay'], env());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^No live tracking for nba on 2025-11-05: .*not recorded/);
    expect((await runCli(['live', 'mma', '--replay', 'data/replay'], env())).code).toBe(2);
    expect((await runCli(['live', 'nba', '--date', '11/05/2025'], env())).code).toBe(2);
  });
});

describe('propgrade news', () => {
  it('the MLB wire newest first; --json carries the spec fields', async () => {
    const r = await runCli(['news', 'mlb', '--replay', 'data/replay', '--limit', '5'], env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('MLB news wire — 5 items, newest first');
    expect(r.stdout).toContain('Brewers C Contreras fights through fractured finger at plate');
    const json = JSON.parse((await runCli(['--json', 'news', 'wnba', '--replay', 'data/replay'], env())).stdout);
    expect(json).toMatchObject({ sport: 'wnba', available: true });
    expect(Object.keys(json.items[0])).toEqual(expect.arrayContaining(['id', 'headline', 'description', 'published', 'type', 'href']));
  });

  it('a feed the replay recorded after its clock: hidden with the reason', async () => {
    const r = await runCli(['news', 'nba', '--replay', 'data/replay'], env());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^No nba news: .*only recordings after 2025-11-05T17:05:00/);
  });
});

describe('propgrade futures', () => {
  it('off without FUTURES_ENABLED; with it, the World Series board at the best price', async () => {
    expect((await runCli(['futures', 'mlb', '--replay', 'data/replay'], env())).stdout).toMatch(/^No mlb futures: futures are off/);
    const r = await runCli(['futures', 'mlb', '--replay', 'data/replay', '--limit', '3'], env({ FUTURES_ENABLED: '1' }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('MLB World Series Winner');
    expect(r.stdout).toMatch(/│ Los Angeles Dodgers +│ \+550 +│ unibet +│ 2 +│ - +│ - +│/);
    expect(r.stdout).toContain('27 more: --limit 30 shows them');
    // The recorded outrights are of 2021 and the replay clock of 2025: the date names its year; the fetch (this year) does not.
    const updated = (JSON.parse(readFileSync('data/replay/odds-api/mlb-world-series-winner-outrights-2021-11-13.json', 'utf8')) as { bookmakers: { last_update: string }[] }[])[0]!;
    expect(updated.bookmakers.some((b) => b.last_update.startsWith('2021-11-13'))).toBe(true);
    expect(r.stdout).toMatch(/^MLB futures — books updated Sat, Nov 13, 2021, /m);
    // A replayed answer says when it was recorded (issue 41 item 8), not a fetch on the data clock.
    expect(r.stdout).toMatch(/^outrights recorded Sat, Nov 13, 2021, 12:37 PM EST \(replayed, read as of Wed, Nov 5, /m);
    expect((await runCli(['futures', 'wnba', '--replay', 'data/replay'], env({ FUTURES_ENABLED: '1' }))).stdout).toMatch(/no WNBA championship futures key/);
    expect((await runCli(['futures', 'soccer'], env())).code).toBe(2);
  });
});

describe('propgrade combat and fight', () => {
  it('the card with moneylines, the bouts that do not join saying so', async () => {
    const r = await runCli(['combat', '2025-09-27', '--replay', 'data/replay'], env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('UFC Fight Night: Ulberg vs. Reyes (UFC,');
    expect(r.stdout).toMatch(/│ 401801745 │ Carlos Ulberg 13-1-0 +│ -175 │ Dominick Reyes 15-4-0 +│ \+165 │ Light Heavyweight │ 5 +│ - +│/);
    expect(r.stdout).toMatch(/Jimmy Crute 13-4-2 .* no odds: no Odds API bout joins both fighters by name/);
    expect(r.stdout).toContain('Data-limited (never priced): method, round, ko.');
    const json = JSON.parse((await runCli(['--json', 'combat', '2025-10-03', '--replay', 'data/replay'], env())).stdout);
    expect(json.cards.find((c: { league: string }) => c.league === 'pfl').bouts).toHaveLength(12);
  });

  it('one fight by id; an unknown id exits 1; a malformed one 2', async () => {
    const r = await runCli(['fight', '401801745', '--replay', 'data/replay'], env());
    expect(r.code, r.stderr).toBe(0);
    // The replay's clock (2025-11-05) is after the bout; the card was recorded before it.
    expect(r.stdout).toContain('Carlos Ulberg vs Dominick Reyes — Light Heavyweight, 5 rounds, result not in the data (recorded before the bout)');
    expect(r.stdout).toContain('Style edge (model read, not a grade): none; no read: thin data');
    const missing = await runCli(['fight', '12345', '--replay', 'data/replay'], env());
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no fight card holds bout 12345');
    expect((await runCli(['fight', 'abc'], env())).code).toBe(2);
  });

  it('--replay with --record is refused', async () => {
    const r = await runCli(['combat', '2025-09-27', '--replay', 'data/replay', '--record', join(dir, 'rec')], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('choose either --replay <dir> or --record <dir>, not both');
  });
});
