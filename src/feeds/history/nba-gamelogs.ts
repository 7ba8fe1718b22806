import type { PlayerGameStat } from '../../domain/entities.js';
import { nbaComToEspn } from '../teams/lookup.js';
import { normalizeName, type NormalizedName } from '../../domain/names.js';
import { arrayRecord } from './csv-record.js';
import { columnIndex, hasColumns, readCsv, streamCsvFile, type CsvRecord, type LoadReport } from './csv.js';

/**
 * NBA.com PlayerGameLog rows (shared/history `nba_player_game_logs_*.csv`: one row per player-game,
 * `date` already the US game date) into PlayerGameStat. A 0-minute row is kept as 0 minutes: it is
 * a real DNP, which settles a prop as void and never counts as a played game for a projection.
 */

export const NBA_GAMELOG_SOURCE = 'nba_api PlayerGameLog';

export const NBA_GAMELOG_REQUIRED = ['player', 'player_id', 'date', 'matchup', 'minutes', 'pts', 'reb', 'ast', 'threes_made', 'stl', 'blk'] as const;

const EXTRAS = ['fgm', 'fga', 'ftm', 'fta', 'threes_attempted', 'oreb', 'dreb', 'tov', 'pf', 'plus_minus'] as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * One record -> a PlayerGameStat, or the warning for a skipped row. The checks are the ones the row
 * schema made (player and player_id non-empty, date yyyy-mm-dd, a matchup cell, real minutes), done
 * by hand: every value built here is already of the PlayerGameStat shape, so nothing is re-validated
 * per row. Names are normalized once per distinct spelling.
 */
/** The stats and extras JSON texts of a row, exactly as JSON.stringify writes them (numbers or null, fixed keys). */
export interface RowJson {
  stats: string;
  extras: string;
}

const STAT_KEYS = ['points', 'rebounds', 'assists', 'threes', 'pra', 'blocks', 'steals'] as const;
const EXTRA_KEYS = [...EXTRAS, 'nba_player_id'] as const;
/**
 * JSON.stringify of a flat object of finite numbers and nulls with fixed keys, as a writer: each key
 * with its separator is written once, and String(n) is how JSON prints a finite number.
 */
function numbersJsonWriter(keys: readonly string[]): (values: Readonly<Record<string, number | null | undefined>>) => string {
  const heads = keys.map((k, i) => `${i === 0 ? '' : ','}${JSON.stringify(k)}:`);
  return (values) => {
    let out = '{';
    for (let i = 0; i < keys.length; i++) {
      const v = values[keys[i] as string] ?? null;
      out += (heads[i] as string) + (v === null ? 'null' : String(v));
    }
    return `${out}}`;
  };
}

const statsJson = numbersJsonWriter(STAT_KEYS);
const extrasJson = numbersJsonWriter(EXTRA_KEYS);

/** The JSON texts of a converted row's stats and extras (every value finite or null, as numberCell makes them). */
export function rowJson(row: PlayerGameStat): RowJson {
  return { stats: statsJson(row.stats as Record<string, number | null>), extras: extrasJson(row.extras) };
}

function recordConverter(header: readonly string[]): (rec: CsvRecord, index: number) => PlayerGameStat | string {
  const [player, playerId, date, matchup, minutes, pts, reb, ast, threes, blk, stl, opponent] = [
    'player', 'player_id', 'date', 'matchup', 'minutes', 'pts', 'reb', 'ast', 'threes_made', 'blk', 'stl', 'opponent',
  ].map((name) => columnIndex(header, name)) as number[] as [number, number, number, number, number, number, number, number, number, number, number, number];
  const [fgm, fga, ftm, fta, threesAttempted, oreb, dreb, tov, pf, plusMinus] = EXTRAS.map((name) => columnIndex(header, name)) as number[] as [
    number, number, number, number, number, number, number, number, number, number,
  ];
  const names = new Map<string, NormalizedName>();
  const teams = new Map<string, string | null>();
  const opponents = new Map<string, string | null>();
  // The NBA_GAMELOG_REQUIRED columns are in the header (unknownHeader), so their text is a string.
  return (rec, index) => {
    const playerCell = rec.text(player) as string;
    const playerIdCell = rec.text(playerId) as string;
    const dateCell = rec.text(date) as string;
    const matchupCell = rec.text(matchup) as string;
    const mins = rec.number(minutes);
    if (playerCell.length < 1 || playerIdCell.length < 1 || !DATE.test(dateCell) || mins === null) {
      return `nba game logs line ${index + 2}: skipped (bad player/date/matchup/minutes)`;
    }
    const p = rec.number(pts);
    const r = rec.number(reb);
    const a = rec.number(ast);
    // Keys in EXTRAS' order, then the player id (a row's extras JSON lists them so).
    const extras: Record<string, number | null> = {
      fgm: rec.number(fgm),
      fga: rec.number(fga),
      ftm: rec.number(ftm),
      fta: rec.number(fta),
      threes_attempted: rec.number(threesAttempted),
      oreb: rec.number(oreb),
      dreb: rec.number(dreb),
      tov: rec.number(tov),
      pf: rec.number(pf),
      plus_minus: rec.number(plusMinus),
      nba_player_id: rec.number(playerId),
    };
    let name = names.get(playerCell);
    if (name === undefined) names.set(playerCell, (name = normalizeName(playerCell)));
    return {
      sport: 'nba',
      playerKey: name.key,
      playerName: playerCell,
      // Store-wide team codes are ESPN's (as the odds and results adapters use); the CSV has NBA.com tricodes.
      team: teams.get(matchupCell) ?? teamOfMatchup(teams, matchupCell),
      opponent: opponentTeam(opponents, rec.text(opponent)),
      date: dateCell,
      gameId: null,
      minutes: mins,
      stats: {
        points: p,
        rebounds: r,
        assists: a,
        threes: rec.number(threes),
        pra: p !== null && r !== null && a !== null ? p + r + a : null,
        blocks: rec.number(blk),
        steals: rec.number(stl),
      },
      extras,
      source: NBA_GAMELOG_SOURCE,
    };
  };
}

/** Whether a header is the NBA.com game-log layout (the importer detects the file by it). */
export function isNbaGameLogHeader(header: readonly string[]): boolean {
  return hasColumns(header, NBA_GAMELOG_REQUIRED).length === 0;
}

function unknownHeader(header: readonly string[]): string | null {
  const missing = hasColumns(header, NBA_GAMELOG_REQUIRED);
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
      arrayRecord(header.map((h) => rec[h] as string)),
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
export function streamNbaGameLogsFile(path: string, quoted: boolean, onRow: (row: PlayerGameStat, json: RowJson) => void): string[] {
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
    (rec, i) => {
      const out = (convert as ReturnType<typeof recordConverter>)(rec, i);
      if (typeof out === 'string') warnings.push(out);
      else onRow(out, rowJson(out));
    },
  );
  if (!csv) warnings.push('nba game logs: not a readable CSV');
  return warnings;
}

/** The loader's rows only; `propgrade import gamelogs` uses this. Skipped rows are reported by loadNbaGameLogsCsv. */
export function parseNbaGameLogsCsv(text: string): PlayerGameStat[] {
  return loadNbaGameLogsCsv(text).rows;
}

/** The ESPN team of a matchup cell, remembered per distinct cell. */
function teamOfMatchup(teams: Map<string, string | null>, matchup: string): string | null {
  const team = espnTeam(teamOf(matchup));
  teams.set(matchup, team);
  return team;
}

/** The ESPN team of an opponent cell (an NBA.com tricode), remembered per distinct cell. */
function opponentTeam(opponents: Map<string, string | null>, cell: string | undefined): string | null {
  if (cell === undefined) return null;
  let team = opponents.get(cell);
  if (team === undefined) opponents.set(cell, (team = espnTeam(cell.trim() || null)));
  return team;
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
