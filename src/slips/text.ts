/**
 * Token-level reading of slip text. Every reader returns null for text it cannot read exactly;
 * none of them repairs a misread (LAYOUTS.md §7 lists misreads that look valid).
 */

/** Unicode minus, en/em dashes and figure dash all become ASCII `-`; `™`/curly quotes are dropped. */
export function normalizeToken(text: string): string {
  return text
    .replace(/[\u2212\u2013\u2014\u2012\u2010\u2011]/g, '-')
    .replace(/[\u2122\u201c\u201d\u2018\u2019"]/g, (c) => (c === '\u2019' || c === '\u2018' ? "'" : ''))
    .replace(/^-{2,}/, '-');
}

/** Accent-folded lower case, for keyword and name comparison only (never for display). */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

export interface Odds {
  value: number;
  raw: string;
}

/** American odds: a sign then 3–5 digits, |odds| >= 100. `-146`, `+12770`; `121` (no sign) is not odds. */
export function readOdds(token: string): Odds | null {
  const t = normalizeToken(token).replace(/[()]/g, '');
  const m = /^([+-])(\d{3,5})$/.exec(t);
  if (!m) return null;
  const value = Number(m[2]) * (m[1] === '-' ? -1 : 1);
  return Math.abs(value) >= 100 ? { value, raw: token } : null;
}

/** Whether a token looks like it was meant as a price (sign or digits) without reading cleanly. */
export function looksLikePrice(token: string): boolean {
  const t = normalizeToken(token);
  return /^[(+#-]*\d{3,5}\)?$/.test(t) || /^[+-]$/.test(t);
}

export interface Money {
  value: number;
  raw: string;
  /** Whether cents were printed: `$43.13` yes, `$20` / `$4313` no. */
  cents: boolean;
}

/** `$1,869.57`, `$10.00`, `$20`, `$1,000`. Wrapping punctuation (`$5.00)`) is tolerated. */
export function readMoney(token: string): Money | null {
  const t = normalizeToken(token).replace(/^[(+]+|[),.;:]+$/g, '');
  const m = /^\$(\d{1,3}(?:,\d{3})+|\d+)(\.\d{2})?$/.exec(t);
  if (!m) return null;
  const value = Number(m[1]!.replace(/,/g, '') + (m[2] ?? ''));
  return { value, raw: token, cents: m[2] !== undefined };
}

export interface LineToken {
  value: number;
  raw: string;
  /** Signed (`+1.5`, `-5.5`): a spread handicap rather than an O/U line. */
  signed: boolean;
}

/** A line: `45.5`, `(53.5)`, `+1.5`, `-14.5`, `240.5,`. Not odds (3+ digit signed whole numbers). */
export function readLine(token: string): LineToken | null {
  const t = normalizeToken(token).replace(/^\(|[),]+$/g, '');
  const m = /^([+-]?)(\d{1,3}(?:\.\d)?)$/.exec(t);
  if (!m) return null;
  return { value: Number(`${m[1] === '-' ? '-' : ''}${m[2]}`), raw: token, signed: m[1] !== '' };
}

/** `4+`, `60+`: at least N. */
export function readMilestone(token: string): number | null {
  const m = /^(\d{1,3})\+$/.exec(normalizeToken(token));
  return m ? Number(m[1]) : null;
}

export type SideWord = 'over' | 'under' | 'yes' | 'no' | 'more' | 'less';

/** Exact side words only: `OVERAS` (a misread `OVER 4.5`) is not `over`. */
export function readSideWord(token: string): SideWord | null {
  const t = fold(normalizeToken(token)).replace(/[,.]$/, '');
  return t === 'over' || t === 'under' || t === 'yes' || t === 'no' || t === 'more' || t === 'less' ? t : null;
}

/** Letters a word contains (used to tell real words from icon debris). */
export function letterCount(text: string): number {
  return (text.match(/\p{L}/gu) ?? []).length;
}

export function alnumCount(text: string): number {
  return (text.match(/[\p{L}\p{N}]/gu) ?? []).length;
}

/** Upper-case text (letters present, none lower case), e.g. FanDuel and Hard Rock market subtitles. */
export function isAllCaps(text: string): boolean {
  return letterCount(text) >= 2 && !/\p{Ll}/u.test(text);
}

/** `JAMESON WILLIAMS` → `Jameson Williams`; `JA'MARR` → `Ja'Marr`; `HINES-ALLEN` → `Hines-Allen`. */
export function titleCase(text: string): string {
  return text.toLowerCase().replace(/(^|[\s'\-.])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());
}

/** Name comparison key: folded, letters only, single spaces, suffix dots dropped. */
export function nameKey(text: string): string {
  return fold(text)
    .replace(/[^a-z\s'-]/g, '')
    .replace(/['-]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
