import { z } from 'zod';
import { nameArgument } from '../errors.js';

/** Every sport the service knows. `mma` has fight cards and h2h/totals odds only, never graded props. */
export const sportSchema = nameArgument(z.enum(['mlb', 'nba', 'wnba', 'soccer', 'mma']), 'sport');
export type Sport = z.infer<typeof sportSchema>;

/**
 * Sports that go through the snapshot, grading and settlement loops. Named so a bad positional
 * sport (`snapshot nfl`) says `sport: 'nfl' is not one of ...` (src/errors.ts).
 */
export const gradedSportSchema = nameArgument(z.enum(['mlb', 'nba', 'wnba', 'soccer']), 'sport');
export type GradedSport = z.infer<typeof gradedSportSchema>;

export const GRADED_SPORTS: readonly GradedSport[] = gradedSportSchema.options;

/**
 * The sport schema of a command or route that serves only some graded sports (futures, depth
 * charts, back-tests): the same enum and message as every other sport argument, narrowed.
 */
export function gradedSportsOf<const T extends readonly [GradedSport, ...GradedSport[]]>(sports: T) {
  return nameArgument(gradedSportSchema.extract(sports), 'sport');
}

export function isGradedSport(value: string): value is GradedSport {
  return (GRADED_SPORTS as readonly string[]).includes(value);
}

export const sideSchema = z.enum(['over', 'under']);
export type Side = z.infer<typeof sideSchema>;

export function otherSide(side: Side): Side {
  return side === 'over' ? 'under' : 'over';
}
