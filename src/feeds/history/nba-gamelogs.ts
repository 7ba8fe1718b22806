import type { PlayerGameStat } from '../../domain/entities.js';
import { nbaComToEspn } from '../teams/lookup.js';
import { normalizeName, type NormalizedName } from '../../domain/names.js';
import { cellReader, hasColumns, numberCell, readCsv, streamCsvFile, type LoadReport } from './csv.js';

/**
 * NBA.com PlayerGameLog rows (shared/history `nba_player_game_logs_*.csv`: one row per player-game,
 * `date` already the US game date) into PlayerGameStat. A 0-minute row is kept as 0 minutes: it is
 * a real DNP, which settles a prop as void and never counts as a played game for a projection.
 */

export const NBA_GAMELOG_SOURCE = 'nba_api PlayerGameLog';

const REQUIRED = ['player', 'player_id', 'date', 'matchup', 'minutes', 'pts', 'reb', 'ast', 'threes_made', 'stl', 'blk'] as const;

const EXTRAS = ['fgm', 'fga', 'ftm', 'fta', 'threes_attempted', 'oreb', 'dreb', 'tov', 'pf', 'plus_minus'] as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * One record -> a PlayerGameStat, or the warning for a skipped row. The checks are the ones the row
 * schema made (player and player_id non-empty, date yyyy-mm-dd, a matchup cell, real minutes), done
 * by hand: every value built here is already of the PlayerGameStat shape, so nothing is re-validated
 * per row. Names are normalized once per distinct spelling.
 */
function recordConverter(header: readonly string[]): (cells: readonly string[], index: number) => PlayerGameStat | string {
  const cell = cellReader(header);
  const names = new Map<string, NormalizedName>();
  return (cells, index) => {
    const player = cell(cells, 'player') as string;
    const playerId = cell(cells, 'player_id') as string;
    const date = cell(cells, 'date') as string;
    const matchup = cell(cells, 'matchup') as string;
    const minutes = numberCell(cell(cells, 'minutes'));
    if (player.length < 1 || playerId.length < 1 || !DATE.test(date) || minutes === null) {
      return `nba game logs line ${index + 2}: skipped (bad player/date/matchup/minutes)`;
    }
    const pts = numberCell(cell(cells, 'pts'));
    const reb = numberCell(cell(cells, 'reb'));
    const ast = numberCell(cell(cells, 'ast'));
    const extras: Record<string, number | null> = {};
    for (const k of EXTRAS) extras[k] = numberCell(cell(cells, k));
    extras['nba_player_id'] = numberCell(playerId);
    let name = names.get(player);
    if (name === undefined) names.set(player, (name = normalizeName(player)));
    return {
      sport: 'nba',
      playerKey: name.key,
      playerName: player,
      // Store-wide team codes are ESPN's (as the odds and results adapters use); the CSV has NBA.com tricodes.
      team: espnTeam(teamOf(matchup)),
      opponent: espnTeam(cell(cells, 'opponent')?.trim() || null),
      date,
      gameId: null,
      minutes,
      stats: {
        points: pts,
        rebounds: reb,
        assists: ast,
        threes: numberCell(cell(cells, 'threes_made')),
        pra: pts !== null && reb !== null && ast !== null ? pts + reb + ast : null,
        blocks: numberCell(cell(cells, 'blk')),
        steals: numberCell(cell(cells, 'stl')),
      },
      extras,
      source: NBA_GAMELOG_SOURCE,
    };
  };
}

function unknownHeader(header: readonly string[]): string | null {
  const missing = hasColumns(header, REQUIRED);
  return missing.length > 0 ? `nba game logs: unknown header, missing ${missing.join(', ')}` : null;
}

export function loadNbaGameLogsCsv(text: string): LoadReport<PlayerGameStat> {
  const csv = readCsv(text);
  if (!csv) return { rows: [], warnings: ['nba game logs: not a readable CSV'] };
  const bad = unknownHeader(csv.header);
  if (bad) return { rows: [], warnings: [bad] };
  const convert = recordConverter(csv.header);
  const rows: PlayerGameStat[] = [];
  const warnings: string[] = [];
  const header = csv.header;
  csv.records.forEach((rec, i) => {
    const out = convert(
      header.map((h) => rec[h] as string),
      i,
    );
    if (typeof out === 'string') warnings.push(out);
    else rows.push(out);
  });
  return { rows, warnings };
}

/**
 * The same rows streamed from a file, one at a time (the import writes each as it is read, so the
 * file's rows are never all in memory). Returns the warnings, as loadNbaGameLogsCsv would.
 */
export function streamNbaGameLogsFile(path: string, quoted: boolean, onRow: (row: PlayerGameStat) => void): string[] {
  const warnings: string[] = [];
  let convert: ReturnType<typeof recordConverter> | null = null;
  const csv = streamCsvFile(
    path,
    quoted,
    (header) => {
      const bad = unknownHeader(header);
      if (bad) {
        warnings.push(bad);
        return false;
      }
      convert = recordConverter(header);
      return true;
    },
    (cells, i) => {
      const out = (convert as ReturnType<typeof recordConverter>)(cells, i);
      if (typeof out === 'string') warnings.push(out);
      else onRow(out);
    },
  );
  if (!csv) warnings.push('nba game logs: not a readable CSV');
  return warnings;
}

/** The loader's rows only; `propgrade import gamelogs` uses this. Skipped rows are reported by loadNbaGameLogsCsv. */
export function parseNbaGameLogsCsv(text: string): PlayerGameStat[] {
  return loadNbaGameLogsCsv(text).rows;
}

/** An NBA.com tricode as the ESPN code; an unknown code stays absent rather than passing through unmapped. */
function espnTeam(tricode: string | null): string | null {
  return tricode === null ? null : nbaComToEspn('nba', tricode);
}

/** "BOS vs. NYK" / "BOS @ NYK" -> "BOS" (the player's team comes first). */
export function teamOf(matchup: string): string | null {
  const m = /^([A-Z]{2,4})\s+(?:vs\.|@)\s+[A-Z]{2,4}$/.exec(matchup.trim());
  return m?.[1] ?? null;
}
