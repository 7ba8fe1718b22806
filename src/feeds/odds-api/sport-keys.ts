import type { GradedSport, Sport } from '../../domain/sports.js';

/**
 * The Odds API sport keys propgrade asks for. Every key here appears in a real /v4/sports list
 * (shared/feeds/odds-api/sports-list-2025-05.json or sports-list-2026-03-03.json).
 */
export const SPORT_KEYS = {
  nba: 'basketball_nba',
  wnba: 'basketball_wnba',
  mlb: 'baseball_mlb',
  mma: 'mma_mixed_martial_arts',
} as const;

/** Soccer is one sport over many league keys; this is the default list a run covers. */
export const DEFAULT_SOCCER_LEAGUES: readonly string[] = [
  'soccer_epl',
  'soccer_germany_bundesliga',
  'soccer_spain_la_liga',
  'soccer_italy_serie_a',
  'soccer_france_ligue_one',
  'soccer_usa_mls',
  'soccer_uefa_champs_league',
  'soccer_fifa_world_cup',
];

/**
 * Futures (outrights) keys. WNBA is null on purpose: `basketball_wnba_championship_winner` is in
 * neither real sports list (NOTES.md §2.2), so asking for it would spend a call on a guess.
 */
export const FUTURES_KEYS: Readonly<Record<'nba' | 'wnba' | 'mlb', string | null>> = {
  nba: 'basketball_nba_championship_winner',
  mlb: 'baseball_mlb_world_series_winner',
  wnba: null,
};

/** Graded sports with at least one Odds API request among `urls` (what a replay folder recorded). */
export function gradedSportsIn(urls: Iterable<string>, sports: readonly GradedSport[]): Set<GradedSport> {
  const list = [...urls];
  return new Set(sports.filter((sport) => sportKeysFor(sport).some((key) => list.some((u) => u.includes(`/sports/${key}/`)))));
}

/** Every sport key a run fetches for a sport. */
export function sportKeysFor(sport: Sport, soccerLeagues: readonly string[] = DEFAULT_SOCCER_LEAGUES): string[] {
  return sport === 'soccer' ? [...soccerLeagues] : [SPORT_KEYS[sport]];
}

/** The propgrade sport behind an Odds API key; null for keys propgrade does not serve (and for futures keys). */
export function sportForKey(key: string): Sport | null {
  if (key.endsWith('_winner')) return null;
  switch (key) {
    case SPORT_KEYS.nba:
      return 'nba';
    case SPORT_KEYS.wnba:
      return 'wnba';
    case SPORT_KEYS.mlb:
      return 'mlb';
    case SPORT_KEYS.mma:
      return 'mma';
    default:
      return key.startsWith('soccer_') ? 'soccer' : null;
  }
}

export function gradedSportForKey(key: string): GradedSport | null {
  const sport = sportForKey(key);
  return sport === null || sport === 'mma' ? null : sport;
}
