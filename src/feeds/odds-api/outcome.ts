import type { Side } from '../../domain/sports.js';

/** Reading one player-prop or totals outcome of The Odds API: its side, player and line. */

export function sideOf(name: string): Side | null {
  const n = name.trim().toLowerCase();
  return n === 'over' ? 'over' : n === 'under' ? 'under' : null;
}

/**
 * One player-prop outcome -> player, side and line. Over/Under props name the side and carry the
 * player in `description` and the line in `point`. A Yes-only market (the anytime goalscorer: the
 * stat's yesLine) has no point: its outcome is `{name: "Yes"|"No", description: <player>}` in The
 * Odds API's Yes/No shape, or, as some books list a scorer board, `{name: <player>}` with no
 * description (that is the Yes); Yes is over the yesLine, No under it.
 */
export function readOutcome(
  o: { name: string; description?: string | undefined; point?: number | null | undefined },
  yesLine: number | undefined,
): { player: string; side: Side; line: number | null } | { drop: string } {
  const description = o.description?.trim();
  const side = sideOf(o.name);
  if (side !== null) return description ? { player: description, side, line: o.point ?? null } : { drop: 'outcome without a player' };
  if (yesLine === undefined) return { drop: `outcome "${o.name}" is not Over/Under` };
  const answer = o.name.trim().toLowerCase();
  const line = o.point ?? yesLine;
  if (answer === 'yes' || answer === 'no') {
    return description ? { player: description, side: answer === 'yes' ? 'over' : 'under', line } : { drop: 'outcome without a player' };
  }
  // A scorer board lists the player as the outcome; a description here would be a label we cannot read.
  return description ? { drop: `outcome "${o.name}" is not Yes/No` } : { player: o.name.trim(), side: 'over', line };
}
