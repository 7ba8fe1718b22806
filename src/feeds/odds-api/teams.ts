import type { Sport } from '../../domain/sports.js';
import { teamAbbr as sharedTeamAbbr } from '../teams/lookup.js';

/**
 * The Odds API full team names -> the abbreviations propgrade uses everywhere (ESPN's codes:
 * GS, NO, NY, SA, UTAH, WSH in the NBA; CHW, WSH, ATH in MLB), from the one shared team table.
 */
export function teamAbbr(sport: Sport, fullName: string | null | undefined): string | null {
  if (!fullName) return null;
  return sharedTeamAbbr(sport, fullName);
}
