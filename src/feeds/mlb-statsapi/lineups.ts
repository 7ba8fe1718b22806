import { z } from 'zod';

/** Spec "Lineup status": CONFIRMED (with batting slot), NOT_IN, PROJECTED. */
export const lineupStatusSchema = z.enum(['CONFIRMED', 'NOT_IN', 'PROJECTED']);
export type LineupStatus = z.infer<typeof lineupStatusSchema>;

export const lineupEntrySchema = z.object({
  mlbamId: z.number(),
  playerName: z.string(),
  playerKey: z.string(),
  /** 1-9. */
  battingSlot: z.number(),
});
export type LineupEntry = z.infer<typeof lineupEntrySchema>;

export const lineupReadSchema = z.object({ status: lineupStatusSchema, battingSlot: z.number().nullable() });
export type LineupRead = z.infer<typeof lineupReadSchema>;

/**
 * A player's lineup status. `entry` is the player's entry in his team's posted lineup (undefined
 * when he is not in it). Not posted: PROJECTED (no kill); posted without him: NOT_IN.
 */
export function lineupStatus(lineupPosted: boolean, entry?: Pick<LineupEntry, 'battingSlot'> | null): LineupRead {
  if (!lineupPosted) return { status: 'PROJECTED', battingSlot: null };
  if (!entry) return { status: 'NOT_IN', battingSlot: null };
  return { status: 'CONFIRMED', battingSlot: entry.battingSlot };
}
