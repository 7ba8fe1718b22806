import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { PlayerGameStat } from '../../src/domain/entities.js';
import { parseNbaGameLogsCsv } from '../../src/feeds/history/nba-gamelogs.js';
import { runSnapshot, type SnapshotSummary } from '../../src/jobs/snapshot-run.js';
import { silentLogger } from '../../src/feeds/sources.js';
import { buildOddsSource } from '../../src/feeds/factory.js';
import { openStore, type SqliteStore } from '../../src/store/db.js';
import { upsertGameStats } from '../../src/store/repo/game-stats.js';
import type { GradedRowRecord } from '../../src/store/repo/snapshots.js';

/**
 * A real store for the scan and parlay tests: real NBA game logs (the bundled replay's seed,
 * itself rows of /work/shared/history/nba_player_game_logs_2024-25_and_2025-26.csv before
 * 2025-11-04) and a snapshot produced by the real pipeline on the bundled replay (data/replay)
 * at its recorded clock. Two of the 2025-11-05 games are kept so the run stays fast:
 * OKC @ POR and PHI @ CLE (both teams' abbreviations join to the logs).
 */
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const REPLAY_DIR = path.join(REPO, 'data', 'replay');
export const GAMELOGS = path.join(REPLAY_DIR, 'history', 'nba-gamelogs-before-2025-11-04.csv');
/** The replay manifest's defaultNow. */
export const NOW = new Date('2025-11-05T17:05:00Z');
export const OKC_POR = '791675e364eb25c166c6382113c0c17f';
export const PHI_CLE = '82a6ef30859cca886863981ccbe7deb5';
const TEAMS = new Set(['OKC', 'POR', 'PHI', 'CLE']);

export interface BundledStore {
  store: SqliteStore;
  dir: string;
  file: string;
  /** Every game-log row imported (all rows of every player who played for one of the four teams). */
  logs: PlayerGameStat[];
  snapshot: SnapshotSummary;
  cleanup(): Promise<void>;
}

export async function bundledStore(): Promise<BundledStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'propgrade-scan-'));
  const file = path.join(dir, 'store.sqlite');
  const store = openStore(file);
  const all = parseNbaGameLogsCsv(fs.readFileSync(GAMELOGS, 'utf8'));
  const keys = new Set(all.filter((r) => r.team !== null && TEAMS.has(r.team)).map((r) => r.playerKey));
  const logs = all.filter((r) => keys.has(r.playerKey));
  await upsertGameStats(store, logs);

  const sources = await buildOddsSource(loadConfig({}), { replayDir: REPLAY_DIR, recordDir: null, now: NOW, log: silentLogger });
  const keep = new Set([OKC_POR, PHI_CLE]);
  const odds = {
    ...sources.odds,
    events: async (sport: Parameters<typeof sources.odds.events>[0]) => (await sources.odds.events(sport))?.filter((e) => keep.has(e.id)) ?? null,
  };
  const snapshot = await runSnapshot('nba', { store, odds, now: NOW, allowedBooks: null, log: silentLogger });
  await sources.close();
  return {
    store,
    dir,
    file,
    logs,
    snapshot,
    cleanup: async () => {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The snapshot row for one player, stat, line and side; the test fails if the board lacks it. */
export function boardRow(board: readonly GradedRowRecord[], player: string, stat: string, line: number, side: string): GradedRowRecord {
  const row = board.find((r) => r.player === player && r.statType === stat && r.line === line && r.side === side);
  expect(row, `${player} ${stat} ${line} ${side} on the board`).toBeDefined();
  return row!;
}
