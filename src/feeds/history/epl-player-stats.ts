import type { PlayerGameStat } from '../../domain/entities.js';
import { normalizeName, type NormalizedName } from '../../domain/names.js';
import { easternDate } from '../../domain/time.js';
import { columnIndex, hasColumns, streamCsvFile, type CsvRecord } from './csv.js';

/**
 * `epl_player_match_stats_2024-25_2025-26.csv.gz` rows (../shared/history PROVENANCE.md Source 6,
 * NOTES.md §8; one row per player per EPL match, FotMob stats via FPL-Elo-Insights) into
 * PlayerGameStat: goals, assists, shots, shots on target and tackles with the real minutes. The
 * row keeps `match_id` as its game id (the EPL season replay's ESPN summaries use the same id) and
 * its ET kickoff date, as the settle dates an ESPN game. The team is ESPN's club code, as the
 * store keeps teams; a row with no team (FPL's season-end team was not in the match) is skipped.
 */

export const EPL_STATS_SOURCE = 'fpl-elo-insights playermatchstats (EPL)';

export const EPL_STATS_REQUIRED = ['match_id', 'kickoff_utc', 'player_id', 'player_name', 'team', 'minutes_played', 'goals', 'assists', 'total_shots', 'shots_on_target', 'tackles'] as const;

/** FPL club names (the file's `team`) -> ESPN's eng.1 codes (recorded scoreboards, shared/feeds/espn). */
const ESPN_CODE: Readonly<Record<string, string>> = {
  Arsenal: 'ARS', 'Aston Villa': 'AVL', Bournemouth: 'BOU', Brentford: 'BRE', Brighton: 'BHA', Burnley: 'BUR', Chelsea: 'CHE',
  'Crystal Palace': 'CRY', Everton: 'EVE', Fulham: 'FUL', Ipswich: 'IPS', Leeds: 'LEE', Leicester: 'LEI', Liverpool: 'LIV',
  'Man City': 'MNC', 'Man Utd': 'MAN', Newcastle: 'NEW', "Nott'm Forest": 'NFO', Southampton: 'SOU', Spurs: 'TOT',
  Sunderland: 'SUN', 'West Ham': 'WHU', Wolves: 'WOL',
};

export function isEplStatsHeader(header: readonly string[]): boolean {
  return hasColumns(header, EPL_STATS_REQUIRED).length === 0;
}

function recordConverter(header: readonly string[]): (rec: CsvRecord, index: number) => PlayerGameStat | string {
  const col = (name: string) => columnIndex(header, name);
  const [matchId, kickoff, , playerName, team, minutes, goals, assists, shots, sot, tackles] = EPL_STATS_REQUIRED.map(col) as number[] as [
    number, number, number, number, number, number, number, number, number, number, number,
  ];
  const names = new Map<string, NormalizedName>();
  return (rec, index) => {
    const name = (rec.text(playerName) ?? '').trim();
    const game = (rec.text(matchId) ?? '').trim();
    const ms = Date.parse(rec.text(kickoff) ?? '');
    const club = ESPN_CODE[(rec.text(team) ?? '').trim()] ?? null;
    if (name.length < 1 || game.length < 1 || !Number.isFinite(ms)) return `epl player stats line ${index + 2}: skipped (bad player/match/kickoff)`;
    if (club === null) return `epl player stats line ${index + 2}: skipped (no team in this match)`;
    let n = names.get(name);
    if (n === undefined) names.set(name, (n = normalizeName(name)));
    return {
      sport: 'soccer',
      playerKey: n.key,
      playerName: name,
      team: club,
      opponent: null,
      date: easternDate(new Date(ms)),
      gameId: game,
      minutes: rec.number(minutes),
      stats: { goals: rec.number(goals), assists: rec.number(assists), shots: rec.number(shots), shots_on_target: rec.number(sot), tackles: rec.number(tackles) },
      extras: {},
      source: EPL_STATS_SOURCE,
    };
  };
}

/** Streams the file's rows (one at a time); returns the warnings for skipped rows or an unknown header. */
export function streamEplStatsFile(path: string, quoted: boolean, onRow: (row: PlayerGameStat) => void): string[] {
  const warnings: string[] = [];
  let convert: ReturnType<typeof recordConverter> | null = null;
  const ok = streamCsvFile(
    path,
    quoted,
    (header) => {
      const missing = hasColumns(header, EPL_STATS_REQUIRED);
      if (missing.length > 0) {
        warnings.push(`epl player stats: unknown header, missing ${missing.join(', ')}`);
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
  if (!ok) warnings.push('epl player stats: not a readable CSV');
  return warnings;
}
