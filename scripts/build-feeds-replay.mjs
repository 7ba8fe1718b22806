#!/usr/bin/env node
/**
 * Writes test/fixtures/manifest.json: a replay manifest over the real provider payloads in
 * test/fixtures/{odds-api,espn,mlb-statsapi,savant}/ (byte-identical copies of ../shared/feeds),
 * so `propgrade feeds check --replay test/fixtures` exercises every adapter on real bytes.
 *
 *   node scripts/build-feeds-replay.mjs [--check]     (--check: fail if the file on disk differs)
 *
 * Where each URL comes from (nothing is guessed to make keys unique):
 * - path and query are what the provider's PROVENANCE.md / NOTES.md state for the file; ids in a
 *   path come from PROVENANCE or, where it says `{id}`, from the payload's own id field;
 * - ESPN team-sport and MMA scoreboards carry `dates=<slate date PROVENANCE names>`: NOTES §4 defines
 *   the scoreboard request by slate date and each payload's day agrees;
 * - three MLB stats URLs are the exact URLs the source repository's tests register for these bodies
 *   (zero-sum-seattle/python-mlb-statsapi tests/mock_tests/stats/*.py);
 * - no credential, no region/bookmaker/date parameter the sources do not state.
 * recordedAt: a capture timestamp PROVENANCE/NOTES state (historical snapshot `timestamp`, ESPN
 * payload timestamps they quote), else the upstream blob commit time (the bytes existed by then),
 * else for the two sports lists the capture day PROVENANCE gives. Entries with no known capture
 * time have none. A key recorded twice must have two different times; files whose request identity
 * AND capture time coincide with another file's cannot both be served and are left out (EXCLUDED).
 *
 * Plain Node ESM (no build step), deterministic output.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = path.join(REPO_ROOT, 'test/fixtures');
const PROVIDERS = ['odds-api', 'espn', 'mlb-statsapi', 'savant'];

const ODDS = 'https://api.the-odds-api.com';
const ESPN = 'https://site.api.espn.com/apis/site/v2/sports';
const ESPN_WEB = 'https://site.web.api.espn.com/apis/common/v3/sports';
const ESPN_CORE = 'https://sports.core.api.espn.com/v2/sports';
const STATSAPI = 'https://statsapi.mlb.com/api';
const SAVANT = 'https://baseballsavant.mlb.com/leaderboard';

const COMMIT = 'upstream blob commit time (captured at or before it)';
const SNAPSHOT = "historical wrapper's snapshot timestamp";

/** Historical payloads carry the snapshot time they answer with. */
const snapshotOf = (body) => JSON.parse(body).timestamp;

/**
 * file -> request. `at` is a fixed ISO time or a function of the body; `basis` says where it came from.
 * `headers` names a captured response-header file tied to this body.
 */
const ENTRIES = {
  'odds-api': {
    'sports-list-2025-05.json': { url: `${ODDS}/v4/sports`, at: '2025-05-16T00:00:00Z', basis: 'capture day PROVENANCE gives (2025-05-16; time of day unknown)' },
    'sports-list-2026-03-03.json': { url: `${ODDS}/v4/sports`, at: '2026-03-03T00:00:00Z', basis: 'capture day PROVENANCE gives (2026-03-03; time of day unknown)' },
    'soccer-bundesliga-events-2025-11-25.json': { url: `${ODDS}/v4/sports/soccer_germany_bundesliga/events` },
    'nba-historical-events-2024-01-25.json': { url: `${ODDS}/v4/historical/sports/basketball_nba/events`, at: snapshotOf, basis: SNAPSHOT },
    'nba-historical-events-2024-04-10.json': { url: `${ODDS}/v4/historical/sports/basketball_nba/events`, at: snapshotOf, basis: SNAPSHOT },
    'nba-historical-events-2025-03-09.json': { url: `${ODDS}/v4/historical/sports/basketball_nba/events`, at: snapshotOf, basis: SNAPSHOT },
    'nba-event-odds-player-points-2024-02-22-CLE-ORL.json': { url: `${ODDS}/v4/sports/basketball_nba/events/f54c4a22568ce9dc33fb410d1b0e75e9/odds?markets=player_points` },
    'nba-event-odds-player-points-2024-02-22-TOR-BKN.json': { url: `${ODDS}/v4/sports/basketball_nba/events/f9f3f99b5124a4ecf984003f0af23d2e/odds?markets=player_points` },
    'mlb-event-odds-batter-hits-runs-rbis-2025-07-29.json': { url: `${ODDS}/v4/sports/baseball_mlb/events/14510bf1ee8adb014f37da7503ca263a/odds` },
    'mlb-event-odds-batter-props-2025-08-01.json': { url: `${ODDS}/v4/sports/baseball_mlb/events/726d918c2a71654fe73ed0610cfa0aaf/odds` },
    'mlb-event-odds-empty-bookmakers-2025-08-02.json': { url: `${ODDS}/v4/sports/baseball_mlb/events/08ca155ecbea031cd567b0a0cd64739b/odds` },
    'mlb-event-odds-pitcher-props-2025-08-06.json': { url: `${ODDS}/v4/sports/baseball_mlb/events/0b7a177c7ec08f17c6ced394964de8d9/odds` },
    'mlb-event-odds-pitcher-strikeouts-1book-2025-07-29.json': { url: `${ODDS}/v4/sports/baseball_mlb/events/16945bc9446e76515a0c94857619b82e/odds` },
    'soccer-bundesliga-event-odds-player-shots-h2h-2025-11-25.json': { url: `${ODDS}/v4/sports/soccer_germany_bundesliga/events/5a2fa066190fb45e3934bbe943d5f56e/odds` },
    'nba-historical-event-odds-h2h-2024-01-25.json': { url: `${ODDS}/v4/historical/sports/basketball_nba/events/cd0bc7d0c238f4446ce1c03d0cea7ec4/odds`, at: snapshotOf, basis: SNAPSHOT },
    'nba-historical-event-odds-player-points-2025-03-09.json': { url: `${ODDS}/v4/historical/sports/basketball_nba/events/242c77a8d5890e18bab91773ad32fcb5/odds`, at: snapshotOf, basis: SNAPSHOT },
    'wnba-historical-event-odds-player-props-2024-06-11T1125Z.json': { url: `${ODDS}/v4/historical/sports/basketball_wnba/events/02efd4ac7268e470dae5e64a1b97cd28/odds`, at: snapshotOf, basis: SNAPSHOT },
    'wnba-historical-event-odds-player-props-2024-06-11T2320Z-closing.json': { url: `${ODDS}/v4/historical/sports/basketball_wnba/events/02efd4ac7268e470dae5e64a1b97cd28/odds`, at: snapshotOf, basis: SNAPSHOT },
    'mma-odds-h2h-2021-11-13.json': { url: `${ODDS}/v4/sports/mma_mixed_martial_arts/odds` },
    'mma-odds-h2h-2025-09-13.json': { url: `${ODDS}/v4/sports/mma_mixed_martial_arts/odds?markets=h2h` },
    'mlb-world-series-winner-outrights-2021-11.json': { url: `${ODDS}/v4/sports/baseball_mlb_world_series_winner/odds?markets=outrights` },
    'ncaab-odds-h2h-spreads-totals-2026-03-03.json': {
      url: `${ODDS}/v4/sports/basketball_ncaab/odds?markets=h2h,spreads,totals`,
      headers: 'response-headers-ncaab-odds-2026-03-03-original.json',
    },
  },
  espn: {
    'mlb-athlete-stats-33192.json': { url: `${ESPN_WEB}/baseball/mlb/athletes/33192/stats`, at: '2025-06-01T08:26:45-07:00', basis: COMMIT },
    'mlb-news-2025-05-20.json': { url: `${ESPN}/baseball/mlb/news`, at: '2025-05-19T22:15:59-07:00', basis: COMMIT },
    'mlb-roster-ATL-2025-05-19.json': { url: `${ESPN}/baseball/mlb/teams/15/roster`, at: '2025-05-18T23:10:39-07:00', basis: COMMIT },
    'mlb-roster-NYY-2026-05-25.json': { url: `${ESPN}/baseball/mlb/teams/10/roster`, at: '2026-06-17T07:07:07-04:00', basis: COMMIT },
    'mlb-scoreboard-2025-05-17.json': { url: `${ESPN}/baseball/mlb/scoreboard?dates=20250517`, at: '2025-05-18T08:49:52-07:00', basis: COMMIT },
    'mlb-scoreboard-2025-06-04.json': { url: `${ESPN}/baseball/mlb/scoreboard?dates=20250604`, at: '2025-06-04T20:15:33-07:00', basis: COMMIT },
    'mlb-scoreboard-2025-06-05.json': { url: `${ESPN}/baseball/mlb/scoreboard?dates=20250605`, at: '2025-06-04T20:15:33-07:00', basis: COMMIT },
    'mlb-scoreboard-2025-06-06.json': { url: `${ESPN}/baseball/mlb/scoreboard?dates=20250606`, at: '2025-06-07T09:04:46-07:00', basis: COMMIT },
    'mlb-scoreboard-2025-09-27.json': { url: `${ESPN}/baseball/mlb/scoreboard?dates=20250927`, at: '2025-09-27T15:19:03-05:00', basis: COMMIT },
    'mlb-scoreboard-2025-09-28.json': { url: `${ESPN}/baseball/mlb/scoreboard?dates=20250928`, at: '2025-09-27T15:19:03-05:00', basis: COMMIT },
    'mlb-summary-401472463-2023-07-19.json': { url: `${ESPN}/baseball/mlb/summary?event=401472463`, at: '2025-05-18T23:10:39-07:00', basis: COMMIT },
    'mma-pfl-scoreboard-2025-10-03.json': { url: `${ESPN}/mma/pfl/scoreboard?dates=20251003`, at: '2025-09-05T11:07:48-05:00', basis: COMMIT },
    'mma-ufc-scoreboard-2025-09-02.json': { url: `${ESPN}/mma/ufc/scoreboard?dates=20250902`, at: '2025-09-03T00:02:00-05:00', basis: COMMIT },
    'mma-ufc-scoreboard-2025-09-27.json': { url: `${ESPN}/mma/ufc/scoreboard?dates=20250927`, at: '2025-09-25T13:55:19-05:00', basis: COMMIT },
    // A date-range request whose range PROVENANCE does not record: no dates parameter.
    'mma-ufc-scoreboard-range-2025-09.json': { url: `${ESPN}/mma/ufc/scoreboard`, at: '2025-09-05T11:07:48-05:00', basis: COMMIT },
    'multi-news-nowapi-2025-06-01.json': { url: 'https://now.core.api.espn.com/v1/sports/news', at: '2025-06-01T09:52:57-07:00', basis: COMMIT },
    'nba-athlete-stats-1966.json': { url: `${ESPN_WEB}/basketball/nba/athletes/1966/stats`, at: '2025-06-01T08:26:45-07:00', basis: COMMIT },
    'nba-injuries-2026-05-23.json': { url: `${ESPN}/basketball/nba/injuries`, at: '2026-05-23T19:26:02Z', basis: 'payload timestamp PROVENANCE quotes' },
    'nba-news-2026-05-23.json': { url: `${ESPN}/basketball/nba/news`, at: '2026-06-17T07:07:07-04:00', basis: COMMIT },
    'nba-roster-LAL-2026-05-23.json': { url: `${ESPN}/basketball/nba/teams/13/roster`, at: '2026-05-23T19:25:38Z', basis: 'payload timestamp NOTES quotes' },
    'nba-scoreboard-2024-12-01.json': { url: `${ESPN}/basketball/nba/scoreboard?dates=20241201`, at: '2026-06-17T07:07:07-04:00', basis: COMMIT },
    'nba-scoreboard-2024-12-15.json': { url: `${ESPN}/basketball/nba/scoreboard?dates=20241215`, at: '2025-06-07T09:04:46-07:00', basis: COMMIT },
    'nba-scoreboard-2025-10-02.json': { url: `${ESPN}/basketball/nba/scoreboard?dates=20251002`, at: '2025-09-05T11:07:48-05:00', basis: COMMIT },
    'nba-summary-401772994-2025-05-31.json': { url: `${ESPN}/basketball/nba/summary?event=401772994`, at: '2025-06-04T20:15:33-07:00', basis: COMMIT },
    'nba-summary-401812480-2025-10-02-pregame.json': { url: `${ESPN}/basketball/nba/summary?event=401812480`, at: '2025-09-27T14:54:35-05:00', basis: COMMIT },
    'nfl-athlete-gamelog-3139477-SHAPE-REFERENCE.json': { url: `${ESPN_WEB}/football/nfl/athletes/3139477/gamelog`, at: '2025-05-14T22:09:14-07:00', basis: COMMIT },
    'soccer-eng1-news-2025-06-01.json': { url: `${ESPN}/soccer/eng.1/news`, at: '2025-06-01T10:40:29-07:00', basis: COMMIT },
    'soccer-eng1-scoreboard-2025-05-25.json': { url: `${ESPN}/soccer/eng.1/scoreboard?dates=20250525`, at: '2025-06-01T10:40:29-07:00', basis: COMMIT },
    'soccer-eng1-scoreboard-2025-09-27.json': { url: `${ESPN}/soccer/eng.1/scoreboard?dates=20250927`, at: '2025-09-27T14:54:35-05:00', basis: COMMIT },
    'soccer-eng1-summary-740643-2025-09-21-pregame.json': { url: `${ESPN}/soccer/eng.1/summary?event=740643`, at: '2025-09-21T13:20:36-05:00', basis: COMMIT },
    'soccer-fifaworld-summary-760495-2026-07-01-live.json': { url: `${ESPN}/soccer/fifa.world/summary?event=760495`, at: '2026-07-01T14:58:35-03:00', basis: COMMIT },
    'wnba-athlete-core-statistics-2491205.json': { url: `${ESPN_CORE}/basketball/leagues/wnba/athletes/2491205/statistics`, at: '2025-06-04T19:20:19-07:00', basis: COMMIT },
    'wnba-news-2025-06-04.json': { url: `${ESPN}/basketball/wnba/news`, at: '2025-06-04T19:20:19-07:00', basis: COMMIT },
    'wnba-scoreboard-2025-06-03-pregame.json': { url: `${ESPN}/basketball/wnba/scoreboard?dates=20250603`, at: '2025-06-02T22:14:56-07:00', basis: COMMIT },
    'wnba-scoreboard-2025-06-03-live-halftime.json': { url: `${ESPN}/basketball/wnba/scoreboard?dates=20250603`, at: '2025-06-03T19:32:33-07:00', basis: COMMIT },
    'wnba-scoreboard-2025-06-03-final.json': { url: `${ESPN}/basketball/wnba/scoreboard?dates=20250603`, at: '2025-06-03T22:12:13-07:00', basis: COMMIT },
  },
  'mlb-statsapi': {
    'mlb-boxscore-716896-2023-08-22.json': { url: `${STATSAPI}/v1/game/716896/boxscore`, at: '2023-09-19T18:46:58-04:00', basis: COMMIT },
    'mlb-boxscore-744914-2024-07-01.json': { url: `${STATSAPI}/v1/game/744914/boxscore`, at: '2026-03-27T12:35:11-07:00', basis: COMMIT },
    'mlb-feedlive-716896-2023-08-22.json': { url: `${STATSAPI}/v1.1/game/716896/feed/live`, at: '2023-09-19T18:46:58-04:00', basis: COMMIT },
    'mlb-feedlive-744914-2024-07-01.json': { url: `${STATSAPI}/v1.1/game/744914/feed/live`, at: '2026-03-27T12:35:11-07:00', basis: COMMIT },
    'mlb-people-660271.json': { url: `${STATSAPI}/v1/people/660271`, at: '2026-03-27T11:20:38-07:00', basis: COMMIT },
    'mlb-people-stats-game-gamelog-2022.json': { url: `${STATSAPI}/v1/people/663728/stats/game/715757`, at: '2023-01-09T14:54:34-08:00', basis: COMMIT },
    'mlb-people-stats-hitting-season-career-2022.json': {
      url: `${STATSAPI}/v1/people/665742/stats?stats=season&stats=career&stats=seasonAdvanced&stats=careerAdvanced&group=hitting`,
      at: '2023-01-09T14:54:34-08:00',
      basis: COMMIT,
    },
    'mlb-people-stats-pitching-season-career-2022.json': {
      url: `${STATSAPI}/v1/people/660271/stats?stats=season&stats=career&stats=seasonAdvanced&stats=careerAdvanced&group=pitching`,
      at: '2023-01-09T14:54:34-08:00',
      basis: COMMIT,
    },
    'mlb-schedule-2023-08-22.json': { url: `${STATSAPI}/v1/schedule?sportId=1&date=2023-08-22`, at: '2023-09-19T18:46:58-04:00', basis: COMMIT },
    // PROVENANCE: a filtered query it cannot name (3 games of the day); no parameter is claimed.
    'mlb-schedule-2024-07-01-3games.json': { url: `${STATSAPI}/v1/schedule`, at: '2026-03-27T11:20:38-07:00', basis: COMMIT },
    'mlb-schedule-hydrate-team-744914-2024-07-01.json': { url: `${STATSAPI}/v1/schedule?hydrate=team`, at: '2026-03-28T18:03:22-07:00', basis: COMMIT },
    'mlb-sports-players-2023.json': { url: `${STATSAPI}/v1/sports/1/players?season=2023`, at: '2023-09-19T18:46:58-04:00', basis: COMMIT },
    'mlb-team-roster-133-2022.json': { url: `${STATSAPI}/v1/teams/133/roster`, at: '2023-01-09T14:54:34-08:00', basis: COMMIT },
  },
  savant: {
    'mlb-pitch-arsenal-stats-2022.csv': { url: `${SAVANT}/pitch-arsenal-stats?csv=true`, at: '2022-09-03T13:00:54-06:00', basis: COMMIT },
    'mlb-pitch-arsenal-stats-2025.csv': { url: `${SAVANT}/pitch-arsenal-stats?csv=true`, at: '2025-11-24T18:59:42-06:00', basis: COMMIT },
    'mlb-pitch-arsenals-avg-speed-2022.csv': { url: `${SAVANT}/pitch-arsenals?type=avg_speed&csv=true`, at: '2022-09-03T13:00:54-06:00', basis: COMMIT },
    'mlb-pitch-arsenals-avg-speed-2025.csv': { url: `${SAVANT}/pitch-arsenals?type=avg_speed&csv=true`, at: '2026-01-22T19:55:22-05:00', basis: COMMIT },
  },
};

/** Fixture files with no manifest entry, and why. Every other file must be in ENTRIES. */
export const EXCLUDED = {
  'odds-api/nba-historical-event-odds-player-points-2025-03-09-2books.json':
    'same event, snapshot timestamp and markets as nba-historical-event-odds-player-points-2025-03-09.json; the two differ only by a bookmaker/region parameter nobody recorded',
  'odds-api/nba-historical-event-odds-spreads-totals-2024-01-25.json':
    'same event and snapshot timestamp as nba-historical-event-odds-h2h-2024-01-25.json; the markets parameter that separates them is not recorded',
  'odds-api/mlb-event-odds-pitcher-props-2025-08-01.json':
    'same event and capture day as mlb-event-odds-batter-props-2025-08-01.json; the markets parameter that separates them is not recorded',
  'odds-api/wnba-events-2026-08-01.json': "the body is the source repository's wrapper {fetched_at_utc, events}, not the API's response bytes",
  'odds-api/nba-scores-2024-02-22.json': 'propgrade has no /scores adapter (settlement reads ESPN / MLB Stats API box scores)',
  'odds-api/response-headers-ncaab-odds-2026-03-03-original.json': 'header capture: used as the headers of the ncaab odds entry',
  'odds-api/response-headers-ncaab-odds-2026-03-03-with-last.json':
    'header capture: a later version of the ncaab header file whose x-requests-last may be hand-added (NOTES §1.8); the original is used',
  'odds-api/response-headers-tennis-odds-2026-03-03.json': 'header capture with no tennis body to attach it to',
  'espn/mma-ufc-core-event-600055033.json': 'sports.core event document ($ref competitions): no adapter reads it and propgrade never requests it',
};

export function replayKey({ provider, url }) {
  const CREDENTIAL_PARAMS = new Set(['apikey', 'api_key', 'key', 'token', 'access_token']);
  const u = new URL(url);
  const params = [...u.searchParams.entries()]
    .filter(([name]) => !CREDENTIAL_PARAMS.has(name.toLowerCase()))
    .sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
  const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${provider} GET ${u.origin}${u.pathname}${query ? `?${query}` : ''}`;
}

const utc = (iso) => new Date(iso).toISOString().replace(/\.000Z$/, 'Z');

export function buildManifest(fixturesDir = FIXTURES) {
  const entries = [];
  const listed = new Set();
  for (const provider of PROVIDERS) {
    for (const [file, spec] of Object.entries(ENTRIES[provider])) {
      const rel = `${provider}/${file}`;
      listed.add(rel);
      const body = fs.readFileSync(path.join(fixturesDir, rel), 'utf8');
      const headers = spec.headers ? JSON.parse(fs.readFileSync(path.join(fixturesDir, provider, spec.headers), 'utf8')) : {};
      if (spec.headers) listed.add(`${provider}/${spec.headers}`);
      const entry = { key: replayKey({ provider, url: spec.url }), provider, url: spec.url, file: rel, status: 200, headers };
      if (spec.at) {
        entry.recordedAt = utc(typeof spec.at === 'function' ? spec.at(body) : spec.at);
        entry.recordedAtBasis = spec.basis;
      }
      entries.push(entry);
    }
  }
  for (const provider of PROVIDERS) {
    for (const file of fs.readdirSync(path.join(fixturesDir, provider)).sort()) {
      if (file === 'PROVENANCE.md') continue;
      const rel = `${provider}/${file}`;
      if (!listed.has(rel) && !(rel in EXCLUDED)) throw new Error(`fixture ${rel} is neither in the manifest table nor excluded with a reason`);
    }
  }
  assertServable(entries);
  entries.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { version: 1, entries };
}

/** Every entry must be the one a replay answers at its own recordedAt. */
function assertServable(entries) {
  const byKey = new Map();
  for (const e of entries) byKey.set(e.key, [...(byKey.get(e.key) ?? []), e]);
  for (const [key, group] of byKey) {
    if (group.length === 1) continue;
    const times = group.map((e) => e.recordedAt);
    if (times.some((t) => t === undefined) || new Set(times).size !== times.length) {
      throw new Error(`${key} is recorded ${group.length} times without distinct recordedAt: ${group.map((e) => e.file).join(', ')}`);
    }
  }
}

function main() {
  const out = path.join(FIXTURES, 'manifest.json');
  const text = `${JSON.stringify(buildManifest(), null, 2)}\n`;
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
    if (current !== text) {
      console.error(`${path.relative(REPO_ROOT, out)} is stale: run node scripts/build-feeds-replay.mjs`);
      process.exit(1);
    }
    console.log(`${path.relative(REPO_ROOT, out)} is up to date`);
    return;
  }
  fs.writeFileSync(out, text);
  const count = JSON.parse(text).entries.length;
  console.log(`wrote ${path.relative(REPO_ROOT, out)}: ${count} entries; left out ${Object.keys(EXCLUDED).length} files:`);
  for (const [file, why] of Object.entries(EXCLUDED)) console.log(`  ${file}: ${why}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
