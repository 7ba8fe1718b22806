/**
 * The EPL player match stats fixture (test/fixtures/soccer-epl-player-match-stats.csv, its
 * PROVENANCE.md): raw lines, a field reader, and each line as the store's soccer line.
 */
import { readFileSync } from 'node:fs';
import type { PlayerGameStat } from '../../../src/domain/entities.js';
import { easternDate } from '../../../src/domain/time.js';

export const FIXTURE = 'test/fixtures/soccer-epl-player-match-stats.csv';
export const SHARED = '../shared/history/epl_player_match_stats_2024-25_2025-26.csv.gz';
const [head, ...rest] = readFileSync(FIXTURE, 'utf8').trim().split('\n') as [string, ...string[]];
export const header = head;
export const lines: readonly string[] = rest;
const col = Object.fromEntries(header.split(',').map((h, i) => [h, i])) as Record<string, number>;

/** One raw field of a fixture line (the file quotes no field). */
export const field = (line: string, name: string): string => line.split(',')[col[name] as number] as string;
/** The ET date of a line's kickoff, as the store dates a soccer line. */
export const dateOf = (line: string): string => easternDate(new Date(field(line, 'kickoff_utc')));
/** Every raw line of one player, file order (oldest first). */
export const linesOf = (name: string): string[] => lines.filter((l) => field(l, 'player_name') === name);

/** The CSV's columns as the store's line (the EPL import's stat names), start_min and finish_min kept as extras. */
export function toLine(line: string): PlayerGameStat {
  const n = (name: string) => Number(field(line, name));
  return {
    sport: 'soccer',
    playerKey: field(line, 'player_name').toLowerCase(),
    playerName: field(line, 'player_name'),
    team: field(line, 'team') || null,
    opponent: null,
    date: dateOf(line),
    gameId: field(line, 'match_id'),
    minutes: n('minutes_played'),
    stats: { goals: n('goals'), assists: n('assists'), shots: n('total_shots'), shots_on_target: n('shots_on_target'), tackles: n('tackles') },
    extras: { start_min: n('start_min'), finish_min: n('finish_min') },
    source: 'epl-player-match-stats',
  };
}

export const historyOf = (name: string): PlayerGameStat[] => linesOf(name).map(toLine);
