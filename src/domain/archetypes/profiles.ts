import { z } from 'zod';
import type { PlayerGameStat } from '../entities.js';
import type { GradedSport } from '../sports.js';
import type { MlbRole } from './schema.js';

/** A game counts as played only on a real positive value; an absent one is not played, not 0. */
function positive(v: number | null | undefined): boolean {
  return typeof v === 'number' && v > 0;
}

/**
 * Per-game stat profiles that archetype rules read. Every count is a per-game average over the
 * games the player actually played; an input the source did not supply for every one of those
 * games is null (never 0), and rules that need it simply do not fire.
 */

const perGame = z.number().min(0);
const games = z.number().int().min(0);

/** NBA and WNBA. */
export const nbaProfileSchema = z.object({
  games,
  minutes: perGame,
  points: perGame,
  rebounds: perGame,
  assists: perGame,
  threes: perGame,
  threes_attempted: perGame.nullable(),
  fga: perGame.nullable(),
  fta: perGame.nullable(),
  blocks: perGame,
  steals: perGame,
  turnovers: perGame.nullable(),
});
export type NbaProfile = z.infer<typeof nbaProfileSchema>;
export const wnbaProfileSchema = nbaProfileSchema;
export type WnbaProfile = NbaProfile;

export const mlbBatterProfileSchema = z.object({
  role: z.literal('batter'),
  games,
  pa: perGame,
  hr: perGame,
  so: perGame.nullable(),
  bb: perGame.nullable(),
  hits: perGame,
  total_bases: perGame.nullable(),
});
export type MlbBatterProfile = z.infer<typeof mlbBatterProfileSchema>;

export const mlbPitcherProfileSchema = z.object({
  role: z.literal('pitcher'),
  games,
  /** Innings per game (outs / 3). */
  innings: perGame,
  batters_faced: perGame.nullable(),
  strikeouts: perGame,
  walks: perGame.nullable(),
  /** Strikeouts / batters faced over all games, 0..1. */
  k_pct: z.number().min(0).max(1).nullable(),
  /** Whiffs / swings over all games, 0..1, when pitch-level counts are known. */
  whiff_pct: z.number().min(0).max(1).nullable(),
});
export type MlbPitcherProfile = z.infer<typeof mlbPitcherProfileSchema>;

export const mlbProfileSchema = z.discriminatedUnion('role', [mlbBatterProfileSchema, mlbPitcherProfileSchema]);
export type MlbProfile = z.infer<typeof mlbProfileSchema>;

export const soccerProfileSchema = z.object({
  games,
  minutes: perGame,
  shots: perGame,
  shots_on_target: perGame,
  goals: perGame.nullable(),
  /** Null when a source gives no tackles (ESPN rosters); a rule that needs them does not fire. */
  tackles: perGame.nullable().default(null),
});
export type SoccerProfile = z.infer<typeof soccerProfileSchema>;

/**
 * Keys read from `PlayerGameStat.extras` (adapters write these). Where two adapters spell a
 * field differently, every spelling is listed and the first present wins.
 */
export const GAME_STAT_EXTRAS = {
  fga: ['fga'],
  fta: ['fta'],
  threes_attempted: ['threes_attempted'],
  turnovers: ['turnovers', 'tov'],
  /** MLB batter: plate appearances, walks, strikeouts (stats.strikeouts is the pitcher market). */
  pa: ['pa', 'plate_appearances'],
  batter_bb: ['bb', 'walks'],
  batter_so: ['so', 'batter_strikeouts'],
  /** MLB pitcher. */
  outs: ['outs', 'outs_recorded'],
  batters_faced: ['batters_faced'],
  walks_allowed: ['walks_allowed'],
  swings: ['swings'],
  whiffs: ['whiffs'],
  goals: ['goals'],
} as const satisfies Record<string, readonly string[]>;

type ExtraName = keyof typeof GAME_STAT_EXTRAS;

function extra(row: PlayerGameStat, name: ExtraName): number | null {
  for (const k of GAME_STAT_EXTRAS[name]) {
    const v = row.extras[k];
    if (typeof v === 'number' && Number.isFinite(v)) return v;
  }
  return null;
}

/** Mean over all rows, or null when any row lacks the value (a partial mean would mislead). */
function meanOf(rows: readonly PlayerGameStat[], pick: (r: PlayerGameStat) => number | null | undefined): number | null {
  if (rows.length === 0) return null;
  let sum = 0;
  for (const r of rows) {
    const v = pick(r);
    if (typeof v !== 'number' || !Number.isFinite(v)) return null;
    sum += v;
  }
  return sum / rows.length;
}

function sumOf(rows: readonly PlayerGameStat[], pick: (r: PlayerGameStat) => number | null | undefined): number | null {
  const m = meanOf(rows, pick);
  return m === null ? null : m * rows.length;
}

function ratio(num: number | null, den: number | null): number | null {
  if (num === null || den === null || den <= 0) return null;
  return Math.min(1, num / den);
}

function basketballProfile(rows: readonly PlayerGameStat[]): NbaProfile | null {
  // A played game is one with minutes on the floor and the core counts present.
  const played = rows.filter(
    (r) =>
      positive(r.minutes) &&
      [r.stats.points, r.stats.rebounds, r.stats.assists, r.stats.threes, r.stats.blocks, r.stats.steals].every(
        (v) => typeof v === 'number',
      ),
  );
  const minutes = meanOf(played, (r) => r.minutes);
  const points = meanOf(played, (r) => r.stats.points);
  const rebounds = meanOf(played, (r) => r.stats.rebounds);
  const assists = meanOf(played, (r) => r.stats.assists);
  const threes = meanOf(played, (r) => r.stats.threes);
  const blocks = meanOf(played, (r) => r.stats.blocks);
  const steals = meanOf(played, (r) => r.stats.steals);
  if (minutes === null || points === null || rebounds === null || assists === null || threes === null || blocks === null || steals === null) {
    return null;
  }
  return {
    games: played.length,
    minutes,
    points,
    rebounds,
    assists,
    threes,
    threes_attempted: meanOf(played, (r) => extra(r, 'threes_attempted')),
    fga: meanOf(played, (r) => extra(r, 'fga')),
    fta: meanOf(played, (r) => extra(r, 'fta')),
    blocks,
    steals,
    turnovers: meanOf(played, (r) => extra(r, 'turnovers')),
  };
}

function batterProfile(rows: readonly PlayerGameStat[]): MlbBatterProfile | null {
  const played = rows.filter((r) => positive(extra(r, 'pa')) && typeof r.stats.hits === 'number' && typeof r.stats.home_runs === 'number');
  const pa = meanOf(played, (r) => extra(r, 'pa'));
  const hits = meanOf(played, (r) => r.stats.hits);
  const hr = meanOf(played, (r) => r.stats.home_runs);
  if (pa === null || hits === null || hr === null) return null;
  return {
    role: 'batter',
    games: played.length,
    pa,
    hr,
    so: meanOf(played, (r) => extra(r, 'batter_so')),
    bb: meanOf(played, (r) => extra(r, 'batter_bb')),
    hits,
    total_bases: meanOf(played, (r) => r.stats.total_bases),
  };
}

function pitcherProfile(rows: readonly PlayerGameStat[]): MlbPitcherProfile | null {
  const played = rows.filter((r) => positive(extra(r, 'outs')) && typeof r.stats.strikeouts === 'number');
  const outs = meanOf(played, (r) => extra(r, 'outs'));
  const strikeouts = meanOf(played, (r) => r.stats.strikeouts);
  if (outs === null || strikeouts === null) return null;
  const bfTotal = sumOf(played, (r) => extra(r, 'batters_faced'));
  return {
    role: 'pitcher',
    games: played.length,
    innings: outs / 3,
    batters_faced: meanOf(played, (r) => extra(r, 'batters_faced')),
    strikeouts,
    walks: meanOf(played, (r) => extra(r, 'walks_allowed')),
    k_pct: ratio(sumOf(played, (r) => r.stats.strikeouts), bfTotal),
    whiff_pct: ratio(sumOf(played, (r) => extra(r, 'whiffs')), sumOf(played, (r) => extra(r, 'swings'))),
  };
}

function soccerProfile(rows: readonly PlayerGameStat[]): SoccerProfile | null {
  // Minutes are required: per-90 rates without them would be invented.
  const played = rows.filter((r) => positive(r.minutes) && typeof r.stats.shots === 'number' && typeof r.stats.shots_on_target === 'number');
  const minutes = meanOf(played, (r) => r.minutes);
  const shots = meanOf(played, (r) => r.stats.shots);
  const sot = meanOf(played, (r) => r.stats.shots_on_target);
  if (minutes === null || shots === null || sot === null) return null;
  // Goals are a stat in the EPL match stats and an extra on ESPN roster lines.
  const goals = meanOf(played, (r) => (typeof r.stats.goals === 'number' ? r.stats.goals : extra(r, 'goals')));
  return { games: played.length, minutes, shots, shots_on_target: sot, goals, tackles: meanOf(played, (r) => r.stats.tackles) };
}

function mlbRoleOf(rows: readonly PlayerGameStat[]): MlbRole | null {
  const pitched = rows.filter((r) => positive(extra(r, 'outs'))).length;
  const batted = rows.filter((r) => positive(extra(r, 'pa'))).length;
  if (pitched === batted) return null; // none, or a true two-way sample: ask for the role
  return pitched > batted ? 'pitcher' : 'batter';
}

export interface ProfileOptions {
  /** MLB: which profile to build; inferred from the rows (pitching vs batting lines) when absent. */
  mlbRole?: MlbRole;
}

export function profileFromGameStats(sport: 'nba' | 'wnba', rows: readonly PlayerGameStat[]): NbaProfile | null;
export function profileFromGameStats(sport: 'mlb', rows: readonly PlayerGameStat[], options?: ProfileOptions): MlbProfile | null;
export function profileFromGameStats(sport: 'soccer', rows: readonly PlayerGameStat[]): SoccerProfile | null;
export function profileFromGameStats(
  sport: GradedSport,
  rows: readonly PlayerGameStat[],
  options?: ProfileOptions,
): NbaProfile | MlbProfile | SoccerProfile | null;
/**
 * Pure aggregator from real per-game lines to a profile. Rows of another sport are ignored.
 * Null when no played game has the inputs the profile needs.
 */
export function profileFromGameStats(
  sport: GradedSport,
  rows: readonly PlayerGameStat[],
  options: ProfileOptions = {},
): NbaProfile | MlbProfile | SoccerProfile | null {
  const own = rows.filter((r) => r.sport === sport);
  switch (sport) {
    case 'nba':
    case 'wnba':
      return basketballProfile(own);
    case 'soccer':
      return soccerProfile(own);
    case 'mlb': {
      const role = options.mlbRole ?? mlbRoleOf(own);
      if (role === null) return null;
      return role === 'pitcher' ? pitcherProfile(own) : batterProfile(own);
    }
  }
}
