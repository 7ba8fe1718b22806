import { z } from 'zod';
import { atLeast, atMost, gate, type TypedCriterion } from './rules.js';
import { combatStyleSchema, type CombatFeatureFamily, type CombatStyle } from './schema.js';

/**
 * The six combat styles, a registry separate from the team-sport archetypes (spec: Combat).
 * A fighter profile carries three feature families: range (where the strikes land), tempo
 * (output and pace), outcome (how the wins came). Every field but `fights` may be unknown.
 */

const share = z.number().min(0).max(1).nullable();
const rate = z.number().min(0).nullable();
const count = z.number().int().min(0).nullable();

export const combatProfileSchema = z.object({
  /** Professional bouts the profile covers. */
  fights: z.number().int().min(0),
  wins: count,
  ko_wins: count,
  sub_wins: count,
  dec_wins: count,
  /** Significant strikes landed / absorbed per minute. */
  slpm: rate,
  sapm: rate,
  /** Takedowns landed and submission attempts per 15 minutes. */
  td15: rate,
  sub_att15: rate,
  /** Share of significant strikes landed at distance, in the clinch, on the ground. */
  distance_share: share,
  clinch_share: share,
  ground_share: share,
  avg_fight_minutes: rate,
});
export type CombatProfile = z.infer<typeof combatProfileSchema>;

export const COMBAT_FEATURES = [
  'distance_share',
  'clinch_share',
  'ground_share',
  'slpm',
  'sapm',
  'td15',
  'sub_att15',
  'avg_fight_minutes',
  'ko_rate',
  'sub_rate',
  'dec_rate',
] as const;
export type CombatFeature = (typeof COMBAT_FEATURES)[number];

export const COMBAT_FEATURE_FAMILY: Readonly<Record<CombatFeature, CombatFeatureFamily>> = {
  distance_share: 'range',
  clinch_share: 'range',
  ground_share: 'range',
  slpm: 'tempo',
  sapm: 'tempo',
  td15: 'tempo',
  sub_att15: 'tempo',
  avg_fight_minutes: 'tempo',
  ko_rate: 'outcome',
  sub_rate: 'outcome',
  dec_rate: 'outcome',
};

function winShare(part: number | null, wins: number | null): number | null {
  if (part === null || wins === null || wins <= 0) return null;
  return part / wins;
}

export function combatFeatures(p: CombatProfile): Readonly<Record<CombatFeature, number | null>> {
  return {
    distance_share: p.distance_share,
    clinch_share: p.clinch_share,
    ground_share: p.ground_share,
    slpm: p.slpm,
    sapm: p.sapm,
    td15: p.td15,
    sub_att15: p.sub_att15,
    avg_fight_minutes: p.avg_fight_minutes,
    ko_rate: winShare(p.ko_wins, p.wins),
    sub_rate: winShare(p.sub_wins, p.wins),
    dec_rate: winShare(p.dec_wins, p.wins),
  };
}

interface StyleDef {
  id: string;
  label: string;
  color: string;
  legacyName: string;
  summary: string;
  rule: TypedCriterion<CombatFeature>[];
}

const RAW: StyleDef[] = [
  { id: 'STRIKER', label: 'Striker', color: '#d00000', legacyName: 'knockout_artist',
    summary: 'Fights at range and finishes on the feet.',
    rule: [atLeast('distance_share', 0.6), atLeast('ko_rate', 0.4)] },
  { id: 'KICKBOXER', label: 'Kickboxer', color: '#ffba08', legacyName: 'kickboxing_base',
    summary: 'High-output range striker who keeps the fight standing.',
    rule: [atLeast('distance_share', 0.75), atLeast('slpm', 4), gate(atMost('td15', 0.5))] },
  { id: 'WRESTLER', label: 'Wrestler', color: '#3f88c5', legacyName: 'wrestling_base',
    summary: 'Takes the fight down and works from top position.',
    rule: [atLeast('td15', 2), atLeast('ground_share', 0.25)] },
  { id: 'GRAPPLER', label: 'Submission Grappler', color: '#136f63', legacyName: 'bjj_base',
    summary: 'Wins by submission and fights where submissions happen.',
    rule: [atLeast('sub_rate', 0.35), atLeast('ground_share', 0.2)] },
  { id: 'PRESSURE', label: 'Pressure Fighter', color: '#e85d04', legacyName: 'volume_brawler',
    summary: 'Walks forward at a high pace and accepts exchanges to land volume.',
    rule: [atLeast('slpm', 5), atLeast('clinch_share', 0.15), gate(atLeast('sapm', 3.5))] },
  { id: 'COUNTER', label: 'Counter Striker', color: '#6a040f', legacyName: 'counter_puncher',
    summary: 'Low output at range, hard to hit: waits and counters.',
    rule: [atMost('slpm', 3.5), atMost('sapm', 3), atLeast('distance_share', 0.6)] },
];

export const COMBAT_STYLES: readonly CombatStyle[] = z.array(combatStyleSchema).parse(RAW);

const BY_NAME = new Map<string, CombatStyle>(
  COMBAT_STYLES.flatMap((s) => [
    [s.id.toLowerCase(), s],
    [s.legacyName, s],
  ]),
);

export function resolveCombatStyle(nameOrLegacy: string): CombatStyle | null {
  return BY_NAME.get(nameOrLegacy.trim().toLowerCase().replace(/[\s-]+/g, '_')) ?? null;
}
