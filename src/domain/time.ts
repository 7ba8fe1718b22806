/**
 * US Eastern calendar helpers. Game dates, slates and record windows are Eastern-time days; the
 * store keeps instants in UTC. Pure: every function takes its instant, none reads the clock.
 * DST comes from the platform's tz database through Intl, never from a hard-coded offset.
 */

const EASTERN = 'America/New_York';
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

const wallClock = new Intl.DateTimeFormat('en-US', {
  timeZone: EASTERN,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

interface WallParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function toInstant(d: Date): number {
  const t = d.getTime();
  if (!Number.isFinite(t)) throw new RangeError('invalid Date');
  return t;
}

function easternWall(t: number): WallParts {
  const parts: Record<string, number> = {};
  for (const p of wallClock.formatToParts(t)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year ?? Number.NaN,
    month: parts.month ?? Number.NaN,
    day: parts.day ?? Number.NaN,
    hour: parts.hour ?? Number.NaN,
    minute: parts.minute ?? Number.NaN,
    second: parts.second ?? Number.NaN,
  };
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Splits and checks a yyyy-mm-dd calendar date (rejecting 2025-02-30 and the like). */
function parseDate(date: string): { year: number; month: number; day: number } {
  const m = DATE_RE.exec(date);
  if (!m) throw new RangeError(`not a yyyy-mm-dd date: ${date}`);
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) {
    throw new RangeError(`not a calendar date: ${date}`);
  }
  return { year, month, day };
}

export function isIsoDate(value: string): boolean {
  try {
    parseDate(value);
    return true;
  } catch {
    return false;
  }
}

/** The US Eastern calendar date of an instant, yyyy-mm-dd (a 03:10Z tip is the previous ET day). */
export function easternDate(d: Date): string {
  const w = easternWall(toInstant(d));
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/** Calendar arithmetic on a yyyy-mm-dd date; no time zone is involved. */
export function addDays(date: string, n: number): string {
  if (!Number.isInteger(n)) throw new RangeError(`addDays needs a whole number of days: ${n}`);
  const { year, month, day } = parseDate(date);
  const shifted = new Date(Date.UTC(year, month - 1, day) + n * DAY_MS);
  return `${pad(shifted.getUTCFullYear(), 4)}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
}

/** UTC instant of Eastern midnight opening `date`. US DST switches at 02:00, so midnight always exists once. */
function easternMidnightUtc(date: string): number {
  const { year, month, day } = parseDate(date);
  const wallAsUtc = Date.UTC(year, month - 1, day);
  // Offset = wall clock read as if UTC, minus the instant. Two passes settle it on either side of a switch.
  let guess = wallAsUtc + 5 * 3_600_000;
  for (let i = 0; i < 2; i++) {
    const w = easternWall(guess);
    const offset = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - guess;
    guess = wallAsUtc - offset;
  }
  return guess;
}

/**
 * The UTC half-open range [start, end) covering the Eastern day `date`: 24 hours normally,
 * 23 on the spring-forward day, 25 on the fall-back day.
 */
export function easternDayRangeUtc(date: string): [startIso: string, endIso: string] {
  const start = easternMidnightUtc(date);
  const end = easternMidnightUtc(addDays(date, 1));
  return [new Date(start).toISOString(), new Date(end).toISOString()];
}

export function isSameEasternDay(a: Date, b: Date): boolean {
  return easternDate(a) === easternDate(b);
}

/** The zone tables show times in unless PROPGRADE_TZ says otherwise. */
export const DEFAULT_DISPLAY_ZONE = 'America/New_York';

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * "Wed, Nov 5, 7:00 PM EST" for an instant, in `zone`; "Sat, Nov 13, 2021, 12:00 PM EST" when the
 * instant's year is not the year of `reference` (the data clock): a date from another year names it.
 */
export function localDateTime(iso: string, zone: string = DEFAULT_DISPLAY_ZONE, reference: Date | null = null): string {
  const d = new Date(iso);
  if (!Number.isFinite(d.getTime())) return iso;
  const yearOf = (x: Date) => new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric' }).format(x);
  const otherYear = reference !== null && Number.isFinite(reference.getTime()) && yearOf(d) !== yearOf(reference);
  return new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    ...(otherYear ? { year: 'numeric' as const } : {}),
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(d);
}

/** "10:05 AM" for an instant, in `zone`: when a claim was made, beside its price. */
export function localClock(iso: string, zone: string = DEFAULT_DISPLAY_ZONE): string {
  const d = new Date(iso);
  if (!Number.isFinite(d.getTime())) return iso;
  return new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit' }).format(d);
}

/** A Date inside the ET day `date`, so record windows computed from it end on `date`. */
export function instantOf(date: string): Date {
  return new Date(easternDayRangeUtc(date)[0]);
}
