/**
 * Baseball innings notation: "6.2" is six innings and two outs (6 2/3 innings), so 20 outs. The
 * digit after the point counts outs (0, 1 or 2), never tenths, so "6.3" is no notation. Pure
 * arithmetic on the text: the box-score adapter (feeds/mlb-statsapi) and the game-log importer
 * (feeds/history) both read innings pitched through here, so one notation has one reading.
 */

const NOTATION = /^(\d+)(?:\.([0-2]))?$/;

/**
 * Innings notation as outs recorded ("5.2" -> 17, "7" -> 21); null when the value is not the
 * notation ("5.3", "-.--", "", anything not a string or a finite number). A number is read by its
 * one-decimal text, as statsapi writes it (5.2 -> "5.2").
 */
export function outsFromInnings(value: unknown): number | null {
  const text = typeof value === 'number' ? value.toFixed(1) : typeof value === 'string' ? value.trim() : '';
  const m = NOTATION.exec(text);
  return m ? Number(m[1]) * 3 + Number(m[2] ?? '0') : null;
}

/** Outs recorded as innings notation (17 -> "5.2", 21 -> "7.0"); null for anything but a whole number >= 0. */
export function inningsNotation(outs: number): string | null {
  if (!Number.isSafeInteger(outs) || outs < 0) return null;
  return `${Math.floor(outs / 3)}.${outs % 3}`;
}
