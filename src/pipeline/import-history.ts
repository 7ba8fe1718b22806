import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { GradedSport } from '../domain/sports.js';
import { parseNbaGameLogsCsv } from '../feeds/history/nba-gamelogs.js';
import type { Store } from '../store/db.js';
import { upsertGameStats } from '../store/repo/game-stats.js';
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

/** Game-log formats propgrade can import; each maps a real CSV layout to player-game lines. */
const PARSERS: Partial<Record<GradedSport, (text: string) => ReturnType<typeof parseNbaGameLogsCsv>>> = {
  nba: parseNbaGameLogsCsv,
};

export function supportedGameLogSports(): GradedSport[] {
  return Object.keys(PARSERS) as GradedSport[];
}

/**
 * Imports a game-log CSV into the per-player game table, idempotently: rows upsert on
 * (sport, player, date, game) and a file already imported (same content hash) is skipped.
 */
export function importGameLogs(store: Store, sport: GradedSport, file: string, now: Date, options: { force?: boolean } = {}): ImportResult | null {
  const parse = PARSERS[sport];
  if (!parse) return null;
  const text = readFileSync(file, 'utf8');
  const hash = createHash('sha256').update(text).digest('hex');
  const marker = `import:gamelogs:${sport}:${hash}`;
  if (!options.force && kvGet(store.db, marker, now) !== null) {
    return { file, sport, parsed: 0, written: 0, skipped: true };
  }
  const rows = parse(text);
  const written = upsertGameStats(store.db, rows);
  kvSet(store.db, marker, { file, rows: rows.length, importedAt: now.toISOString() }, now, null);
  return { file, sport, parsed: rows.length, written, skipped: false };
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
