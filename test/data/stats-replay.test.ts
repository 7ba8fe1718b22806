import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { espnLeague, rosterUrl } from '../../src/feeds/espn/index.js';
import { liveFeedUrl, scheduleUrl } from '../../src/feeds/mlb-statsapi/index.js';
import { arsenalStatsUrl, avgSpeedUrl } from '../../src/feeds/savant/index.js';
import { replayKey } from '../../src/feeds/transport/replay-key.js';

/**
 * The stats routes' recordings in data/replay (scripts/build-stats-replay.mjs, data/README.md "Stats
 * recordings"): real payloads copied byte for byte from ../shared/feeds, each under the exact request
 * propgrade's adapter makes. sha256 values are the source files' as their PROVENANCE.md lists them.
 */

const REPLAY = 'data/replay';
const SHARED = path.resolve('..', 'shared', 'feeds');
const manifest = JSON.parse(fs.readFileSync(path.join(REPLAY, 'manifest.json'), 'utf8')) as {
  entries: Array<{ key: string; provider: string; url: string; file: string; headers: Record<string, string>; recordedAt: string }>;
};

const STATS = [
  { file: 'savant/mlb-pitch-arsenal-stats-2025.csv', source: 'savant/mlb-pitch-arsenal-stats-2025.csv', provider: 'savant', url: arsenalStatsUrl(2025), at: '2025-11-25T00:59:42Z', sha256: 'a536d59d1ec51d6721573289421d4aff803fb2230821d5eb32ad13c9370c1396' },
  { file: 'savant/mlb-pitch-arsenals-avg-speed-2025.csv', source: 'savant/mlb-pitch-arsenals-avg-speed-2025.csv', provider: 'savant', url: avgSpeedUrl(2025), at: '2026-01-23T00:55:22Z', sha256: '946fe307a3db5e3d88053718374e0f226a3d6f7d1df00c7335ad78693e6e3c10' },
  { file: 'savant/mlb-pitch-arsenal-stats-2022.csv', source: 'savant/mlb-pitch-arsenal-stats-2022.csv', provider: 'savant', url: arsenalStatsUrl(2022), at: '2022-09-03T19:00:54Z', sha256: 'ab09c303bc407d91d14e0a5314187735163a7f5b8b97f6f77565e126a26346ac' },
  { file: 'savant/mlb-pitch-arsenals-avg-speed-2022.csv', source: 'savant/mlb-pitch-arsenals-avg-speed-2022.csv', provider: 'savant', url: avgSpeedUrl(2022), at: '2022-09-03T19:00:54Z', sha256: '601318cfeab5d01d6e82668124469d864a04e567f5d0db8cccdc6ce1e8221960' },
  { file: 'espn/nba-roster-lal-2026-05-23.json', source: 'espn/nba-roster-LAL-2026-05-23.json', provider: 'espn', url: rosterUrl(espnLeague('nba'), 'LAL'), at: '2026-05-23T19:25:38Z', sha256: '13105920035d71a6f5b40207bb714d47e8150ae74a2276430eeeba12ce923f95' },
  { file: 'espn/mlb-roster-atl-2025-05-19.json', source: 'espn/mlb-roster-ATL-2025-05-19.json', provider: 'espn', url: rosterUrl(espnLeague('mlb'), 'ATL'), at: '2025-05-19T04:14:04Z', sha256: '4440b742e70a7d58fb40aab3e12fb66d303e2012caa694f23d359358409025e3' },
  { file: 'mlb-statsapi/mlb-schedule-2023-08-22.json', source: 'mlb-statsapi/mlb-schedule-2023-08-22.json', provider: 'mlb-statsapi', url: scheduleUrl('2023-08-22'), at: '2023-09-19T22:46:58Z', sha256: 'eceedc8f84fc9ea0d87c16715002cac55d821fc4bec2b71ecdfa47ec7beac18c' },
  { file: 'mlb-statsapi/mlb-feedlive-716896-2023-08-22.json', source: 'mlb-statsapi/mlb-feedlive-716896-2023-08-22.json', provider: 'mlb-statsapi', url: liveFeedUrl(716896), at: '2023-08-23T01:30:16Z', sha256: '25d0af4f7a019ed72c36801233a8d1f5f2d540ea513519e839f4fe5e08664c78' },
] as const;

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('stats recordings in data/replay', () => {
  it('are filed under the exact request each adapter makes, at the documented recordedAt', () => {
    for (const s of STATS) {
      const found = manifest.entries.filter((e) => e.file === s.file);
      expect(found, s.file).toHaveLength(1);
      expect(found[0]!.key, s.file).toBe(replayKey({ provider: s.provider, url: s.url }));
      expect(found[0]!.recordedAt, s.file).toBe(s.at);
      expect(found[0]!.headers['content-type'], s.file).toBe(s.file.endsWith('.csv') ? 'text/csv' : 'application/json');
    }
  });

  it('are the real payloads, byte for byte (sha256 of the source file)', () => {
    for (const s of STATS) expect(sha256(path.join(REPLAY, s.file)), s.file).toBe(s.sha256);
  });

  it.skipIf(!fs.existsSync(SHARED))('equal their source files in ../shared/feeds', () => {
    for (const s of STATS) expect(fs.readFileSync(path.join(REPLAY, s.file)).equals(fs.readFileSync(path.join(SHARED, s.source))), s.file).toBe(true);
  });

  it('take recordedAt from the payload’s own stamp where it has one', () => {
    const roster = JSON.parse(fs.readFileSync(path.join(REPLAY, 'espn/nba-roster-lal-2026-05-23.json'), 'utf8')) as { timestamp: string };
    expect(roster.timestamp).toBe('2026-05-23T19:25:38Z');
    const feed = JSON.parse(fs.readFileSync(path.join(REPLAY, 'mlb-statsapi/mlb-feedlive-716896-2023-08-22.json'), 'utf8')) as { metaData: { timeStamp: string } };
    expect(feed.metaData.timeStamp).toBe('20230823_013016');
  });
});
