/**
 * Player-name normalization: one `key` per real person across books, box scores and
 * stat feeds, plus a tidy `display`. Rules (spec "Name normalization"):
 * - periods are stripped ("R.J." -> "RJ"); suffixes are de-dotted ("Jr." -> "Jr");
 * - spaced single-letter initials collapse into one token ("P J Washington" -> "PJ Washington");
 * - a comma means either a suffix ("Dwight Murray, Jr.") or Savant's "Last, First" order;
 * - the key is accent-folded, lowercase, without apostrophes or other punctuation, hyphens
 *   become spaces ("Finney Smith" and "Finney-Smith" both appear at books), and the generational
 *   suffix is dropped. A lone middle initial stays: leagues use it to tell namesakes apart
 *   (Savant 2025 lists both "Castillo, Luis" and "Castillo, Luis F."); see `looseKey`;
 * - a small alias table maps known nicknames/short forms to the spelling of the stats table.
 */

import { z } from 'zod';

/**
 * The longest player name any input takes (HTTP bodies and queries, CLI flags): real names run to
 * about 40 characters, and everything a name costs (normalization, the near-miss ranking) grows
 * with its length, so a longer one is refused at the edge before any of it runs.
 */
export const PLAYER_NAME_MAX = 100;

/** A typed player name: trimmed, 1 to PLAYER_NAME_MAX characters. */
export const playerNameSchema = z
  .string()
  .trim()
  .min(1, 'give a player name')
  .max(PLAYER_NAME_MAX, `a player name has at most ${PLAYER_NAME_MAX} characters`);

export interface NormalizedName {
  display: string;
  key: string;
}

/** Generational suffixes recognised at the end of a name, with their de-dotted display form. */
const SUFFIXES: ReadonlyMap<string, string> = new Map([
  ['jr', 'Jr'],
  ['sr', 'Sr'],
  ['ii', 'II'],
  ['iii', 'III'],
  ['iv', 'IV'],
]);

/**
 * Known aliases, written as names (both sides go through the same folding). The target is
 * the spelling of the NBA.com game logs / stats side, so book names join to box scores.
 * Source of each pair in /work/shared (read-only reference data):
 * - history/NOTES.md "Join recipe" (Odds API -> NBA.com): the first seven;
 * - feeds/odds-api/nba-event-odds-player-points-2024-02-22-TOR-BKN.json: one event where
 *   books spell "Cameron Thomas"/"Cam Thomas" and "Cam Johnson"/"Cameron Johnson" side by side,
 *   and the game logs use "Cam Thomas" and "Cameron Johnson";
 * - history/nba_player_threes_props_*.csv "Ron Holland" vs history/nba_threes_results_2024-25.csv
 *   "Ronald Holland II";
 * - history/mlb_pitcher_strikeouts_props_*.csv "Samuel Aldegheri", "Jake Latz" vs
 *   feeds/savant/mlb-pitch-arsenal-stats-2025.csv "Aldegheri, Sam", "Latz, Jacob".
 * Only whole names are aliased, never a bare first name ("Cam" is not always "Cameron").
 */
export const NAME_ALIASES: ReadonlyArray<{ readonly from: string; readonly to: string }> = [
  { from: 'Herb Jones', to: 'Herbert Jones' },
  { from: 'Carlton Carrington', to: 'Bub Carrington' },
  { from: 'Nicolas Claxton', to: 'Nic Claxton' },
  { from: 'Vincent Williams Jr', to: 'Vince Williams Jr.' },
  { from: 'Moe Wagner', to: 'Moritz Wagner' },
  { from: 'B.J. Boston Jr', to: 'Brandon Boston Jr.' },
  { from: 'Kenyon Martin Jr.', to: 'KJ Martin' },
  { from: 'Cameron Thomas', to: 'Cam Thomas' },
  { from: 'Cam Johnson', to: 'Cameron Johnson' },
  { from: 'Ron Holland', to: 'Ronald Holland II' },
  { from: 'Samuel Aldegheri', to: 'Sam Aldegheri' },
  { from: 'Jake Latz', to: 'Jacob Latz' },
];

/** Letters that NFD does not decompose into base + combining mark. */
const FOLD_EXTRA: Readonly<Record<string, string>> = {
  đ: 'd',
  ð: 'd',
  ø: 'o',
  ł: 'l',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ı: 'i',
  þ: 'th',
};

const APOSTROPHES = /['\u2018\u2019\u02BC`\u00B4]/g;

/** Lowercase, accent-folded, punctuation-free form of a string (no suffix or alias handling). */
export function foldName(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[đðøłßæœıþ]/g, (c) => FOLD_EXTRA[c] ?? c)
    .replace(APOSTROPHES, '')
    .replace(/[-\u2010-\u2015_]/g, ' ')
    .replace(/[^\p{L}\p{N} ]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function isSuffixToken(token: string): boolean {
  return SUFFIXES.has(token.replace(/\./g, '').toLowerCase());
}

/**
 * Savant writes "Last, First" ("Berríos, José", "McCullers Jr., Lance"); returns "First Last".
 * A trailing suffix after the comma ("Dwight Murray, Jr.") is kept in place instead.
 */
export function reorderLastFirst(raw: string): string {
  const parts = raw.split(',').map((p) => p.trim()).filter((p) => p.length > 0);
  if (parts.length < 2) return raw.trim();
  const [first, ...rest] = parts as [string, ...string[]];
  // "Murray, Jr." or "Murray Jr., Dwight" style suffix segments stay with the surname.
  const suffixes = rest.filter((p) => isSuffixToken(p));
  const given = rest.filter((p) => !isSuffixToken(p));
  if (given.length === 0) return [first, ...suffixes].join(' ');
  return [...given, first, ...suffixes].join(' ');
}

function tokenize(raw: string): string[] {
  const text = reorderLastFirst(raw.normalize('NFC')).replace(/\./g, ' ').replace(/\s+/g, ' ').trim();
  // Periods become spaces so "R.J." and "R. J." both reach the initials merge below.
  return text.length === 0 ? [] : text.split(' ');
}

/** Merges runs of single-letter tokens: ["R","J","Barrett"] -> ["RJ","Barrett"]. */
function collapseInitials(tokens: string[]): string[] {
  const out: string[] = [];
  let run = '';
  for (const t of tokens) {
    if (/^\p{L}$/u.test(t)) {
      run += t.toUpperCase();
      continue;
    }
    if (run) out.push(run);
    run = '';
    out.push(t);
  }
  if (run) out.push(run);
  // A lone initial is a middle initial ("Luis F Ortiz"), not a collapsed pair: keep it as is.
  return out;
}

interface Parsed {
  display: string;
  baseKey: string;
}

function parse(raw: string): Parsed {
  const tokens = collapseInitials(tokenize(raw));
  const last = tokens.at(-1);
  let suffix: string | null = null;
  if (tokens.length > 1 && last !== undefined && isSuffixToken(last)) {
    suffix = SUFFIXES.get(last.toLowerCase()) ?? null;
    tokens.pop();
  }
  const display = [...tokens, ...(suffix ? [suffix] : [])].join(' ');
  return { display, baseKey: foldName(tokens.join(' ')) };
}

const ALIAS_KEYS: ReadonlyMap<string, string> = new Map(
  NAME_ALIASES.map(({ from, to }) => [parse(from).baseKey, parse(to).baseKey]),
);

export function normalizeName(raw: string): NormalizedName {
  const { display, baseKey } = parse(raw);
  return { display, key: ALIAS_KEYS.get(baseKey) ?? baseKey };
}

/**
 * A key without lone middle initials ("luis l ortiz" -> "luis ortiz"). Books never print the
 * initial, so the player index falls back to this form, and only when it is unambiguous.
 */
export function looseKey(key: string): string {
  const tokens = key.split(' ');
  return tokens.filter((t, i) => i === 0 || i === tokens.length - 1 || t.length > 1).join(' ');
}

/** For Savant's "Last, First" column; `normalizeName` detects the comma too, this names the intent. */
export function fromLastFirst(raw: string): NormalizedName {
  return normalizeName(reorderLastFirst(raw));
}
