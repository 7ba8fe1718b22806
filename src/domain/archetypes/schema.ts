import { z } from 'zod';
import { gradedSportSchema } from '../sports.js';

/**
 * One condition of an archetype rule on a real-stat feature. A `gate` condition must hold but
 * does not add to the match strength: it scopes the archetype (minutes, usage caps) without
 * letting a big minutes load make a player "more" of a shooter.
 */
export const criterionSchema = z.object({
  feature: z.string().min(1),
  op: z.enum(['>=', '<=']),
  value: z.number().positive(),
  gate: z.boolean().default(false),
});
export type Criterion = z.infer<typeof criterionSchema>;

const hexColor = z.string().regex(/^#[0-9a-f]{6}$/, 'lowercase #rrggbb');
const archetypeId = z.string().regex(/^[A-Z][A-Z0-9_]*$/, 'UPPER_SNAKE id');

export const mlbRoleSchema = z.enum(['batter', 'pitcher']);
export type MlbRole = z.infer<typeof mlbRoleSchema>;

export const archetypeSchema = z.object({
  id: archetypeId,
  label: z.string().min(1),
  /** NBA archetypes list both nba and wnba (WNBA players can take them); WNBA-only ones list wnba. */
  sports: z.array(gradedSportSchema).min(1),
  /** MLB only: which profile the rule reads. */
  role: mlbRoleSchema.nullable(),
  color: hexColor,
  /** The name stale stored data may still carry; resolves to this archetype. */
  legacyName: z.string().regex(/^[a-z][a-z0-9_]*$/, 'snake_case legacy name'),
  summary: z.string().min(1),
  rule: z.array(criterionSchema).min(1),
});
export type Archetype = z.infer<typeof archetypeSchema>;

export const combatFeatureFamilySchema = z.enum(['range', 'tempo', 'outcome']);
export type CombatFeatureFamily = z.infer<typeof combatFeatureFamilySchema>;

export const combatStyleSchema = z.object({
  id: archetypeId,
  label: z.string().min(1),
  color: hexColor,
  legacyName: z.string().regex(/^[a-z][a-z0-9_]*$/, 'snake_case legacy name'),
  summary: z.string().min(1),
  rule: z.array(criterionSchema).min(1),
});
export type CombatStyle = z.infer<typeof combatStyleSchema>;

export const blendEntrySchema = z.object({ id: z.string(), weight: z.number().min(0).max(1) });
export type BlendEntry = z.infer<typeof blendEntrySchema>;

/** Result of classify: the strongest match, the runner-up (null when only one rule matched), the blend. */
export const classificationSchema = z.object({
  primary: z.string(),
  secondary: z.string().nullable(),
  blend: z.array(blendEntrySchema).min(1),
});
export type Classification = z.infer<typeof classificationSchema>;
