import type { PlayerGameStat } from '../../domain/entities.js';
import { normalizeName } from '../../domain/names.js';
import { hasColumns, numberCell, readCsv, type LoadReport } from './csv.js';
import { teamOf } from './nba-gamelogs.js';

/**
 * `nba_threes_results_2024-25.csv`: threes made per player-game for the whole 2024-25 season. It is
 * the settlement truth for 2024-25 threes props (better coverage than the game logs). The 35
 * duplicated (player, date) keys are kept once when the copies agree and dropped when they do not.
 */

export const NBA_THREES_RESULTS_SOURCE = 'nba threes results 2024-25';

const REQUIRED = ['player', 'date', 'team', 'matchup', 'threes_made', 'threes_attempted', 'minutes', 'opponent'] as const;

export function loadNbaThreesResultsCsv(text: string): LoadReport<PlayerGameStat> {
  const csv = readCsv(text);
  if (!csv) return { rows: [], warnings: ['threes results: not a readable CSV'] };
  const missing = hasColumns(csv.header, REQUIRED);
  if (missing.length > 0) return { rows: [], warnings: [`threes results: unknown header, missing ${missing.join(', ')}`] };
  const byKey = new Map<string, PlayerGameStat | 'conflict'>();
  const warnings: string[] = [];
  csv.records.forEach((rec, i) => {
    const threes = numberCell(rec.threes_made);
    const minutes = numberCell(rec.minutes);
    const date = rec.date?.trim() ?? '';
    const player = rec.player?.trim() ?? '';
    if (!player || !/^\d{4}-\d{2}-\d{2}$/.test(date) || threes === null || minutes === null) {
      warnings.push(`threes results line ${i + 2}: skipped (bad player/date/threes/minutes)`);
      return;
    }
    const name = normalizeName(player);
    const row: PlayerGameStat = {
      sport: 'nba',
      playerKey: name.key,
      playerName: player,
      team: rec.team?.trim() || teamOf(rec.matchup ?? ''),
      opponent: rec.opponent?.trim() || null,
      date,
      gameId: null,
      minutes,
      stats: { threes },
      extras: { threes_attempted: numberCell(rec.threes_attempted) },
      source: NBA_THREES_RESULTS_SOURCE,
    };
    const key = `${name.key}|${date}`;
    const prev = byKey.get(key);
    if (prev === undefined) byKey.set(key, row);
    else if (prev !== 'conflict' && (prev.stats.threes !== threes || prev.minutes !== minutes)) {
      byKey.set(key, 'conflict');
      warnings.push(`threes results: ${player} ${date} has disagreeing duplicates; both dropped`);
    }
  });
  const rows = [...byKey.values()].filter((r): r is PlayerGameStat => r !== 'conflict');
  return { rows, warnings };
}
