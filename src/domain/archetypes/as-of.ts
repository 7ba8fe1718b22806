import type { PlayerGameStat } from '../entities.js';
import type { GradedSport } from '../sports.js';
import { classify, MIN_BASKETBALL_MINUTES, MIN_GAMES, MIN_SOCCER_MINUTES } from './classify.js';
import { profileFromGameStats } from './profiles.js';
import type { Classification } from './schema.js';

/** Lines an archetype reads: the newest this-many real games (the snapshot run's history window). */
export const ARCHETYPE_LINES = 120;

/** thin_data: too few real games or minutes to read a role; no_fit: enough games, but no archetype rule matches them. */
export type ArchetypeRead = { classification: Classification; note: null } | { classification: null; note: 'thin_data' | 'no_fit' };

/**
 * A player's archetype for an ET date, one rule for every view (scan, parlay, stats player): his
 * newest ARCHETYPE_LINES real lines strictly before that date. Views that read on the same data
 * clock therefore classify the same games; a game played on the date itself never counts.
 * `lines` newest first, as the store hands them.
 */
export function archetypeBefore(sport: GradedSport, lines: readonly PlayerGameStat[], beforeDate: string): ArchetypeRead {
  const window = lines.filter((l) => l.date < beforeDate).slice(0, ARCHETYPE_LINES);
  const profile = profileFromGameStats(sport, window);
  const classification = profile === null ? null : classify(sport, profile);
  if (classification !== null) return { classification, note: null };
  return { classification: null, note: profile !== null && enoughToRead(sport, profile) ? 'no_fit' : 'thin_data' };
}

/** The same floors classify applies before reading a role (games, and minutes where minutes exist). */
function enoughToRead(sport: GradedSport, profile: { games: number; minutes?: number }): boolean {
  if (profile.games < MIN_GAMES) return false;
  // Minutes not in the data cannot show a role: not enough to read, rather than read as 0.
  if (sport === 'nba' || sport === 'wnba') return profile.minutes !== undefined && profile.minutes >= MIN_BASKETBALL_MINUTES;
  if (sport === 'soccer') return profile.minutes !== undefined && profile.minutes >= MIN_SOCCER_MINUTES;
  return true;
}
