import { AppError } from '../errors.js';

/**
 * The editorial rules every published document obeys (docs/content.md "Editorial rules"): the
 * daily report (HTML and text), each desk-pack template (headline, long copy, every tweet, the
 * wire-only and numbers-only variants, the data brief's labels), the Ghost drafts and the
 * desk-pack-ready notice. A grade is a claim about a price against the market, so the copy never
 * speaks of certainty, and it never shouts.
 *
 * 1. No exclamation mark anywhere, markup included.
 * 2. None of the banned terms below, matched case-insensitively on word boundaries (so "Lockhart"
 *    and "blocks" pass, "lock" and "LOCKS" do not).
 *
 * A document that breaks either rule is refused with an `EditorialError` naming the document, the
 * part, the rule and the words around the hit; nothing is sent or saved.
 */

export interface BannedTerm {
  /** What the rule refuses, as the docs list it. */
  term: string;
  pattern: RegExp;
  why: string;
}

const term = (t: string, source: string, why: string): BannedTerm => ({ term: t, pattern: new RegExp(`\\b(?:${source})\\b`, 'i'), why });

/** The banned vocabulary. Keep docs/content.md in step with this list (a test checks it). */
export const BANNED_TERMS: readonly BannedTerm[] = [
  term('guaranteed', 'guarantee[sd]?|guaranteeing', 'no result is guaranteed; a grade is a claim about a price'),
  term('lock', 'locks?|locked in|lock of the (?:day|night|week)', 'tout word for a pick presented as certain'),
  term('risk-free', 'risk[- ]?free|no[- ]risk|zero[- ]risk', 'every bet risks its stake'),
  term('sure thing', 'sure (?:thing|bet|win|winner)|surefire|sure-fire', 'claims certainty'),
  term("can't lose", "can'?t lose|cannot lose|can'?t miss|cannot miss|can'?t-miss", 'claims certainty'),
  term('free money', 'free (?:money|cash|bet|bets|pick|picks)', 'nothing here is free money, and we give no bets away'),
  term('easy money', 'easy (?:money|cash|win|winner|winners)', 'claims the outcome is easy'),
  term('no-brainer', 'no[- ]brainer', 'claims no judgement is needed'),
  term('slam dunk', 'slam[- ]dunk', 'tout idiom for certainty'),
  term('best bet', 'best bets?', 'a grade is not betting advice'),
  term('bet the house', 'bet the (?:house|farm|mortgage)|max bet|max out', 'urges oversized stakes'),
  term('hammer', 'hammer(?:ing|ed)? (?:it|this|that|the)', 'tout urging to bet big'),
  term('get rich', 'get rich|life[- ]changing', 'promises wealth'),
  term('whale play', 'whale plays?|bank on it|bankroll builder', 'tout phrasing'),
] as const;

export type EditorialRule = 'exclamation' | 'banned_term';

export interface EditorialViolation {
  rule: EditorialRule;
  /** The banned term's listed form, or '!' */
  term: string;
  /** The text as written at the hit. */
  found: string;
  index: number;
  /** Up to 30 characters either side of the hit. */
  excerpt: string;
}

function excerpt(text: string, index: number, length: number): string {
  const from = Math.max(0, index - 30);
  const to = Math.min(text.length, index + length + 30);
  return `${from > 0 ? '...' : ''}${text.slice(from, to).replace(/\s+/g, ' ')}${to < text.length ? '...' : ''}`;
}

/** Every way `text` breaks the editorial rules, in order of position. */
export function checkEditorial(text: string): EditorialViolation[] {
  const out: EditorialViolation[] = [];
  for (let i = text.indexOf('!'); i !== -1; i = text.indexOf('!', i + 1)) {
    out.push({ rule: 'exclamation', term: '!', found: '!', index: i, excerpt: excerpt(text, i, 1) });
  }
  for (const banned of BANNED_TERMS) {
    const global = new RegExp(banned.pattern.source, 'gi');
    for (const m of text.matchAll(global)) {
      const index = m.index ?? 0;
      out.push({ rule: 'banned_term', term: banned.term, found: m[0], index, excerpt: excerpt(text, index, m[0].length) });
    }
  }
  return out.sort((a, b) => a.index - b.index);
}

/** A document refused by the editorial rules; `violations` name each hit by part. */
export class EditorialError extends AppError {
  readonly document: string;
  readonly violations: ReadonlyArray<EditorialViolation & { part: string }>;

  constructor(document: string, violations: ReadonlyArray<EditorialViolation & { part: string }>) {
    const first = violations[0];
    const what = first
      ? first.rule === 'exclamation'
        ? `an exclamation mark in ${first.part}: "${first.excerpt}"`
        : `the banned term '${first.found}' (${BANNED_TERMS.find((b) => b.term === first.term)?.why ?? 'banned'}) in ${first.part}: "${first.excerpt}"`
      : 'an unknown rule';
    const more = violations.length > 1 ? ` (and ${violations.length - 1} more)` : '';
    super('INTERNAL', `refused by the editorial rules: ${document} has ${what}${more}; see docs/content.md`, {
      details: violations.map((v) => ({ part: v.part, rule: v.rule, term: v.term, found: v.found, excerpt: v.excerpt })),
    });
    this.name = 'EditorialError';
    this.document = document;
    this.violations = violations;
  }
}

/**
 * Throws an EditorialError when any part of the document breaks a rule; returns quietly otherwise.
 *
 * @example
 * assertEditorial('daily report 2025-11-05', { subject, html, text });
 */
export function assertEditorial(document: string, parts: Readonly<Record<string, string>>): void {
  const violations: Array<EditorialViolation & { part: string }> = [];
  for (const [part, text] of Object.entries(parts)) {
    for (const v of checkEditorial(text)) violations.push({ ...v, part });
  }
  if (violations.length > 0) throw new EditorialError(document, violations);
}
