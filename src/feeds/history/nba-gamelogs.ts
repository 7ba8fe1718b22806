import { z } from 'zod';
import { playerGameStatSchema, type PlayerGameStat } from '../../domain/entities.js';
import { nbaComToEspn } from '../teams/lookup.js';
import { normalizeName } from '../../domain/names.js';
import { hasColumns, numberCell, readCsv, type LoadReport } from './csv.js';

/**
 * NBA.com PlayerGameLog rows (shared/history `nba_player_game_logs_*.csv`: one row per player-game,
 * `date` already the US game date) into PlayerGameStat. A 0-minute row is kept as 0 minutes: it is
 * a real DNP, which settles a prop as void and never counts as a played game for a projection.
 */

export const NBA_GAMELOG_SOURCE = 'nba_api PlayerGameLog';

const REQUIRED = ['player', 'player_id', 'date', 'matchup', 'minutes', 'pts', 'reb', 'ast', 'threes_made', 'stl', 'blk'] as const;

const EXTRAS = ['fgm', 'fga', 'ftm', 'fta', 'threes_attempted', 'oreb', 'dreb', 'tov', 'pf', 'plus_minus'] as const;

const rowSchema = z.object({
  player: z.string().min(1),
  player_id: z.string().min(1),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  matchup: z.string(),
});

export function loadNbaGameLogsCsv(text: string): LoadReport<PlayerGameStat> {
  const csv = readCsv(text);
  if (!csv) return { rows: [], warnings: ['nba game logs: not a readable CSV'] };
  const missing = hasColumns(csv.header, REQUIRED);
  if (missing.length > 0) return { rows: [], warnings: [`nba game logs: unknown header, missing ${missing.join(', ')}`] };
  const rows: PlayerGameStat[] = [];
  const warnings: string[] = [];
  csv.records.forEach((rec, i) => {
    const line = i + 2;
    const base = rowSchema.safeParse(rec);
    const minutes = numberCell(rec.minutes);
    if (!base.success || minutes === null) {
      warnings.push(`nba game logs line ${line}: skipped (bad player/date/matchup/minutes)`);
      return;
    }
    const pts = numberCell(rec.pts);
    const reb = numberCell(rec.reb);
    const ast = numberCell(rec.ast);
    const extras: Record<string, number | null> = {};
    for (const k of EXTRAS) extras[k] = numberCell(rec[k]);
    const name = normalizeName(base.data.player);
    rows.push(
      playerGameStatSchema.parse({
        sport: 'nba',
        playerKey: name.key,
        playerName: base.data.player,
        // Store-wide team codes are ESPN's (as the odds and results adapters use); the CSV has NBA.com tricodes.
        team: espnTeam(teamOf(base.data.matchup)),
        opponent: espnTeam(rec.opponent?.trim() || null),
        date: base.data.date,
        gameId: null,
        minutes,
        stats: {
          points: pts,
          rebounds: reb,
          assists: ast,
          threes: numberCell(rec.threes_made),
          pra: pts !== null && reb !== null && ast !== null ? pts + reb + ast : null,
          blocks: numberCell(rec.blk),
          steals: numberCell(rec.stl),
        },
        extras: { ...extras, nba_player_id: numberCell(base.data.player_id) },
        source: NBA_GAMELOG_SOURCE,
      }),
    );
  });
  return { rows, warnings };
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
