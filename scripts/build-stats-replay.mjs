/**
 * The stats routes' recordings of data/replay (issue 17: pitcher arsenal, depth, lineups, MLB box
 * scores): real payloads from ../shared/feeds, copied byte for byte (never re-serialised), each
 * filed under the request propgrade's adapter makes for it. Called by scripts/build-replay.mjs,
 * which writes the manifest; see data/README.md ("Stats recordings") for the provenance of every
 * file and where a filed request differs from what the source asked.
 *
 * recordedAt: the provider's own capture stamp when the payload carries one (an ESPN roster's
 * `timestamp`, the MLB live feed's `metaData.timeStamp`), else the upstream blob commit time (the
 * bytes existed by then), as scripts/build-feeds-replay.mjs and build-context-replay.mjs do. A
 * replay at an earlier clock does not see a recording.
 *
 * Plain Node ESM, deterministic (a fixed table, bytes copied unchanged).
 */
import fs from 'node:fs';
import path from 'node:path';

const ESPN = 'https://site.api.espn.com/apis/site/v2/sports';
const STATSAPI = 'https://statsapi.mlb.com/api';
const SAVANT = 'https://baseballsavant.mlb.com/leaderboard';

export const COMMIT = 'upstream blob commit time (captured at or before it)';
export const PAYLOAD_STAMP = "the payload's own capture stamp";

/** The request src/feeds/savant/arsenal.ts makes (arsenalStatsUrl, avgSpeedUrl). */
const arsenalStatsUrl = (season) => `${SAVANT}/pitch-arsenal-stats?type=pitcher&pitchType=&year=${season}&team=&min=1&csv=true`;
const avgSpeedUrl = (season) => `${SAVANT}/pitch-arsenals?year=${season}&min=1&type=avg_speed&hand=&csv=true`;

/** An ESPN roster's `timestamp` ("2026-05-23T19:25:38Z"). */
const rosterStamp = (text) => {
  const t = JSON.parse(text).timestamp;
  if (typeof t !== 'string' || !Number.isFinite(Date.parse(t))) throw new Error('roster without a timestamp');
  return new Date(Date.parse(t)).toISOString().replace(/\.000Z$/, 'Z');
};

/** The MLB live feed's `metaData.timeStamp` ("20230823_013016", UTC). */
const feedStamp = (text) => {
  const m = /^(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})(\d{2})$/.exec(JSON.parse(text).metaData?.timeStamp ?? '');
  if (!m) throw new Error('live feed without metaData.timeStamp');
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`;
};

/**
 * source (under <shared>/feeds) -> the request propgrade makes for it. `recordedAt` is a fixed time
 * (blob commit, converted to UTC) or a function of the body. `note` says where the request differs
 * from what the source recorded; data/README.md repeats it.
 */
export const STATS_RECORDINGS = [
  {
    source: 'savant/mlb-pitch-arsenal-stats-2025.csv',
    provider: 'savant',
    url: arsenalStatsUrl(2025),
    file: 'savant/mlb-pitch-arsenal-stats-2025.csv',
    recordedAt: '2025-11-25T00:59:42Z',
    basis: COMMIT,
  },
  {
    // The source applied Savant's qualifier (344 pitchers); the adapter asks min=1.
    source: 'savant/mlb-pitch-arsenals-avg-speed-2025.csv',
    provider: 'savant',
    url: avgSpeedUrl(2025),
    file: 'savant/mlb-pitch-arsenals-avg-speed-2025.csv',
    recordedAt: '2026-01-23T00:55:22Z',
    basis: COMMIT,
  },
  {
    // The source export has min 10 PA per row; the adapter asks min=1.
    source: 'savant/mlb-pitch-arsenal-stats-2022.csv',
    provider: 'savant',
    url: arsenalStatsUrl(2022),
    file: 'savant/mlb-pitch-arsenal-stats-2022.csv',
    recordedAt: '2022-09-03T19:00:54Z',
    basis: COMMIT,
  },
  {
    source: 'savant/mlb-pitch-arsenals-avg-speed-2022.csv',
    provider: 'savant',
    url: avgSpeedUrl(2022),
    file: 'savant/mlb-pitch-arsenals-avg-speed-2022.csv',
    recordedAt: '2022-09-03T19:00:54Z',
    basis: COMMIT,
  },
  {
    // The source asked .../teams/13/roster (ESPN's id); the adapter asks by abbreviation (ESPN takes either).
    source: 'espn/nba-roster-LAL-2026-05-23.json',
    provider: 'espn',
    url: `${ESPN}/basketball/nba/teams/lal/roster`,
    file: 'espn/nba-roster-lal-2026-05-23.json',
    recordedAt: rosterStamp,
    basis: PAYLOAD_STAMP,
  },
  {
    // The source asked .../teams/15/roster.
    source: 'espn/mlb-roster-ATL-2025-05-19.json',
    provider: 'espn',
    url: `${ESPN}/baseball/mlb/teams/atl/roster`,
    file: 'espn/mlb-roster-atl-2025-05-19.json',
    recordedAt: rosterStamp,
    basis: PAYLOAD_STAMP,
  },
  {
    // The source asked schedule?sportId=1&date=2023-08-22 with no hydrate; the adapter adds
    // hydrate=probablePitcher,lineups. The body therefore holds neither probables nor lineups; all 15
    // games are final, so the lineup view reads each game's lineup from its live feed instead.
    source: 'mlb-statsapi/mlb-schedule-2023-08-22.json',
    provider: 'mlb-statsapi',
    url: `${STATSAPI}/v1/schedule?sportId=1&date=2023-08-22&hydrate=probablePitcher,lineups`,
    file: 'mlb-statsapi/mlb-schedule-2023-08-22.json',
    recordedAt: '2023-09-19T22:46:58Z',
    basis: COMMIT,
  },
  {
    source: 'mlb-statsapi/mlb-feedlive-716896-2023-08-22.json',
    provider: 'mlb-statsapi',
    url: `${STATSAPI}/v1.1/game/716896/feed/live`,
    file: 'mlb-statsapi/mlb-feedlive-716896-2023-08-22.json',
    recordedAt: feedStamp,
    basis: PAYLOAD_STAMP,
  },
];

/**
 * Copies every stats recording into outDir and returns manifest entries
 * `{ provider, url, file, recordedAt, contentType }` (the caller adds key, status and headers).
 */
export function buildStatsRecordings({ sharedDir, outDir }) {
  return STATS_RECORDINGS.map((r) => {
    const bytes = fs.readFileSync(path.join(sharedDir, 'feeds', r.source));
    const full = path.join(outDir, r.file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, bytes);
    const recordedAt = typeof r.recordedAt === 'function' ? r.recordedAt(bytes.toString('utf8')) : r.recordedAt;
    return { provider: r.provider, url: r.url, file: r.file, recordedAt, contentType: r.file.endsWith('.csv') ? 'text/csv' : 'application/json' };
  });
}
