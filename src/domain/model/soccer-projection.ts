import type { PlayerGameStat } from '../entities.js';
import type { StatType } from '../stats.js';

/**
 * Soccer's expected minutes (issue 42 part C). A footballer's minutes are two roles, not one
 * spread: a start (about 60-90 minutes) or a substitute's cameo (about 10-30), so a bench player's
 * next appearance is a cameo's minutes and a starter's is a start's. The expected minutes of his
 * next appearance are P(start) x his minutes when he starts + P(sub) x his minutes when he comes
 * on, each recency-weighted over his appearances strictly before the match. A match he did not
 * play (no row, or 0 minutes: an unused substitute) is absence, not 0 minutes of data: the prop is
 * void if he does not play, so the projection is of a match he plays.
 */

/** How the player appeared: started (kicked off), came on, or not in the data. */
export type SoccerRole = 'start' | 'sub' | null;

/**
 * The role of one appearance from the row's own data: a `started` flag (1/0, a lineup's starter),
 * or `start_min` (the minute he came on, as the EPL match stats write it: 0 = started) when the
 * row's `finish_min` agrees with its minutes. The source's 2025-26 rows mostly carry a placeholder
 * 0-90 span whatever the minutes (a 16-minute cameo written as on at 0, off at 90): a span that
 * is not the minutes played (within 2 short for rounding, 10 over for stoppage time) says nothing
 * of the role, which is then null (unknown), never guessed.
 */
export function soccerRoleOf(row: PlayerGameStat): SoccerRole {
  const started = row.extras['started'];
  if (started === 1) return 'start';
  if (started === 0) return 'sub';
  const on = row.extras['start_min'];
  const off = row.extras['finish_min'];
  const minutes = row.minutes;
  if (typeof on !== 'number' || typeof off !== 'number' || typeof minutes !== 'number' || !Number.isFinite(on) || !Number.isFinite(off)) return null;
  const span = off - on;
  if (span < minutes - 2 || span > minutes + 10) return null;
  return on === 0 ? 'start' : 'sub';
}

export interface SoccerMinutes {
  /** Appearances (minutes > 0) in the window. */
  appearances: number;
  starts: number;
  subs: number;
  /** Appearances whose role the data does not say. */
  unknownRole: number;
  /** Recency-weighted share of starts among his appearances of known role; null when no role is known. */
  pStart: number | null;
  /** Recency-weighted mean minutes in his starts; null without a start. */
  startMinutes: number | null;
  /** Recency-weighted mean minutes when he came on; null without a substitute appearance. */
  subMinutes: number | null;
  /**
   * The expected minutes of his next appearance: the role mixture when every appearance has a
   * known role, else the recency-weighted mean over all appearances (the roles cannot be told apart).
   */
  expected: number;
}

/** Exponentially weighted mean of xs (oldest first), half-life in appearances; null when empty. */
function weightedMean(xs: readonly number[], halfLife: number): number | null {
  if (xs.length === 0) return null;
  const decay = Math.pow(0.5, 1 / halfLife);
  let sum = 0;
  let weight = 0;
  for (const x of xs) {
    sum = sum * decay + x;
    weight = weight * decay + 1;
  }
  return sum / weight;
}

/**
 * The expected minutes of a player's next appearance from his appearances on dates in
 * [earliest, beforeDate) with a real value of `stat` (the rows the rate is read from). Null when
 * he has no appearance in the window.
 */
export function soccerExpectedMinutes(
  history: readonly PlayerGameStat[],
  stat: StatType,
  earliest: string,
  beforeDate: string,
  halfLifeAppearances: number,
): SoccerMinutes | null {
  const apps = history
    .filter((r) => r.date >= earliest && r.date < beforeDate && typeof r.stats[stat] === 'number' && typeof r.minutes === 'number' && r.minutes > 0)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  if (apps.length === 0) return null;
  const roles = apps.map(soccerRoleOf);
  const minutesOf = (role: SoccerRole) => apps.filter((_, i) => roles[i] === role).map((r) => r.minutes as number);
  const starts = minutesOf('start');
  const subs = minutesOf('sub');
  const unknownRole = roles.filter((r) => r === null).length;
  const startMinutes = weightedMean(starts, halfLifeAppearances);
  const subMinutes = weightedMean(subs, halfLifeAppearances);
  const known = roles.filter((r): r is 'start' | 'sub' => r !== null);
  const pStart = weightedMean(
    known.map((r) => (r === 'start' ? 1 : 0)),
    halfLifeAppearances,
  );
  const all = weightedMean(
    apps.map((r) => r.minutes as number),
    halfLifeAppearances,
  ) as number;
  let expected = all;
  if (unknownRole === 0 && pStart !== null) {
    expected = (startMinutes === null ? 0 : pStart * startMinutes) + (subMinutes === null ? 0 : (1 - pStart) * subMinutes);
  }
  return { appearances: apps.length, starts: starts.length, subs: subs.length, unknownRole, pStart, startMinutes, subMinutes, expected };
}
