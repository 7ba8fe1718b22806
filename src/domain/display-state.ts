import { z } from 'zod';

/** Spec injury chips; an unknown provider status yields no chip. */
export const injuryChipSchema = z.enum(['OUT', 'GTD', 'PROB']);
export type InjuryChip = z.infer<typeof injuryChipSchema>;

/** Spec lineup states: CONFIRMED (with batting slot), NOT_IN, PROJECTED. */
export const lineupReadSchema = z.object({ status: z.enum(['CONFIRMED', 'NOT_IN', 'PROJECTED']), battingSlot: z.number().nullable() });
export type LineupRead = z.infer<typeof lineupReadSchema>;

/** Posted lineups of a slate: who is in (with slot) and which teams have posted at all. */
export interface LineupBoard {
  confirmed: ReadonlyMap<string, number>;
  postedTeams: ReadonlySet<string>;
  /**
   * The team the game's own data names each player for (probable pitchers, posted lineups), by
   * player key: it wins over an older history row, so a traded player is graded for his new team.
   */
  teams?: ReadonlyMap<string, string>;
}

/** Stats that depend on a batting lineup; pitchers and other sports carry no lineup state. */
const LINEUP_STATS = new Set(['hits', 'total_bases', 'home_runs']);

export interface DisplayState {
  injuryStatus: InjuryChip | null;
  lineupStatus: LineupRead['status'] | null;
  battingSlot: number | null;
}

/**
 * Chips for one row from what the status feeds said; absent data gives no chip. NOT_IN needs
 * the player's own team to have posted a lineup without him; otherwise he is PROJECTED.
 */
export function displayState(playerKey: string, team: string | null, stat: string, injuries: ReadonlyMap<string, InjuryChip> | null, lineups: LineupBoard | null): DisplayState {
  return { injuryStatus: injuries?.get(playerKey) ?? null, ...lineupRead(playerKey, team, stat, lineups) };
}

function lineupRead(playerKey: string, team: string | null, stat: string, board: LineupBoard | null): Pick<DisplayState, 'lineupStatus' | 'battingSlot'> {
  if (!LINEUP_STATS.has(stat) || board === null) return { lineupStatus: null, battingSlot: null };
  const slot = board.confirmed.get(playerKey);
  if (slot !== undefined) return { lineupStatus: 'CONFIRMED', battingSlot: slot };
  if (team !== null && board.postedTeams.has(team)) return { lineupStatus: 'NOT_IN', battingSlot: null };
  return { lineupStatus: 'PROJECTED', battingSlot: null };
}
