import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { PlayerGameStat } from '../../domain/entities.js';
import { normalizeName, type NormalizedName } from '../../domain/names.js';
import { teamAbbr } from '../teams/lookup.js';
import { columnIndex, hasColumns, readCsv, streamCsvFile, type CsvRecord } from './csv.js';
import type { RowJson } from './nba-gamelogs.js';
import { rowJson } from './nba-gamelogs.js';

/**
 * ESPN WNBA box scores (shared/history `wnba_player_box_scores_*.csv`: one row per player-game,
 * keyed by ESPN game_id, no date) joined to the games file (`wnba_games_*.csv`: game_id, date
 * yyyymmdd, home, away) for the game date and the opponent. Rows of non-WNBA teams (all-star
 * games, exhibitions against national teams) are skipped: their code is not a WNBA team.
 */

export const WNBA_BOX_SOURCE = 'ESPN WNBA box score';

export const WNBA_BOX_COLUMNS = ['game_id', 'team', 'player', 'aid', 'min', 'pts', 'tpm', 'reb', 'ast', 'stl', 'blk'] as const;
const GAMES_COLUMNS = ['game_id', 'date', 'home', 'away'] as const;

/** True when a CSV header is the WNBA box-score layout (the import detects the file by it). */
export function isWnbaBoxScoreHeader(header: readonly string[]): boolean {
  return hasColumns(header, WNBA_BOX_COLUMNS).length === 0 && !header.includes('date');
}

export interface WnbaGame {
  gameId: string;
  /** ET game date, yyyy-mm-dd. */
  date: string;
  home: string;
  away: string;
}

/** The games file by game id; rows with an unreadable date are left out (their box rows are skipped). */
export function loadWnbaGamesCsv(text: string): { games: Map<string, WnbaGame>; warnings: string[] } {
  const csv = readCsv(text);
  const games = new Map<string, WnbaGame>();
  if (!csv) return { games, warnings: ['wnba games: not a readable CSV'] };
  const missing = hasColumns(csv.header, GAMES_COLUMNS);
  if (missing.length > 0) return { games, warnings: [`wnba games: unknown header, missing ${missing.join(', ')}`] };
  const warnings: string[] = [];
  csv.records.forEach((r, i) => {
    const m = /^(\d{4})(\d{2})(\d{2})$/.exec((r.date ?? '').trim());
    const id = (r.game_id ?? '').trim();
    if (!m || !id) {
      warnings.push(`wnba games line ${i + 2}: skipped (bad game_id/date)`);
      return;
    }
    games.set(id, { gameId: id, date: `${m[1]}-${m[2]}-${m[3]}`, home: (r.home ?? '').trim(), away: (r.away ?? '').trim() });
  });
  return { games, warnings };
}

/** The games file beside a box-score file: `wnba_games*.csv` / `wnba-games*.csv` in the same folder, when exactly one exists. */
export function siblingGamesFile(boxFile: string): string | null {
  const dir = dirname(boxFile);
  if (!existsSync(dir)) return null;
  const found = readdirSync(dir).filter((f) => /^wnba[-_]games.*\.csv$/.test(f) && f !== basename(boxFile));
  return found.length === 1 ? join(dir, found[0] as string) : null;
}

function recordConverter(header: readonly string[], games: ReadonlyMap<string, WnbaGame>): (rec: CsvRecord, index: number) => PlayerGameStat | string {
  const col = (name: string) => columnIndex(header, name);
  const c = {
    game: col('game_id'), team: col('team'), player: col('player'), aid: col('aid'), min: col('min'), pts: col('pts'), reb: col('reb'), ast: col('ast'),
    tpm: col('tpm'), tpa: col('tpa'), stl: col('stl'), blk: col('blk'), fgm: col('fgm'), fga: col('fga'), ftm: col('ftm'), fta: col('fta'),
    oreb: col('oreb'), dreb: col('dreb'), to: col('to'), pf: col('pf'), pm: col('pm'), starter: col('starter'),
  };
  const names = new Map<string, NormalizedName>();
  return (rec, index) => {
    const gameId = (rec.text(c.game) ?? '').trim();
    const game = games.get(gameId);
    const player = (rec.text(c.player) ?? '').trim();
    const code = (rec.text(c.team) ?? '').trim();
    const team = code ? teamAbbr('wnba', code) : null;
    const minutes = rec.number(c.min);
    if (!game) return `wnba box scores line ${index + 2}: skipped (game ${gameId} not in the games file)`;
    if (!team) return `wnba box scores line ${index + 2}: skipped (team ${code} is not a WNBA team)`;
    if (!player || minutes === null) return `wnba box scores line ${index + 2}: skipped (bad player/minutes)`;
    const home = teamAbbr('wnba', game.home);
    const away = teamAbbr('wnba', game.away);
    const opponent = team === home ? away : team === away ? home : null;
    let name = names.get(player);
    if (name === undefined) names.set(player, (name = normalizeName(player)));
    const p = rec.number(c.pts);
    const r = rec.number(c.reb);
    const a = rec.number(c.ast);
    return {
      sport: 'wnba',
      playerKey: name.key,
      playerName: player,
      team,
      opponent,
      date: game.date,
      gameId,
      minutes,
      stats: {
        points: p,
        rebounds: r,
        assists: a,
        threes: rec.number(c.tpm),
        pra: p !== null && r !== null && a !== null ? p + r + a : null,
        blocks: rec.number(c.blk),
        steals: rec.number(c.stl),
      },
      // Same extras keys as the NBA import (the projection reads fga/fta/tov by these names).
      extras: {
        fgm: rec.number(c.fgm),
        fga: rec.number(c.fga),
        ftm: rec.number(c.ftm),
        fta: rec.number(c.fta),
        threes_attempted: rec.number(c.tpa),
        oreb: rec.number(c.oreb),
        dreb: rec.number(c.dreb),
        tov: rec.number(c.to),
        pf: rec.number(c.pf),
        plus_minus: rec.number(c.pm),
        nba_player_id: null,
      },
      source: WNBA_BOX_SOURCE,
    };
  };
}

/** Streams the box-score file as player-game lines (the import writes each as it is read); returns the warnings. */
export function streamWnbaBoxScoresFile(path: string, quoted: boolean, games: ReadonlyMap<string, WnbaGame>, onRow: (row: PlayerGameStat, json: RowJson) => void): string[] {
  const warnings: string[] = [];
  let convert: ReturnType<typeof recordConverter> | null = null;
  const ok = streamCsvFile(
    path,
    quoted,
    (header) => {
      if (!isWnbaBoxScoreHeader(header)) {
        warnings.push(`wnba box scores: unknown header, missing ${hasColumns(header, WNBA_BOX_COLUMNS).join(', ') || 'nothing (but has a date column)'}`);
        return false;
      }
      convert = recordConverter(header, games);
      return true;
    },
    (rec, i) => {
      const out = (convert as ReturnType<typeof recordConverter>)(rec, i);
      if (typeof out === 'string') warnings.push(out);
      else onRow(out, rowJson(out));
    },
  );
  if (!ok) warnings.push('wnba box scores: not a readable CSV');
  return warnings;
}

/** Every row of a box-score file with its games file, in memory (the back-test and the season builder's tests). */
export function loadWnbaBoxScores(boxFile: string, gamesFile: string): { rows: PlayerGameStat[]; warnings: string[] } {
  const { games, warnings } = loadWnbaGamesCsv(readFileSync(gamesFile, 'utf8'));
  const rows: PlayerGameStat[] = [];
  const text = readFileSync(boxFile, 'utf8');
  warnings.push(...streamWnbaBoxScoresFile(boxFile, text.includes('"'), games, (row) => rows.push(row)));
  return { rows, warnings };
}
