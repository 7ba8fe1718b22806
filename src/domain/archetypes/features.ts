import type { MlbBatterProfile, MlbPitcherProfile, NbaProfile, SoccerProfile } from './profiles.js';

/**
 * Features the archetype rules read, derived from a profile. Rates are per 36 minutes
 * (basketball) or per 90 (soccer) so bench and starter roles compare; a feature whose inputs
 * are missing is null and any rule that needs it does not fire.
 */

export type FeatureMap<F extends string> = Readonly<Record<F, number | null>>;

export const BASKETBALL_FEATURES = [
  'minutes',
  'pts36',
  'reb36',
  'ast36',
  'threes36',
  'threes_att36',
  'blk36',
  'stl36',
  /** (fga + 0.44 fta + tov) per 36: possessions used, the box-score usage proxy. */
  'usage36',
  /** Share of field-goal attempts taken from three. */
  'three_rate',
  /** Free-throw attempts per field-goal attempt. */
  'ft_rate',
] as const;
export type BasketballFeature = (typeof BASKETBALL_FEATURES)[number];

export const MLB_BATTER_FEATURES = [
  'pa_per_game',
  'hr_rate',
  'k_rate',
  'bb_rate',
  /** Hits per (PA - BB): PA minus walks stands in for at-bats (HBP/SF are not in every feed). */
  'hit_rate',
  /** (TB - H) per (PA - BB): isolated power on the same at-bat proxy. */
  'iso',
  /** (HR + BB + SO) per PA. */
  'tto_rate',
  /** (H + BB) per PA: on-base rate without HBP. */
  'on_base_rate',
] as const;
export type MlbBatterFeature = (typeof MLB_BATTER_FEATURES)[number];

export const MLB_PITCHER_FEATURES = ['ip_per_game', 'k_pct', 'bb_pct', 'whiff_pct', 'k_per_game'] as const;
export type MlbPitcherFeature = (typeof MLB_PITCHER_FEATURES)[number];

export const SOCCER_FEATURES = ['minutes', 'shots90', 'sot90', 'sot_share', 'goals90', 'goals_per_shot', 'tackles90'] as const;
export type SoccerFeature = (typeof SOCCER_FEATURES)[number];

function div(num: number | null, den: number | null): number | null {
  if (num === null || den === null || den <= 0) return null;
  return num / den;
}

function per(rate: number, num: number | null, minutes: number): number | null {
  const r = div(num, minutes);
  return r === null ? null : r * rate;
}

export function basketballFeatures(p: NbaProfile): FeatureMap<BasketballFeature> {
  const m = p.minutes;
  const used = p.fga !== null && p.fta !== null && p.turnovers !== null ? p.fga + 0.44 * p.fta + p.turnovers : null;
  return {
    minutes: m,
    pts36: per(36, p.points, m),
    reb36: per(36, p.rebounds, m),
    ast36: per(36, p.assists, m),
    threes36: per(36, p.threes, m),
    threes_att36: per(36, p.threes_attempted, m),
    blk36: per(36, p.blocks, m),
    stl36: per(36, p.steals, m),
    usage36: per(36, used, m),
    three_rate: div(p.threes_attempted, p.fga),
    ft_rate: div(p.fta, p.fga),
  };
}

export function mlbBatterFeatures(p: MlbBatterProfile): FeatureMap<MlbBatterFeature> {
  const ab = p.bb === null ? null : p.pa - p.bb;
  const tto = p.bb !== null && p.so !== null ? p.hr + p.bb + p.so : null;
  return {
    pa_per_game: p.pa,
    hr_rate: div(p.hr, p.pa),
    k_rate: div(p.so, p.pa),
    bb_rate: div(p.bb, p.pa),
    hit_rate: div(p.hits, ab),
    iso: div(p.total_bases === null ? null : p.total_bases - p.hits, ab),
    tto_rate: div(tto, p.pa),
    on_base_rate: div(p.bb === null ? null : p.hits + p.bb, p.pa),
  };
}

export function mlbPitcherFeatures(p: MlbPitcherProfile): FeatureMap<MlbPitcherFeature> {
  return {
    ip_per_game: p.innings,
    k_pct: p.k_pct,
    bb_pct: div(p.walks, p.batters_faced),
    whiff_pct: p.whiff_pct,
    k_per_game: p.strikeouts,
  };
}

export function soccerFeatures(p: SoccerProfile): FeatureMap<SoccerFeature> {
  const m = p.minutes;
  return {
    minutes: m,
    shots90: per(90, p.shots, m),
    sot90: per(90, p.shots_on_target, m),
    sot_share: div(p.shots_on_target, p.shots),
    goals90: per(90, p.goals, m),
    goals_per_shot: div(p.goals, p.shots),
    tackles90: per(90, p.tackles, m),
  };
}
