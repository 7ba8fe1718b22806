import type { Sport } from '../../domain/sports.js';
import { NBA_TEAMS, WNBA_TEAMS, type BasketballTeam } from './basketball.js';
import { MLB_TEAMS, type MlbTeam } from './mlb.js';

/** Case/punctuation-insensitive comparison key ("St. Louis Cardinals" = "st louis cardinals"). */
const fold = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

type AnyTeam = MlbTeam | BasketballTeam;

function tableFor(sport: Sport): readonly AnyTeam[] | null {
  if (sport === 'mlb') return MLB_TEAMS;
  if (sport === 'nba') return NBA_TEAMS;
  if (sport === 'wnba') return WNBA_TEAMS;
  return null;
}

function spellings(team: AnyTeam): string[] {
  const codes = 'savant' in team ? [team.espn, team.savant] : [team.espn, team.nbaCom];
  return [...codes, team.name, ...team.aliases];
}

const INDEX = new Map<Sport, Map<string, AnyTeam>>();

function indexFor(sport: Sport): Map<string, AnyTeam> | null {
  const cached = INDEX.get(sport);
  if (cached) return cached;
  const table = tableFor(sport);
  if (!table) return null;
  const index = new Map<string, AnyTeam>();
  for (const team of table) for (const s of spellings(team)) index.set(fold(s), team);
  INDEX.set(sport, index);
  return index;
}

/**
 * The ESPN abbreviation (propgrade's canonical team code) for any known spelling: ESPN, Savant
 * or NBA.com code, full name, or an alias. Null for an unknown team or a sport without a table
 * (soccer clubs and MMA are not tabled).
 */
export function teamAbbr(sport: Sport, nameOrCode: string): string | null {
  return indexFor(sport)?.get(fold(nameOrCode))?.espn ?? null;
}

/** ESPN team id (string, as ESPN payloads carry it; news categories carry ints) to abbreviation. */
export function teamAbbrByEspnId(sport: Sport, id: string | number): string | null {
  const table = tableFor(sport);
  const wanted = String(id);
  return table?.find((t) => t.espnId === wanted)?.espn ?? null;
}

export function mlbTeamByStatsapiId(id: number): MlbTeam | null {
  return MLB_TEAMS.find((t) => t.statsapiId === id) ?? null;
}

/** Savant `team_name_alt` (AZ, CWS...) to the ESPN abbreviation (ARI, CHW...). */
export function savantToEspn(code: string): string | null {
  const wanted = code.trim().toUpperCase();
  return MLB_TEAMS.find((t) => t.savant === wanted)?.espn ?? null;
}

export function espnToSavant(abbr: string): string | null {
  const wanted = abbr.trim().toUpperCase();
  return MLB_TEAMS.find((t) => t.espn === wanted)?.savant ?? null;
}

/** NBA.com / stats.nba.com tricode (GSW, NYK, UTA...) to the ESPN abbreviation (GS, NY, UTAH...). */
export function nbaComToEspn(sport: 'nba' | 'wnba', tricode: string): string | null {
  const wanted = tricode.trim().toUpperCase();
  const table = sport === 'nba' ? NBA_TEAMS : WNBA_TEAMS;
  return table.find((t) => t.nbaCom === wanted)?.espn ?? null;
}

export function espnToNbaCom(sport: 'nba' | 'wnba', abbr: string): string | null {
  const wanted = abbr.trim().toUpperCase();
  const table = sport === 'nba' ? NBA_TEAMS : WNBA_TEAMS;
  return table.find((t) => t.espn === wanted)?.nbaCom ?? null;
}

/** The graded leagues' teams whose canonical code is `code` (NY: the Knicks and the Liberty). */
export function teamsWithCode(code: string): { sport: 'nba' | 'wnba' | 'mlb'; name: string }[] {
  const wanted = code.trim().toUpperCase();
  const out: { sport: 'nba' | 'wnba' | 'mlb'; name: string }[] = [];
  for (const sport of ['nba', 'wnba', 'mlb'] as const) {
    const team = tableFor(sport)?.find((t) => t.espn.toUpperCase() === wanted);
    if (team) out.push({ sport, name: team.name });
  }
  return out;
}

/**
 * Why a team filter needs a sport: null when the code names at most one graded league's team
 * (or a sport is given), else a sentence naming every team it could mean.
 */
export function sharedTeamCode(code: string, sport: string | null | undefined, hint: (sport: string) => string = (s) => `--sport ${s}`): string | null {
  if (sport) return null;
  const teams = teamsWithCode(code);
  if (teams.length < 2) return null;
  const names = teams.map((t) => `the ${t.name} (${t.sport})`);
  const listed = names.length === 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
  return `team ${code.trim().toUpperCase()} is ${listed}: add ${teams.map((t) => hint(t.sport)).join(' or ')}`;
}
