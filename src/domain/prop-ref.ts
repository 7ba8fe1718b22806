import type { Side } from './sports.js';

/**
 * A prop's identity: one side of one line of one stat for one player in one game. Every record
 * about a prop (a graded row, a grade lock, a ledger entry, a tracked prop, a content fact)
 * extends this; the player's display name is not identity (one key has several spellings).
 */
export interface PropRef {
  eventId: string;
  playerKey: string;
  statType: string;
  line: number;
  side: Side;
}

/** The identity as one string, for maps and sets (the grade lock's key: store/repo/snapshots.ts lockKey). */
export const propKeyOf = (eventId: string, playerKey: string, statType: string, line: number, side: string): string => `${eventId}|${playerKey}|${statType}|${line}|${side}`;

/** propKeyOf of a prop. */
export const propKey = (p: PropRef): string => propKeyOf(p.eventId, p.playerKey, p.statType, p.line, p.side);
