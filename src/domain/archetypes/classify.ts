import type { PlayerGameStat } from '../entities.js';
import type { GradedSport, Sport } from '../sports.js';
import { COMBAT_FEATURE_FAMILY, COMBAT_STYLES, combatFeatures, combatProfileSchema, type CombatFeature, type CombatProfile } from './combat.js';
import { basketballFeatures, mlbBatterFeatures, mlbPitcherFeatures, soccerFeatures } from './features.js';
import {
  mlbProfileSchema,
  nbaProfileSchema,
  profileFromGameStats,
  soccerProfileSchema,
  type MlbProfile,
  type NbaProfile,
  type ProfileOptions,
  type SoccerProfile,
} from './profiles.js';
import { archetypesFor } from './registry.js';
import { matchStrength } from './rules.js';
import type { Classification, Criterion } from './schema.js';

/** Fewer played games than this is thin data: no classification. */
export const MIN_GAMES = 5;
/** Per-36/per-90 rates from cameo minutes are noise, not a role. */
export const MIN_BASKETBALL_MINUTES = 8;
export const MIN_SOCCER_MINUTES = 10;
export const MIN_FIGHTS = 3;
/** Combat reads must see at least this many of the three families (range, tempo, outcome). */
export const MIN_COMBAT_FAMILIES = 2;
/** The blend lists at most this many archetypes. */
export const MAX_BLEND = 3;

interface Candidate {
  id: string;
  rule: readonly Criterion[];
}

/**
 * Scores every candidate rule against the features; the strongest is primary, the runner-up
 * secondary, and the blend holds the top matches with weights proportional to their strength
 * (rounded to 3 decimals). Ties keep registry order. No rule matched: null.
 */
export function classifyFeatures(candidates: readonly Candidate[], features: Readonly<Record<string, number | null>>): Classification | null {
  const matched: Array<{ id: string; strength: number; order: number }> = [];
  candidates.forEach((c, order) => {
    const strength = matchStrength(c.rule, features);
    if (strength !== null) matched.push({ id: c.id, strength, order });
  });
  if (matched.length === 0) return null;
  matched.sort((a, b) => b.strength - a.strength || a.order - b.order);
  const top = matched.slice(0, MAX_BLEND);
  const total = top.reduce((s, m) => s + m.strength, 0);
  const [first, second] = top;
  if (!first) return null;
  return {
    primary: first.id,
    secondary: second?.id ?? null,
    blend: top.map((m) => ({ id: m.id, weight: Math.round((m.strength / total) * 1000) / 1000 })),
  };
}

function classifyBasketball(sport: 'nba' | 'wnba', p: NbaProfile): Classification | null {
  if (p.games < MIN_GAMES || p.minutes < MIN_BASKETBALL_MINUTES) return null;
  return classifyFeatures(archetypesFor(sport), basketballFeatures(p));
}

function classifyMlb(p: MlbProfile): Classification | null {
  if (p.games < MIN_GAMES) return null;
  return p.role === 'batter'
    ? classifyFeatures(archetypesFor('mlb', 'batter'), mlbBatterFeatures(p))
    : classifyFeatures(archetypesFor('mlb', 'pitcher'), mlbPitcherFeatures(p));
}

function classifySoccer(p: SoccerProfile): Classification | null {
  if (p.games < MIN_GAMES || p.minutes < MIN_SOCCER_MINUTES) return null;
  return classifyFeatures(archetypesFor('soccer'), soccerFeatures(p));
}

/** Combat style blend from range, tempo and outcome; null (empty) on thin data. */
export function classifyCombat(p: CombatProfile): Classification | null {
  if (p.fights < MIN_FIGHTS) return null;
  const features = combatFeatures(p);
  const families = new Set(
    (Object.entries(features) as Array<[CombatFeature, number | null]>)
      .filter(([, v]) => v !== null)
      .map(([f]) => COMBAT_FEATURE_FAMILY[f]),
  );
  if (families.size < MIN_COMBAT_FAMILIES) return null;
  return classifyFeatures(COMBAT_STYLES, features);
}

export function classify(sport: 'nba' | 'wnba', profile: NbaProfile): Classification | null;
export function classify(sport: 'mlb', profile: MlbProfile): Classification | null;
export function classify(sport: 'soccer', profile: SoccerProfile): Classification | null;
export function classify(sport: 'mma', profile: CombatProfile): Classification | null;
export function classify(sport: Sport, profile: unknown): Classification | null;
/**
 * Primary, secondary and blend for a real stat profile, or null on thin data or missing
 * inputs. The profile is validated here, so a malformed one is "missing inputs", not a throw.
 */
export function classify(sport: Sport, profile: unknown): Classification | null {
  switch (sport) {
    case 'nba':
    case 'wnba': {
      const p = nbaProfileSchema.safeParse(profile);
      return p.success ? classifyBasketball(sport, p.data) : null;
    }
    case 'mlb': {
      const p = mlbProfileSchema.safeParse(profile);
      return p.success ? classifyMlb(p.data) : null;
    }
    case 'soccer': {
      const p = soccerProfileSchema.safeParse(profile);
      return p.success ? classifySoccer(p.data) : null;
    }
    case 'mma': {
      const p = combatProfileSchema.safeParse(profile);
      return p.success ? classifyCombat(p.data) : null;
    }
  }
}

/** Profile from the player's real game lines, then classify: what the snapshot run calls. */
export function classifyPlayer(sport: GradedSport, rows: readonly PlayerGameStat[], options: ProfileOptions = {}): Classification | null {
  const profile = profileFromGameStats(sport, rows, options);
  return profile === null ? null : classify(sport, profile);
}
