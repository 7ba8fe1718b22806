/**
 * The context-route recordings of data/replay (issue 16: news, futures, fight cards): real
 * payloads from ../shared/feeds, copied byte for byte (never re-serialised), each filed under the
 * request propgrade's adapter makes for it. Called by scripts/build-replay.mjs, which writes the
 * manifest; see data/README.md ("Context recordings") for the provenance of every file.
 *
 * recordedAt follows scripts/build-feeds-replay.mjs: the upstream blob commit time (the bytes
 * existed by then) for ESPN files, and for The Odds API files the newest `last_update` stamp in
 * the payload (the answer cannot predate it). A replay at an earlier clock does not see them.
 *
 * Plain Node ESM, deterministic (a fixed table, bytes copied unchanged).
 */
import fs from 'node:fs';
import path from 'node:path';

const ESPN = 'https://site.api.espn.com/apis/site/v2/sports';
const ODDS = 'https://api.the-odds-api.com/v4/sports';

export const COMMIT = 'upstream blob commit time (captured at or before it)';
export const LAST_UPDATE = "newest last_update in the payload (captured at or after it)";

/**
 * source (under <shared>/feeds) -> the request propgrade makes for it. Query parameters are listed
 * in name order (the replay key sorts them anyway). `note` says where the request differs from
 * what the source recorded; data/README.md repeats it.
 */
export const CONTEXT_RECORDINGS = [
  {
    source: 'espn/mma-ufc-scoreboard-2025-09-27.json',
    provider: 'espn',
    url: `${ESPN}/mma/ufc/scoreboard?dates=20250927`,
    file: 'espn/mma-ufc-scoreboard-20250927.json',
    recordedAt: '2025-09-25T18:55:19Z',
    basis: COMMIT,
  },
  {
    source: 'espn/mma-ufc-scoreboard-2025-09-02.json',
    provider: 'espn',
    url: `${ESPN}/mma/ufc/scoreboard?dates=20250902`,
    file: 'espn/mma-ufc-scoreboard-20250902.json',
    recordedAt: '2025-09-03T05:02:00Z',
    basis: COMMIT,
  },
  {
    source: 'espn/mma-pfl-scoreboard-2025-10-03.json',
    provider: 'espn',
    url: `${ESPN}/mma/pfl/scoreboard?dates=20251003`,
    file: 'espn/mma-pfl-scoreboard-20251003.json',
    recordedAt: '2025-09-05T16:07:48Z',
    basis: COMMIT,
  },
  {
    // A date-range request whose range the source does not record: filed as the undated scoreboard
    // (ESPN's current window of cards), which is what propgrade asks for upcoming cards.
    source: 'espn/mma-ufc-scoreboard-range-2025-09.json',
    provider: 'espn',
    url: `${ESPN}/mma/ufc/scoreboard`,
    file: 'espn/mma-ufc-scoreboard-upcoming-2025-09-05.json',
    recordedAt: '2025-09-05T16:07:48Z',
    basis: COMMIT,
  },
  {
    // The source asked markets=h2h only: the body holds no round totals (none were requested).
    source: 'odds-api/mma-odds-h2h-2025-09-13.json',
    provider: 'odds-api',
    url: `${ODDS}/mma_mixed_martial_arts/odds?dateFormat=iso&markets=h2h,totals&oddsFormat=american&regions=us`,
    file: 'odds-api/mma-odds-2025-09-13.json',
    recordedAt: null,
    basis: LAST_UPDATE,
  },
  {
    // The source asked regions=eu (giusene/11nov21_EdgeBet js/getdata.js) in decimal odds: the
    // books are EU books (unibet, betfair). Filed under the adapter's default request (regions=us,
    // American) like every other entry here, so the replay answers with default settings; the
    // adapter reads decimal payloads as decimal. data/README.md says so.
    source: 'odds-api/mlb-world-series-winner-outrights-2021-11.json',
    provider: 'odds-api',
    url: `${ODDS}/baseball_mlb_world_series_winner/odds?dateFormat=iso&markets=outrights&oddsFormat=american&regions=us`,
    file: 'odds-api/mlb-world-series-winner-outrights-2021-11-13.json',
    recordedAt: null,
    basis: LAST_UPDATE,
  },
  { source: 'espn/nba-news-2026-05-23.json', provider: 'espn', url: `${ESPN}/basketball/nba/news`, file: 'espn/nba-news-2026-05-23.json', recordedAt: '2026-06-17T11:07:07Z', basis: COMMIT },
  { source: 'espn/mlb-news-2025-05-20.json', provider: 'espn', url: `${ESPN}/baseball/mlb/news`, file: 'espn/mlb-news-2025-05-20.json', recordedAt: '2025-05-20T05:15:59Z', basis: COMMIT },
  { source: 'espn/wnba-news-2025-06-04.json', provider: 'espn', url: `${ESPN}/basketball/wnba/news`, file: 'espn/wnba-news-2025-06-04.json', recordedAt: '2025-06-05T02:20:19Z', basis: COMMIT },
  { source: 'espn/soccer-eng1-news-2025-06-01.json', provider: 'espn', url: `${ESPN}/soccer/eng.1/news`, file: 'espn/soccer-eng1-news-2025-06-01.json', recordedAt: '2025-06-01T17:40:29Z', basis: COMMIT },
];

/** The newest last_update (bookmaker or market) anywhere in an Odds API body, as ISO seconds. */
export function newestLastUpdate(text) {
  const stamps = [];
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'last_update' && typeof x === 'string') stamps.push(Date.parse(x));
        else walk(x);
      }
    }
  };
  walk(JSON.parse(text));
  const ms = Math.max(...stamps.filter((s) => Number.isFinite(s)));
  if (!Number.isFinite(ms)) throw new Error('no last_update in the payload');
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}

/**
 * Copies every context recording into outDir and returns manifest entries
 * `{ provider, url, file, recordedAt }` (the caller adds key, status and headers).
 */
export function buildContextRecordings({ sharedDir, outDir }) {
  return CONTEXT_RECORDINGS.map((r) => {
    const bytes = fs.readFileSync(path.join(sharedDir, 'feeds', r.source));
    const full = path.join(outDir, r.file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, bytes);
    const recordedAt = r.recordedAt ?? newestLastUpdate(bytes.toString('utf8'));
    return { provider: r.provider, url: r.url, file: r.file, recordedAt };
  });
}
