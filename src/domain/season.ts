import type { GradedSport } from './sports.js';

/**
 * First day of the season containing `date` (ET calendar date, YYYY-MM-DD). NBA seasons straddle
 * New Year (Oct-Jun); so do the European soccer leagues (mid Aug-May), and both count from
 * August 1: no covered league opens before it, and a July cut would split the summer
 * tournaments (World Cup 2026: Jun 11 - Jul 19) in two. MLB and WNBA play within a calendar year.
 * One rule for the scan's intel and the team hub, so both read the same season.
 */
export function seasonStart(sport: GradedSport, date: string): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  switch (sport) {
    case 'nba':
    case 'soccer':
      return `${month >= 8 ? year : year - 1}-08-01`;
    case 'mlb':
    case 'wnba':
      return `${year}-01-01`;
  }
}
