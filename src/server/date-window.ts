import { addDays, easternDate } from '../domain/time.js';
import { AppError } from '../errors.js';

/**
 * The dates a provider-capable route accepts, in ET calendar days around the DATA clock's ET date
 * (docs/api.md "Upstream rationing"). Each date is a cache key and a provider call: outside a window
 * that means something for the feature, a date only buys provider attempts, so it is a 400 before
 * any work. The data clock, not the wall clock: a replayed store reads its own days.
 */
export interface DateWindow {
  /** Days before the data clock's ET date still accepted. */
  back: number;
  /** Days after it still accepted. */
  ahead: number;
}

export const DATE_WINDOWS = {
  /** Live tracking: today's games; a week back shows how recent games finished, tomorrow may start before midnight UTC. */
  live: { back: 7, ahead: 1 },
  /** Lineups: posted a day or so ahead; a past date (who batted where) costs a schedule call plus one live feed per game, so a month. */
  lineup: { back: 30, ahead: 7 },
  /** Fight cards: promotions book cards about two months out; a season of past cards is history worth reading. */
  combat: { back: 366, ahead: 60 },
} as const satisfies Record<string, DateWindow>;

/** Savant's Statcast seasons start in 2015; a season after the data clock's year has no data yet. */
export const FIRST_ARSENAL_SEASON = 2015;

/** `date` within `window` of the data clock's ET date, else BAD_INPUT naming the field and the bounds. */
export function requireDateInWindow(field: string, date: string, dataNow: Date, window: DateWindow): void {
  const today = easternDate(dataNow);
  const from = addDays(today, -window.back);
  const to = addDays(today, window.ahead);
  if (date < from || date > to) {
    throw new AppError('BAD_INPUT', `${field} must be between ${from} and ${to} (the window around the server's data date ${today}), got ${date}`);
  }
}

/** An arsenal season from FIRST_ARSENAL_SEASON through the data clock's year, else BAD_INPUT. */
export function requireSeasonInWindow(field: string, season: number, dataNow: Date): void {
  const last = Number(easternDate(dataNow).slice(0, 4));
  if (season < FIRST_ARSENAL_SEASON || season > last) {
    throw new AppError('BAD_INPUT', `${field} must be between ${FIRST_ARSENAL_SEASON} and ${last} (the server's data year), got ${season}`);
  }
}

/** The window in words, for route descriptions. */
export function windowText(field: string, window: DateWindow): string {
  const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
  return `${field} must lie within ${days(window.back)} before to ${days(window.ahead)} after the server's data date (ET), else 400.`;
}
