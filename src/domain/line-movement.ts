/**
 * Line movement of a prop (game, player, stat) between two snapshots, measured on the main
 * line. Direction says whether the market moved toward the model's projection or away from it;
 * without a projection there is no direction, only the delta.
 */
export interface LineMovement {
  previousLine: number | null;
  lineDelta: number | null;
  lineDirection: 'toward' | 'away' | null;
}

export const NO_MOVEMENT: LineMovement = { previousLine: null, lineDelta: null, lineDirection: null };

export function lineMovement(currentLine: number, previousLine: number | null, projection: number | null): LineMovement {
  if (previousLine === null) return NO_MOVEMENT;
  const delta = round(currentLine - previousLine);
  if (delta === 0 || projection === null) return { previousLine, lineDelta: delta, lineDirection: null };
  const before = Math.abs(previousLine - projection);
  const after = Math.abs(currentLine - projection);
  return { previousLine, lineDelta: delta, lineDirection: after < before ? 'toward' : 'away' };
}

// Lines are halves; rounding keeps 25.5 - 24.5 from printing as 1.0000000000000002.
function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
