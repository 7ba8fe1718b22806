import { resolve } from 'node:path';
import type { PlayerGameStat } from '../domain/entities.js';
import type { GradedSport } from '../domain/sports.js';
import { scanCsvFile, streamCsvFile } from '../feeds/history/csv.js';
import { isMlbGameLogHeader, streamMlbGameLogsFile } from '../feeds/history/mlb-gamelogs.js';
import { isNbaGameLogHeader, streamNbaGameLogsFile } from '../feeds/history/nba-gamelogs.js';
import type { Store } from '../store/db.js';
import { gameStatsWriter } from '../store/repo/game-stats.js';
import { kvGet, kvSet } from '../store/repo/kv.js';
import type { RunLogger } from './sources.js';

export interface ImportResult {
  file: string;
  sport: GradedSport;
  parsed: number;
  written: number;
  /** True when this exact file (by content hash) was imported before and nothing was done. */
  skipped: boolean;
}

/**
 * Game-log formats propgrade can import; each streams a real CSV layout as player-game lines
 * (`quoted`: the file holds a double quote, so it is parsed whole rather than split in chunks).
 */
type GameLogStreamer = (file: string, quoted: boolean, onRow: (row: PlayerGameStat, json?: { stats: string; extras: string }) => void) => string[];
const PARSERS: Partial<Record<GradedSport, GameLogStreamer>> = {
  nba: streamNbaGameLogsFile,
  mlb: streamMlbGameLogsFile,
};

/** Which sport's game-log layout a file has, by its header (read from the first chunk only); null when none. */
export function detectGameLogSport(file: string, quoted = scanCsvFile(file).quoted): GradedSport | null {
  let sport: GradedSport | null = null;
  streamCsvFile(file, quoted, (header) => {
    sport = isMlbGameLogHeader(header) ? 'mlb' : isNbaGameLogHeader(header) ? 'nba' : null;
    return false;
  }, () => undefined);
  return sport;
}

export function supportedGameLogSports(): GradedSport[] {
  return Object.keys(PARSERS) as GradedSport[];
}

/**
 * Imports a game-log CSV into the per-player game table, idempotently: rows upsert on
 * (sport, player, date, game) and a file already imported (same content hash) is skipped.
 * The file is streamed: one pass hashes it in chunks, a second parses it record by record and
 * upserts each row as it is read, all rows in one transaction, so memory stays flat whatever
 * the file's size.
 */
export function importGameLogs(store: Store, sport: GradedSport, file: string, now: Date, options: { force?: boolean } = {}): ImportResult | null {
  const stream = PARSERS[sport];
  if (!stream) return null;
  const { hash, quoted } = scanCsvFile(file);
  const marker = `import:gamelogs:${sport}:${hash}`;
  if (!options.force && kvGet(store.db, marker, now) !== null) {
    return { file, sport, parsed: 0, written: 0, skipped: true };
  }
  const write = gameStatsWriter(store.db);
  let rows = 0;
  store.sqlite.transaction(() => {
    stream(file, quoted, (row, json) => {
      write(row, json);
      rows += 1;
    });
  })();
  kvSet(store.db, marker, { file, rows, importedAt: now.toISOString() }, now, null);
  return { file, sport, parsed: rows, written: rows, skipped: false };
}

export interface ReplaySeed {
  gamelogs?: Array<{ sport: GradedSport; file: string }>;
}

/** A replay folder may carry the game history its recorded days need; import it once. */
export function ensureReplaySeed(store: Store, replayDir: string, seed: ReplaySeed | undefined, now: Date, log: RunLogger): ImportResult[] {
  const out: ImportResult[] = [];
  for (const item of seed?.gamelogs ?? []) {
    const result = importGameLogs(store, item.sport, resolve(replayDir, item.file), now);
    if (!result) {
      log.warn(`replay seed ${item.file}: no game-log importer for ${item.sport}`);
      continue;
    }
    if (!result.skipped) log.info(`imported ${result.written} ${item.sport} player-games from ${item.file}`);
    out.push(result);
  }
  return out;
}
