import type { GameStatus } from '../../domain/entities.js';
import type { Sport } from '../../domain/sports.js';
import { easternDate } from '../../domain/time.js';


export const ESPN_SITE_BASE = 'https://site.api.espn.com/apis/site/v2/sports';
export const ESPN_WEB_BASE = 'https://site.web.api.espn.com/apis/common/v3/sports';

/** Which ESPN league path a request is for: `basketball/nba`, `soccer/eng.1`, `mma/ufc`... */
export interface EspnLeague {
  sport: Sport;
  /** `{sport}/{league}` segment of the site API path. */
  path: string;
  /** League slug (nba, wnba, mlb, eng.1, ufc, pfl). */
  league: string;
}

const DEFAULT_LEAGUE: Record<Sport, string> = { nba: 'nba', wnba: 'wnba', mlb: 'mlb', soccer: 'eng.1', mma: 'ufc' };
const SPORT_SEGMENT: Record<Sport, string> = { nba: 'basketball', wnba: 'basketball', mlb: 'baseball', soccer: 'soccer', mma: 'mma' };

/** The ESPN league for a sport; soccer takes a competition slug (eng.1, esp.1, fifa.world...), mma ufc|pfl. */
export function espnLeague(sport: Sport, league?: string): EspnLeague {
  const slug = sport === 'soccer' || sport === 'mma' ? (league ?? DEFAULT_LEAGUE[sport]) : DEFAULT_LEAGUE[sport];
  return { sport, league: slug, path: `${SPORT_SEGMENT[sport]}/${slug}` };
}

/** ESPN numbers arrive as strings ("32", "+6", "3.78"); absent, empty or non-numeric text is null. */
export function num(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** "6-9" (made-attempted) into its two numbers; either side null when not numeric. */
export function madeAttempted(value: unknown): [number | null, number | null] {
  if (typeof value !== 'string') return [null, null];
  const m = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(value);
  return m ? [Number(m[1]), Number(m[2])] : [null, null];
}

/** ESPN dates ("2025-06-05T23:05Z", "...+00:00") as ISO-8601 UTC with seconds; null when unparseable. */
export function toUtcIso(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The US-Eastern calendar date (yyyy-mm-dd) of an ISO instant: the slate date of a US game. */
export function easternDateOf(isoUtc: string): string | null {
  const ms = Date.parse(isoUtc);
  return Number.isNaN(ms) ? null : easternDate(new Date(ms));
}

interface StatusType {
  name?: string | undefined;
  state?: string | undefined;
  completed?: boolean | undefined;
}

const IN_PLAY_NAMES = new Set(['STATUS_IN_PROGRESS', 'STATUS_HALFTIME', 'STATUS_END_PERIOD', 'STATUS_RAIN_DELAY', 'STATUS_FIRST_HALF', 'STATUS_SECOND_HALF', 'STATUS_OVERTIME', 'STATUS_END_OF_REGULATION']);

/**
 * ESPN `status.type` to a GameStatus. Explicit names first (postponed/suspended/canceled are
 * `post` but not completed), then `completed`, then `state`. Final needs completed === true, so a
 * game is never settled from a name alone.
 */
export function espnGameStatus(type: StatusType | undefined): GameStatus {
  if (!type) return 'unknown';
  const name = (type.name ?? '').toUpperCase();
  if (name === 'STATUS_POSTPONED') return 'postponed';
  if (name === 'STATUS_SUSPENDED') return 'suspended';
  if (name === 'STATUS_CANCELED' || name === 'STATUS_CANCELLED' || name === 'STATUS_ABANDONED') return 'canceled';
  if (type.completed === true) return 'final';
  if (name === 'STATUS_SCHEDULED') return 'scheduled';
  if (IN_PLAY_NAMES.has(name)) return 'in_progress';
  if (type.state === 'pre') return 'scheduled';
  if (type.state === 'in') return 'in_progress';
  return 'unknown';
}
