import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PlayerGameStat } from '../domain/entities.js';
import type { GradedSport } from '../domain/sports.js';
import { scanCsvFile } from '../feeds/history/csv.js';
import { EPL_STATS_REQUIRED, isEplStatsHeader, streamEplStatsFile } from '../feeds/history/epl-player-stats.js';
import { isMlbGameLogHeader, MLB_GAMELOG_REQUIRED, streamMlbGameLogsFile } from '../feeds/history/mlb-gamelogs.js';
import { isNbaGameLogHeader, NBA_GAMELOG_REQUIRED, streamNbaGameLogsFile } from '../feeds/history/nba-gamelogs.js';
import { isWnbaBoxScoreHeader, loadWnbaGamesCsv, siblingGamesFile, streamWnbaBoxScoresFile, WNBA_BOX_COLUMNS } from '../feeds/history/wnba-box-scores.js';
import type { Store } from '../store/db.js';
import { gameStatsWriter } from '../store/repo/game-stats.js';
import { kvGet, kvSet } from '../store/repo/kv.js';
import { transaction } from '../store/repo/tx.js';
import type { RunLogger } from '../feeds/sources.js';
import type { ReplaySeed } from '../feeds/transport/replay.js';

export interface ImportResult {
  file: string;
  sport: GradedSport;
  parsed: number;
  written: number;
  /** True when this exact file (by content hash) was imported before and nothing was done. */
  skipped: boolean;
  /** Rows the parser skipped (unknown game, non-WNBA team, bad cells); each is a real row left out, never filled. */
  skippedRows?: number;
  /** WNBA: the games file the box scores were dated from. */
  gamesFile?: string;
}

export interface ImportOptions {
  force?: boolean;
  /** WNBA box scores carry no date: the games file (game_id, date, home, away); default the wnba_games*.csv beside the file. */
  games?: string;
}

/**
 * Game-log formats propgrade can import; each streams a real CSV layout as player-game lines
 * (`quoted`: the file holds a double quote, so it is parsed whole rather than split in chunks).
 */
type GameLogStreamer = (file: string, quoted: boolean, onRow: (row: PlayerGameStat, json?: { stats: string; extras: string }) => void, games: string | null) => string[];
const PARSERS: Partial<Record<GradedSport, GameLogStreamer>> = {
  nba: (file, quoted, onRow) => streamNbaGameLogsFile(file, quoted, onRow),
  mlb: (file, quoted, onRow) => streamMlbGameLogsFile(file, quoted, onRow),
  soccer: (file, quoted, onRow) => streamEplStatsFile(file, quoted, onRow),
  wnba: (file, quoted, onRow, games) => {
    if (games === null) return ['wnba box scores: no games file (pass --games <wnba_games csv>)'];
    const loaded = loadWnbaGamesCsv(readFileSync(games, 'utf8'));
    return [...loaded.warnings, ...streamWnbaBoxScoresFile(file, quoted, loaded.games, onRow)];
  },
};

/** A CSV file's header (first line), trimmed and unquoted. */
function gameLogHeader(file: string): string[] {
  const fd = openSync(file, 'r');
  let head = '';
  try {
    const buf = Buffer.alloc(4096);
    head = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
  return (head.replace(/^\uFEFF/, '').split(/\r?\n|\r/, 1)[0] ?? '').split(',').map((h) => h.trim().replace(/^"|"$/g, ''));
}

/** The sport a game-log file holds, told by its header (first line): null when no importer knows it. */
export function detectGameLogSport(file: string): GradedSport | null {
  const header = gameLogHeader(file);
  if (isWnbaBoxScoreHeader(header)) return 'wnba';
  if (isMlbGameLogHeader(header)) return 'mlb';
  if (isEplStatsHeader(header)) return 'soccer';
  if (isNbaGameLogHeader(header)) return 'nba';
  return null;
}

/** What each importer looks for in a header: the layout's name and its required columns. */
const LAYOUTS: Readonly<Partial<Record<GradedSport, { name: string; columns: readonly string[] }>>> = {
  nba: { name: 'NBA.com PlayerGameLog export', columns: NBA_GAMELOG_REQUIRED },
  mlb: { name: 'MLB pitcher game logs', columns: MLB_GAMELOG_REQUIRED },
  wnba: { name: 'ESPN WNBA box scores (no date column: their games file dates them)', columns: WNBA_BOX_COLUMNS },
  soccer: { name: 'EPL player match stats (FPL-Elo-Insights)', columns: EPL_STATS_REQUIRED },
};

/**
 * Why a file is not the game logs of `sport` (or of any sport propgrade imports): the layout each
 * importer looks for and the columns its header lacks, so the refusal names what was looked for.
 */
export function gameLogMismatch(file: string, sport?: GradedSport): string {
  const header = gameLogHeader(file);
  const looked = (s: GradedSport) => {
    const layout = LAYOUTS[s];
    if (!layout) return `${s}: no game-log importer`;
    const missing = layout.columns.filter((c) => !header.includes(c));
    const lacks = missing.length === layout.columns.length ? 'none of them is in this header' : missing.length > 0 ? `this header lacks ${missing.join(', ')}` : 'this header also has a date column';
    return `the ${layout.name}, a header with ${layout.columns.join(', ')} (${lacks})`;
  };
  if (sport) return `${file} is not ${sport.toUpperCase()} game logs: --sport ${sport} looks for ${looked(sport)}`;
  return `${file} is not a game-log file propgrade imports: it looks for ${supportedGameLogSports().map((s) => `${s}: ${looked(s)}`).join('; ')}`;
}

export function supportedGameLogSports(): GradedSport[] {
  return Object.keys(PARSERS) as GradedSport[];
}

/**
 * Imports a game-log CSV into the per-player game table, idempotently: rows upsert on
 * (sport, player, date, game) and a file already imported (same content hash) is skipped.
 * The file is streamed: one pass hashes it in chunks, a second parses it record by record, all
 * rows in one transaction. On SQLite each row is upserted as it is read, so memory stays flat
 * whatever the file's size; on PostgreSQL each row is encoded for COPY as it is read and the stream
 * goes out when the parse ends (nothing could go out during a synchronous parse), copied straight
 * in when the sport has no stored line yet (store/pg/ops/game-stats.ts).
 */
export async function importGameLogs(store: Store, sport: GradedSport, file: string, now: Date, options: ImportOptions = {}): Promise<ImportResult | null> {
  const stream = PARSERS[sport];
  if (!stream) return null;
  const games = sport === 'wnba' ? (options.games ?? siblingGamesFile(file)) : null;
  const { hash, quoted } = scanCsvFile(file);
  // The games file dates the WNBA rows, so it is part of what was imported.
  const marker = `import:gamelogs:${sport}:${hash}${games ? `:${scanCsvFile(games).hash}` : ''}`;
  if (!options.force && (await kvGet(store, marker, now)) !== null) {
    return { file, sport, parsed: 0, written: 0, skipped: true };
  }
  let rows = 0;
  let warnings: string[] = [];
  await transaction(
    store,
    async (tx) => {
      const writer = await gameStatsWriter(tx);
      warnings = stream(
        file,
        quoted,
        (row, json) => {
          writer.write(row, json);
          rows += 1;
        },
        games,
      );
      await writer.flush();
    },
    { exclusive: false },
  );
  if (games !== null || sport !== 'wnba') await kvSet(store, marker, { file, rows, importedAt: now.toISOString() }, now, null);
  return { file, sport, parsed: rows, written: rows, skipped: false, skippedRows: warnings.length, ...(games ? { gamesFile: games } : {}) };
}

export type { ReplaySeed };

/** A replay folder may carry the game history its recorded days need; import it once. */
export async function ensureReplaySeed(store: Store, replayDir: string, seed: ReplaySeed | undefined, now: Date, log: RunLogger, sports?: readonly GradedSport[]): Promise<ImportResult[]> {
  const out: ImportResult[] = [];
  // Only the history of the sports the run grades (a one-sport run need not import another's).
  for (const item of (seed?.gamelogs ?? []).filter((g) => sports === undefined || sports.includes(g.sport))) {
    const result = await importGameLogs(store, item.sport, resolve(replayDir, item.file), now, item.games ? { games: resolve(replayDir, item.games) } : {});
    if (!result) {
      log.warn(`replay seed ${item.file}: no game-log importer for ${item.sport}`);
      continue;
    }
    if (!result.skipped) log.info(`imported ${result.written} ${item.sport} player-games from ${item.file}`);
    out.push(result);
  }
  return out;
}
