import { existsSync } from 'node:fs';
import type { GradedSport } from '../domain/sports.js';
import { badInput } from '../errors.js';
import { siblingGamesFile } from '../feeds/history/wnba-box-scores.js';
import type { Store } from '../store/db.js';
import { detectGameLogSport, gameLogMismatch, importGameLogs, supportedGameLogSports, type ImportResult } from './import-history.js';

export interface ImportRequest {
  file: string;
  /** The sport the caller says the file holds; checked against the header when both are known. */
  sport?: GradedSport | undefined;
  /** WNBA: the games file that dates the box scores (default: the wnba_games*.csv beside the file). */
  games?: string | undefined;
  force: boolean;
}

export interface ImportPlan extends ImportRequest {
  sport: GradedSport;
}

/**
 * Which importer a file needs: told by its header, which must be one an importer knows; a sport the
 * caller names must agree with it. Checked before any store is opened, so a wrong path never creates a database.
 * Every refusal is a bad-input error naming the file.
 */
export function planImport(req: ImportRequest): ImportPlan {
  const { file } = req;
  if (!existsSync(file)) throw badInput(`no such file: ${file}`);
  if (req.games && !existsSync(req.games)) throw badInput(`no such file: ${req.games}`);
  const detected = detectGameLogSport(file);
  if (req.sport && detected && req.sport !== detected) throw badInput(`--sport ${req.sport}, but ${file} is a ${detected} game-log file`);
  // A header no importer knows is refused, --sport or not: importing it wrote 0 rows and exited 0.
  if (!detected) throw badInput(gameLogMismatch(file, req.sport));
  const sport = req.sport ?? detected;
  if (sport === 'wnba' && !req.games && !siblingGamesFile(file)) throw badInput(`${file}: WNBA box scores need their games file (--games <wnba_games csv>)`);
  return { ...req, sport };
}

/** `propgrade import gamelogs`: the idempotent import of a planned file. */
export async function runImportJob(store: Store, plan: ImportPlan, now: Date): Promise<ImportResult> {
  const result = await importGameLogs(store, plan.sport, plan.file, now, { force: plan.force, ...(plan.games ? { games: plan.games } : {}) });
  if (!result) throw badInput(`--sport ${plan.sport}: no game-log importer (supported: ${supportedGameLogSports().join(', ')})`);
  return result;
}
