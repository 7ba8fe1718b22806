import type { PlayerGameStat } from '../../domain/entities.js';
import { outsFromInnings } from '../../domain/innings.js';
import { normalizeName, type NormalizedName } from '../../domain/names.js';
import { savantToEspn } from '../teams/lookup.js';
import { columnIndex, hasColumns, streamCsvFile, type CsvRecord } from './csv.js';

/**
 * `mlb_pitcher_game_logs_2025.csv` (MLB Stats API box scores, one row per pitcher appearance) into
 * PlayerGameStat: strikeouts and outs (from innings pitched) as the graded stats, and the model's real inputs as extras (batters
 * faced, outs, the starter flag, the MLBAM id). The row keeps its `game_pk` as the game id, so a
 * doubleheader's two games stay two rows and the settle's box score (same game_pk) is the same game.
 */

export const MLB_GAMELOG_SOURCE = 'mlb-statsapi boxscore (pitcher game logs)';

/** The columns that make a file an MLB pitcher game log (the importer detects the file by them). */
export const MLB_GAMELOG_REQUIRED = ['game_date', 'pitcher', 'mlbam_id', 'team', 'opponent', 'strikeouts', 'innings_pitched', 'game_pk', 'batters_faced', 'is_starter'] as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Extras of a row, in this order (numbers or null). */
export const MLB_EXTRA_KEYS = ['batters_faced', 'outs', 'innings_pitched', 'is_starter', 'mlbam_id'] as const;

export function isMlbGameLogHeader(header: readonly string[]): boolean {
  return hasColumns(header, MLB_GAMELOG_REQUIRED).length === 0;
}

function recordConverter(header: readonly string[]): (rec: CsvRecord, index: number) => PlayerGameStat | string {
  const col = (name: string) => columnIndex(header, name);
  const [date, pitcher, mlbamId, team, opponent, strikeouts, innings, gamePk, battersFaced, isStarter] = MLB_GAMELOG_REQUIRED.map(col) as number[] as [
    number, number, number, number, number, number, number, number, number, number,
  ];
  const names = new Map<string, NormalizedName>();
  return (rec, index) => {
    const name = (rec.text(pitcher) ?? '').trim();
    const day = (rec.text(date) ?? '').trim();
    const pk = rec.number(gamePk);
    const id = rec.number(mlbamId);
    if (name.length < 1 || !DATE.test(day) || pk === null || id === null) {
      return `mlb game logs line ${index + 2}: skipped (bad pitcher/date/game_pk/mlbam_id)`;
    }
    let n = names.get(name);
    if (n === undefined) names.set(name, (n = normalizeName(name)));
    const outs = outsFromInnings(rec.text(innings)); // null when the column is empty or not innings notation
    const starter = rec.number(isStarter);
    return {
      sport: 'mlb',
      playerKey: n.key,
      playerName: name,
      // Store-wide team codes are ESPN's; the file has MLB Stats API codes, which are Savant's (AZ, CWS...).
      team: savantToEspn(rec.text(team) ?? ''),
      opponent: savantToEspn(rec.text(opponent) ?? ''),
      date: day,
      gameId: String(pk),
      minutes: null,
      stats: { strikeouts: rec.number(strikeouts), pitcher_outs: outs },
      extras: {
        batters_faced: rec.number(battersFaced),
        outs,
        innings_pitched: outs === null ? null : outs / 3,
        is_starter: starter === 0 || starter === 1 ? starter : null,
        mlbam_id: id,
      },
      source: MLB_GAMELOG_SOURCE,
    };
  };
}

/** Streams the file's rows (one at a time); returns the warnings for skipped rows or an unknown header. */
export function streamMlbGameLogsFile(path: string, quoted: boolean, onRow: (row: PlayerGameStat) => void): string[] {
  const warnings: string[] = [];
  let convert: ReturnType<typeof recordConverter> | null = null;
  const ok = streamCsvFile(
    path,
    quoted,
    (header) => {
      const missing = hasColumns(header, MLB_GAMELOG_REQUIRED);
      if (missing.length > 0) {
        warnings.push(`mlb game logs: unknown header, missing ${missing.join(', ')}`);
        return false;
      }
      convert = recordConverter(header);
      return true;
    },
    (rec, i) => {
      const out = (convert as ReturnType<typeof recordConverter>)(rec, i);
      if (typeof out === 'string') warnings.push(out);
      else onRow(out);
    },
  );
  if (!ok) warnings.push('mlb game logs: not a readable CSV');
  return warnings;
}
