import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { replayKey } from '../../src/feeds/transport/replay-key.js';
import { espnLeague, newsUrl, scoreboardUrl, upcomingFightCardsUrl } from '../../src/feeds/espn/index.js';
import { FUTURES_KEYS, gradedSportsIn, outrightsUrl, sportOddsUrl } from '../../src/feeds/odds-api/index.js';
import { GRADED_SPORTS } from '../../src/domain/sports.js';

/**
 * The bundled replay (data/replay) is real recorded data re-assembled into provider shapes.
 * These tests pin it to its sources: the key format of the transport, the literal CSV rows it
 * was built from, and the builder's output bytes.
 */
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REPLAY = path.join(REPO, 'data', 'replay');
const SHARED = path.resolve(REPO, '..', 'shared');
const ALL_MARKETS_CSV = path.join(SHARED, 'history', 'nba_player_props_all_markets_2025-10-21_to_2025-11-09.csv');
const THREES_CSV = path.join(SHARED, 'history', 'nba_player_threes_props_2024-10-22_to_2025-11-23.csv');
const GAMELOGS_CSV = path.join(SHARED, 'history', 'nba_player_game_logs_2024-25_and_2025-26.csv');
/** The sources live outside the repo; on a fresh clone the source cross-checks are skipped, the rest still run. */
const sharedAvailable = fs.existsSync(ALL_MARKETS_CSV) && fs.existsSync(GAMELOGS_CSV) && fs.existsSync(THREES_CSV);

/**
 * sha256 over every file of data/replay (path + bytes, sorted). Changes only when the build is re-run on new inputs.
 * Last changed by the bundled EPL matchday (issue 42): the six Saturday matches of 2025-08-30 from
 * ../shared/history's EPL props and player match stats (test/data/soccer-replay.test.ts), its soccer
 * clock, seed and `oddsRegions: {soccer: 'au'}` in the manifest; every other file's bytes are unchanged.
 */
const REPLAY_SHA256 = '1369dfd0c3a34bd4cb3581dc790e1b0a3c0f7edddbd216dee965155bdb68b33b';

const entrySchema = z.strictObject({
  key: z.string(),
  provider: z.enum(['odds-api', 'espn', 'mlb-statsapi', 'savant']),
  url: z.url(),
  file: z.string().regex(/^[a-z-]+\/[\w.-]+\.(json|csv)$/),
  status: z.literal(200),
  // The stats recordings (issue 17) add Savant's CSV exports: test/data/stats-replay.test.ts.
  headers: z.strictObject({ 'content-type': z.enum(['application/json', 'text/csv']) }),
  recordedAt: z.iso.datetime(),
});
const manifestSchema = z.strictObject({
  version: z.literal(1),
  defaultNow: z.iso.datetime(),
  // Per-sport recorded clocks and the other sports' days: test/data/wnba-replay.test.ts.
  clocks: z.record(z.string(), z.iso.datetime()),
  // The bundled EPL matchday's books are Australian: its requests ask regions=au (test/data/soccer-replay.test.ts).
  oddsRegions: z.strictObject({ soccer: z.literal('au') }),
  // The raw EPL rows its recordings were written from (provenance): test/data/soccer-replay.test.ts.
  sources: z.array(z.string().regex(/^history\/epl-[\w.-]+$/)).length(3),
  seed: z.strictObject({
    gamelogs: z.array(z.strictObject({ sport: z.enum(['nba', 'wnba', 'mlb', 'soccer']), file: z.string(), games: z.string().optional() })).min(1),
  }),
  entries: z.array(entrySchema).min(1),
});
type Entry = z.infer<typeof entrySchema>;

/** The bundled WNBA day's recordings (odds, events lists, results), checked in test/data/wnba-replay.test.ts. */
const isWnbaDay = (e: { file: string }) => /^(odds-api|espn)\/wnba-(event-odds|events|scoreboard|summary)-/.test(e.file);
/** The bundled EPL matchday's recordings, checked in test/data/soccer-replay.test.ts. */
const isSoccerDay = (e: { file: string }) => /^(odds-api|espn)\/soccer-(event-odds|events|scoreboard|summary)-/.test(e.file);
const fullManifest = manifestSchema.parse(JSON.parse(fs.readFileSync(path.join(REPLAY, 'manifest.json'), 'utf8')));
/** The NBA day and the context / stats recordings: what this file checks. */
const manifest = {
  ...fullManifest,
  seed: { gamelogs: fullManifest.seed.gamelogs.filter((g) => g.sport !== 'wnba' && g.sport !== 'soccer') },
  entries: fullManifest.entries.filter((e) => !isWnbaDay(e) && !isSoccerDay(e)),
};

function entryFor(url: string, recordedAt: string): Entry {
  const found = manifest.entries.filter((e) => e.url === url && e.recordedAt === recordedAt);
  expect(found).toHaveLength(1);
  return found[0]!;
}

function body(entry: Entry): unknown {
  const text = fs.readFileSync(path.join(REPLAY, entry.file), 'utf8');
  return entry.file.endsWith('.csv') ? text : JSON.parse(text);
}

const outcomeSchema = z.strictObject({
  name: z.enum(['Over', 'Under']),
  description: z.string(),
  price: z.number(),
  point: z.number(),
});
const eventOddsSchema = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{32}$/),
  sport_key: z.literal('basketball_nba'),
  sport_title: z.literal('NBA'),
  commence_time: z.iso.datetime(),
  home_team: z.string(),
  away_team: z.string(),
  bookmakers: z.array(
    z.strictObject({
      key: z.string(),
      title: z.string(),
      markets: z.array(z.strictObject({ key: z.string(), last_update: z.iso.datetime(), outcomes: z.array(outcomeSchema) })),
    }),
  ),
});
const eventsSchema = z.array(eventOddsSchema.omit({ bookmakers: true }));

const MARKETS =
  'player_points,player_rebounds,player_assists,player_threes,player_points_rebounds_assists,player_blocks,player_steals';
const oddsUrl = (id: string) =>
  `https://api.the-odds-api.com/v4/sports/basketball_nba/events/${id}/odds?dateFormat=iso&markets=${MARKETS}&oddsFormat=american&regions=us`;
const EVENTS_URL = 'https://api.the-odds-api.com/v4/sports/basketball_nba/events?dateFormat=iso';
const ODDS_NBA = 'https://api.the-odds-api.com/v4/sports/basketball_nba';
const ODDS_MLB = 'https://api.the-odds-api.com/v4/sports/baseball_mlb';

/**
 * The context routes' recordings (scripts/build-context-replay.mjs): real payloads copied byte for
 * byte from ../shared/feeds, each under the request propgrade's adapter makes. sha256 values are the
 * source files' (the ESPN ones as ../shared/feeds/espn/PROVENANCE.md lists them).
 */
const CONTEXT = [
  { file: 'espn/mma-ufc-scoreboard-20250927.json', source: 'espn/mma-ufc-scoreboard-2025-09-27.json', url: scoreboardUrl(espnLeague('mma', 'ufc'), '2025-09-27'), at: '2025-09-25T18:55:19Z', sha256: 'b44e9ccbfff35ae49d6e5a24ff4ccead677ee967c95f4d061947ce8069890422' },
  { file: 'espn/mma-ufc-scoreboard-20250902.json', source: 'espn/mma-ufc-scoreboard-2025-09-02.json', url: scoreboardUrl(espnLeague('mma', 'ufc'), '2025-09-02'), at: '2025-09-03T05:02:00Z', sha256: 'c805badf0a5f9ed180917364f252c9631490e53ef25b6518a70f8d3017aa5c67' },
  { file: 'espn/mma-pfl-scoreboard-20251003.json', source: 'espn/mma-pfl-scoreboard-2025-10-03.json', url: scoreboardUrl(espnLeague('mma', 'pfl'), '2025-10-03'), at: '2025-09-05T16:07:48Z', sha256: '6944ec9022b1acbdb3442aab3d557273a4d20f840212e9d2b76554b51a37c0bf' },
  { file: 'espn/mma-ufc-scoreboard-upcoming-2025-09-05.json', source: 'espn/mma-ufc-scoreboard-range-2025-09.json', url: upcomingFightCardsUrl(espnLeague('mma', 'ufc')), at: '2025-09-05T16:07:48Z', sha256: 'c519cd640fdfa9074bde160864891c69b70289ac25e08b1393313be1be0d0654' },
  { file: 'odds-api/mma-odds-2025-09-13.json', source: 'odds-api/mma-odds-h2h-2025-09-13.json', url: sportOddsUrl('mma_mixed_martial_arts', ['h2h', 'totals'], { regions: ['us'] }), at: '2025-09-13T08:57:41Z', sha256: '262133d743ce7b3e6f1384eb9cf7db78ff1e892606991d3ee99511ad5b812841' },
  { file: 'odds-api/mlb-world-series-winner-outrights-2021-11-13.json', source: 'odds-api/mlb-world-series-winner-outrights-2021-11.json', url: outrightsUrl(FUTURES_KEYS.mlb!, { regions: ['us'] }), at: '2021-11-13T17:37:04Z', sha256: '28e54ceac7bf59dfccd89c356daf9fbe1467afc5b51c33699b0061eb7eef91ef' },
  { file: 'espn/nba-news-2026-05-23.json', source: 'espn/nba-news-2026-05-23.json', url: newsUrl(espnLeague('nba')), at: '2026-06-17T11:07:07Z', sha256: '2e51b6f7d8dc0a674ca906c96b676f6a0966e3984cbc279db41e393a01f7af74' },
  { file: 'espn/mlb-news-2025-05-20.json', source: 'espn/mlb-news-2025-05-20.json', url: newsUrl(espnLeague('mlb')), at: '2025-05-20T05:15:59Z', sha256: 'bbdac4a7cd2b0f8e43de959385b9199f8dd372f7ad82142424f147b657002eba' },
  { file: 'espn/wnba-news-2025-06-04.json', source: 'espn/wnba-news-2025-06-04.json', url: newsUrl(espnLeague('wnba')), at: '2025-06-05T02:20:19Z', sha256: '788b81a9b0c3bab14472c273dbd1e38117d6dfec5047c45f6ae33556695c369a' },
  { file: 'espn/soccer-eng1-news-2025-06-01.json', source: 'espn/soccer-eng1-news-2025-06-01.json', url: newsUrl(espnLeague('soccer')), at: '2025-06-01T17:40:29Z', sha256: 'cadaf852add331cae92233cd655c46badf59a100836b8b6dee445bfd86548912' },
] as const;
const ESPN = 'https://site.api.espn.com/apis/site/v2/sports/basketball/nba';

/** Real rows, copied verbatim from ../shared/history (checked against the files when they are present). */
const BRUNSON_POINTS_ROW =
  '20251105_170000,29b861ac757bdd61a335f2c275cdc839,Jalen Brunson,player_points,27.5,draftkings,Minnesota Timberwolves @ New York Knicks,2025-11-06T00:30:00Z,-118.0,-108.0';
const BRUNSON_THREES_1500_ROW =
  '2025-11-05,Jalen Brunson,Minnesota Timberwolves @ New York Knicks,2025-11-06T00:30:00Z,player_threes,2.5,draftkings,110,-143,2025-11-05T14:55:35Z,2025-11-05T14:55:33Z';
const BRUNSON_THREES_1700_ROW =
  '20251105_170000,29b861ac757bdd61a335f2c275cdc839,Jalen Brunson,player_threes,2.5,draftkings,Minnesota Timberwolves @ New York Knicks,2025-11-06T00:30:00Z,-101.0,-128.0';
const JOKIC_LOG_ROW =
  '2025-26,Nikola Jokic,203999,2025-11-05,DEN vs. MIA,W,37.0,12,18,0.667,2,5,0.4,7,8,0.875,5,10,15,16,3,0,3,1,33,18,MIA,HOME,Nikola Jokic';
const SENSABAUGH_LOG_ROW =
  '2025-26,Brice Sensabaugh,1641729,2025-11-05,UTA @ DET,L,0.0,0,0,0.0,0,0,0.0,0,0,0.0,0,0,0,0,0,0,0,0,0,2,DET,AWAY,Brice Sensabaugh';

function sourceLines(file: string): Set<string> {
  return new Set(fs.readFileSync(file, 'utf8').split('\n'));
}

function outcomesOf(odds: z.infer<typeof eventOddsSchema>, book: string, market: string, player: string) {
  const m = odds.bookmakers.find((b) => b.key === book)?.markets.find((x) => x.key === market);
  return { lastUpdate: m?.last_update, outcomes: m?.outcomes.filter((o) => o.description === player) ?? [] };
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();
}

function digest(dir: string): string {
  const hash = createHash('sha256');
  for (const rel of filesUnder(dir)) hash.update(`${rel}\0`).update(fs.readFileSync(path.join(dir, rel))).update('\0');
  return hash.digest('hex');
}

describe('data/replay manifest', () => {
  it('is a valid version-1 manifest with the documented clock and seed', () => {
    expect(manifest.defaultNow).toBe('2025-11-05T17:05:00Z');
    expect(manifest.seed.gamelogs).toEqual([
      { sport: 'nba', file: 'history/nba-gamelogs-before-2025-11-04.csv' },
      { sport: 'mlb', file: 'history/mlb-pitcher-gamelogs-before-2025-08-16.csv' },
    ]);
    expect(manifest.clocks).toEqual({ nba: '2025-11-05T17:05:00Z', wnba: '2024-06-02T11:00:00Z', mlb: '2025-08-16T16:25:00Z', soccer: '2025-08-30T10:36:08Z' });
    // 2 days x (2 events lists + 2 odds per game) + (1 scoreboard + 1 summary per game): 6 and 11 games;
    // plus the context routes' 10 recordings (4 fight-card scoreboards, MMA odds, outrights, 4 news feeds)
    // and the stats routes' 8 (4 Savant CSVs, 2 ESPN rosters, an MLB schedule and live feed).
    // plus the MLB day (scripts/build-mlb-day-replay.mjs): 7 events lists + 81 event odds, a schedule and 15 box scores.
    expect(manifest.entries).toHaveLength(2 * 2 + 2 * 17 + 2 + 17 + CONTEXT.length + 8 + 7 + 81 + 1 + 15);
    const identities = manifest.entries.map((e) => `${e.key}@${e.recordedAt}`);
    expect(new Set(identities).size).toBe(identities.length);
  });

  it('stores every key exactly as the transport computes it from provider + url', () => {
    for (const e of manifest.entries) expect(e.key).toBe(replayKey({ provider: e.provider, url: e.url }));
    // The comma list of markets is kept in marketsForSport order, only percent-encoded by the key.
    expect(manifest.entries.some((e) => e.key.includes(`markets=${encodeURIComponent(MARKETS)}`))).toBe(true);
  });

  it('references files that all exist, parse (JSON, or Savant CSV text), and no stray files', () => {
    const referenced = new Set(['manifest.json', ...fullManifest.sources, ...fullManifest.seed.gamelogs.flatMap((g) => [g.file, ...(g.games ? [g.games] : [])])]);
    for (const e of fullManifest.entries) {
      referenced.add(e.file);
      expect(() => body(e)).not.toThrow();
    }
    expect(filesUnder(REPLAY)).toEqual([...referenced].sort());
  });

  it('never holds odds recorded after a listed game started, nor results before it ended', () => {
    for (const e of manifest.entries) {
      if (e.url.startsWith(EVENTS_URL)) {
        for (const ev of eventsSchema.parse(body(e))) expect(ev.commence_time > e.recordedAt).toBe(true);
      } else if (e.provider === 'odds-api' && e.url.startsWith(`${ODDS_MLB}/events?`)) {
        for (const ev of z.array(z.object({ commence_time: z.iso.datetime() })).parse(body(e))) expect(ev.commence_time > e.recordedAt, e.file).toBe(true);
      } else if (e.provider === 'odds-api' && e.url.startsWith(`${ODDS_MLB}/`)) {
        expect(z.object({ commence_time: z.iso.datetime() }).parse(body(e)).commence_time > e.recordedAt, e.file).toBe(true);
      } else if (e.provider === 'odds-api' && e.url.startsWith(`${ODDS_NBA}/`)) {
        expect(eventOddsSchema.parse(body(e)).commence_time > e.recordedAt).toBe(true);
      } else if (e.provider === 'odds-api') {
        // Featured markets and futures: every listed event starts after the answer was recorded.
        for (const ev of z.array(z.object({ commence_time: z.iso.datetime() })).parse(body(e))) expect(ev.commence_time > e.recordedAt, e.file).toBe(true);
      }
    }
  });
});

describe('re-assembled Odds API event odds', () => {
  const at17 = eventOddsSchema.parse(body(entryFor(oddsUrl('29b861ac757bdd61a335f2c275cdc839'), '2025-11-05T17:00:00Z')));
  const at15 = eventOddsSchema.parse(body(entryFor(oddsUrl('29b861ac757bdd61a335f2c275cdc839'), '2025-11-05T15:00:00Z')));

  it.skipIf(!sharedAvailable)('uses rows that exist verbatim in the source CSVs', () => {
    const all = sourceLines(ALL_MARKETS_CSV);
    expect(all.has(BRUNSON_POINTS_ROW)).toBe(true);
    expect(all.has(BRUNSON_THREES_1700_ROW)).toBe(true);
    expect(sourceLines(THREES_CSV).has(BRUNSON_THREES_1500_ROW)).toBe(true);
  });

  it('carries a real 17:00 row exactly: the line and both prices', () => {
    expect(at17.home_team).toBe('New York Knicks');
    expect(at17.away_team).toBe('Minnesota Timberwolves');
    expect(at17.commence_time).toBe('2025-11-06T00:30:00Z');
    const { outcomes, lastUpdate } = outcomesOf(at17, 'draftkings', 'player_points', 'Jalen Brunson');
    expect(outcomes).toEqual([
      { name: 'Over', description: 'Jalen Brunson', price: -118, point: 27.5 },
      { name: 'Under', description: 'Jalen Brunson', price: -108, point: 27.5 },
    ]);
    // The all-markets file has no per-market stamp; the snapshot time stands in (data/README.md).
    expect(lastUpdate).toBe('2025-11-05T17:00:00Z');
    expect(at17.bookmakers.find((b) => b.key === 'williamhill_us')?.title).toBe('Caesars');
  });

  it('holds only threes at 15:00, with the real market stamp, and the real move to 17:00', () => {
    const markets = new Set(at15.bookmakers.flatMap((b) => b.markets.map((m) => m.key)));
    expect([...markets]).toEqual(['player_threes']);
    const early = outcomesOf(at15, 'draftkings', 'player_threes', 'Jalen Brunson');
    expect(early.lastUpdate).toBe('2025-11-05T14:55:33Z');
    expect(early.outcomes.map((o) => [o.name, o.point, o.price])).toEqual([
      ['Over', 2.5, 110],
      ['Under', 2.5, -143],
    ]);
    const late = outcomesOf(at17, 'draftkings', 'player_threes', 'Jalen Brunson');
    expect(late.outcomes.map((o) => [o.name, o.point, o.price])).toEqual([
      ['Over', 2.5, -101],
      ['Under', 2.5, -128],
    ]);
  });

  it('lists the snapshot games: 6 on 2025-11-04 and 11 on 2025-11-05', () => {
    expect(eventsSchema.parse(body(entryFor(EVENTS_URL, '2025-11-04T17:00:00Z')))).toHaveLength(6);
    const nov5 = eventsSchema.parse(body(entryFor(EVENTS_URL, '2025-11-05T17:00:00Z')));
    expect(nov5).toHaveLength(11);
    expect(nov5.map((e) => e.id)).toContain('29b861ac757bdd61a335f2c275cdc839');
  });
});

describe('seed game logs', () => {
  const seedFile = path.join(REPLAY, manifest.seed.gamelogs[0]!.file);
  const text = fs.readFileSync(seedFile, 'utf8');
  const rows = parse(text, { columns: true }) as Record<string, string>[];

  it('holds only games before the first bundled day', () => {
    expect(rows.length).toBeGreaterThan(20_000);
    expect(rows.every((r) => r.date! < '2025-11-04')).toBe(true);
    expect(rows.some((r) => r.date === '2025-11-03')).toBe(true);
    expect(text).not.toContain(JOKIC_LOG_ROW);
  });

  it.skipIf(!sharedAvailable)('is a byte-for-byte row subset of the source (header + whole rows)', () => {
    const source = fs.readFileSync(GAMELOGS_CSV, 'utf8').split('\n');
    const lines = text.split('\n');
    expect(lines[0]).toBe(source[0]);
    expect(lines.at(-1)).toBe('');
    const sourceSet = new Set(source.slice(1));
    expect(lines.slice(1, -1).every((l) => sourceSet.has(l))).toBe(true);
    const sourceRows = parse(fs.readFileSync(GAMELOGS_CSV), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(sourceRows.filter((r) => r.date! < '2025-11-04').length);
  });
});

describe('re-assembled ESPN results', () => {
  const summarySchema = z.object({
    boxscore: z.object({
      players: z.array(
        z.object({
          team: z.object({ abbreviation: z.string(), displayName: z.string() }),
          statistics: z.array(
            z.object({
              names: z.array(z.string()),
              athletes: z.array(
                z.object({
                  athlete: z.object({ id: z.string(), displayName: z.string() }),
                  didNotPlay: z.boolean(),
                  stats: z.array(z.string()),
                }),
              ),
            }),
          ),
        }),
      ),
    }),
    header: z.object({ id: z.string() }),
  });
  const athlete = (eventId: string, team: string, name: string) => {
    const summary = summarySchema.parse(body(entryFor(`${ESPN}/summary?event=${eventId}`, '2025-11-06T12:00:00Z')));
    const box = summary.boxscore.players.find((p) => p.team.abbreviation === team);
    return { names: box?.statistics[0]?.names, line: box?.statistics[0]?.athletes.find((a) => a.athlete.displayName === name) };
  };

  it.skipIf(!sharedAvailable)('uses game-log rows that exist verbatim in the source', () => {
    const logs = sourceLines(GAMELOGS_CSV);
    expect(logs.has(JOKIC_LOG_ROW)).toBe(true);
    expect(logs.has(SENSABAUGH_LOG_ROW)).toBe(true);
  });

  it("writes a player's box-score line equal to his game-log row", () => {
    const [row] = parse(JOKIC_LOG_ROW, {
      columns: fs.readFileSync(path.join(REPLAY, manifest.seed.gamelogs[0]!.file), 'utf8').split('\n', 1)[0]!.split(','),
    }) as Record<string, string>[];
    const { names, line } = athlete('d4e0fbd35e825d1acf8d2fdca5b22ccd', 'DEN', 'Nikola Jokic');
    expect(names).toEqual(['MIN', 'FG', '3PT', 'FT', 'OREB', 'DREB', 'REB', 'AST', 'STL', 'BLK', 'TO', 'PF', '+/-', 'PTS']);
    expect(line?.athlete.id).toBe(row!.player_id);
    expect(line?.didNotPlay).toBe(false);
    expect(line?.stats).toEqual(['37', '12-18', '2-5', '7-8', '5', '10', '15', '16', '3', '0', '3', '1', '+18', '33']);
    // The same numbers, field by field, from the parsed source row.
    expect(line?.stats[names!.indexOf('PTS')]).toBe(row!.pts);
    expect(line?.stats[names!.indexOf('REB')]).toBe(row!.reb);
    expect(line?.stats[names!.indexOf('AST')]).toBe(row!.ast);
    expect(line?.stats[names!.indexOf('3PT')]).toBe(`${row!.threes_made}-${row!.threes_attempted}`);
  });

  it('marks a 0-minute game-log row as did-not-play with no stats, as ESPN does', () => {
    const { line } = athlete('b6e017bee046a5bead934ecfb5cb64db', 'UTAH', 'Brice Sensabaugh');
    expect(line).toEqual({ athlete: { id: '1641729', displayName: 'Brice Sensabaugh' }, didNotPlay: true, stats: [] });
  });

  it('writes final scoreboards without scores, with ESPN abbreviations and winners from the logs', () => {
    const raw = body(entryFor(`${ESPN}/scoreboard?dates=20251105`, '2025-11-06T12:00:00Z'));
    const board = z
      .object({ events: z.array(z.object({ id: z.string(), competitions: z.array(z.unknown()) })) })
      .parse(raw);
    expect(board.events).toHaveLength(11);
    const text = JSON.stringify(raw);
    expect(text).not.toContain('"score"');
    expect(text.match(/"completed":true/g)).toHaveLength(22); // event + competition status per game
    const knicks = board.events.find((e) => e.id === '29b861ac757bdd61a335f2c275cdc839');
    expect(knicks?.competitions[0]).toMatchObject({
      competitors: [
        { id: '18', homeAway: 'home', winner: true, team: { abbreviation: 'NY' } },
        { id: '16', homeAway: 'away', winner: false, team: { abbreviation: 'MIN' } },
      ],
    });
  });
});

describe('context recordings (news, futures, fight cards)', () => {
  it('are filed under the exact request each adapter makes, at the documented recordedAt', () => {
    for (const c of CONTEXT) {
      const found = manifest.entries.filter((e) => e.file === c.file);
      expect(found, c.file).toHaveLength(1);
      expect(found[0]!.key, c.file).toBe(replayKey({ provider: found[0]!.provider, url: c.url }));
      expect(found[0]!.recordedAt, c.file).toBe(c.at);
    }
  });

  it('are the real payloads, byte for byte (sha256 of the source file)', () => {
    for (const c of CONTEXT) expect(createHash('sha256').update(fs.readFileSync(path.join(REPLAY, c.file))).digest('hex'), c.file).toBe(c.sha256);
  });

  it.skipIf(!sharedAvailable)('equal their source files in ../shared/feeds', () => {
    for (const c of CONTEXT) expect(fs.readFileSync(path.join(REPLAY, c.file)).equals(fs.readFileSync(path.join(SHARED, 'feeds', c.source))), c.file).toBe(true);
  });

  it("date Odds API answers by their newest last_update, and add no graded sport to a snapshot's recording", () => {
    for (const c of CONTEXT.filter((x) => x.file.startsWith('odds-api/'))) {
      const stamps = JSON.stringify(body({ file: c.file } as Entry)).match(/"last_update":"[^"]+"/g)!.map((m) => Date.parse(m.slice(15, -1)));
      expect(new Date(Math.max(...stamps)).toISOString().replace('.000Z', 'Z')).toBe(c.at);
    }
    expect([...gradedSportsIn(manifest.entries.map((e) => e.key), GRADED_SPORTS)].sort()).toEqual(['mlb', 'nba']);
  });
});

describe('builder', () => {
  it('pins the bundled bytes', () => {
    expect(digest(REPLAY)).toBe(REPLAY_SHA256);
  });

  it.skipIf(!sharedAvailable)('rebuilds identical bytes from the sources', () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'replay-')), 'replay');
    try {
      execFileSync(process.execPath, [path.join(REPO, 'scripts', 'build-replay.mjs'), '--shared', SHARED, '--out', out]);
      expect(filesUnder(out)).toEqual(filesUnder(REPLAY));
      for (const rel of filesUnder(out)) {
        expect(fs.readFileSync(path.join(out, rel)).equals(fs.readFileSync(path.join(REPLAY, rel))), rel).toBe(true);
      }
    } finally {
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
    }
    // The EPL matchday reads the whole 811,152-row props file (about 20 s of the rebuild).
  }, 180_000);
});
