import { parseArsenalStatsCsv, parseAvgSpeedCsv } from '../savant/index.js';
import { count, matches, type FeedKind } from './kind.js';

/** The Baseball Savant leaderboard CSVs propgrade reads. */

export const SAVANT_KINDS: readonly FeedKind[] = [
  {
    provider: 'savant',
    kind: 'pitch arsenal stats',
    unit: 'pitchers',
    match: matches('leaderboard/pitch-arsenal-stats'),
    parse: (body, _url, log) => {
      const rows = parseArsenalStatsCsv(body, log);
      return rows === null ? null : new Set(rows.map((r) => r.mlbamId)).size;
    },
  },
  {
    provider: 'savant',
    kind: 'pitch velocity (avg speed)',
    unit: 'pitchers',
    match: matches('leaderboard/pitch-arsenals', (_p, url) => url.searchParams.get('type') === 'avg_speed'),
    parse: (body, _url, log) => count(parseAvgSpeedCsv(body, log)),
  },
];
