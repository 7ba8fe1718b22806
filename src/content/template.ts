import type { Block, Brief } from './document.js';
import type { ContentFacts } from '../domain/facts.js';

/** The seven desk templates, in the order the pack shows them. */
export const TEMPLATE_IDS = ['morning_wire', 'signal', 'streak_watch', 'the_settle', 'receipts', 'archetype_watch', 'line_dispatch'] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

export const TEMPLATE_NAMES: Readonly<Record<TemplateId, string>> = {
  morning_wire: 'MORNING WIRE',
  signal: 'SIGNAL',
  streak_watch: 'STREAK WATCH',
  the_settle: 'THE SETTLE',
  receipts: 'RECEIPTS',
  archetype_watch: 'ARCHETYPE WATCH',
  line_dispatch: 'LINE DISPATCH',
};

/** What a template writes before the pack segments and checks it. */
export interface TemplateDraft {
  headline: string;
  /** The long copy. */
  body: Block[];
  /** The thread's units in order (sentences or items); the pack packs them into posts. */
  thread: string[];
  /** Wire-only variant: one-line items for the news wire, facts only. */
  wire: string[];
  /** Numbers-only variant: "label: figure" lines. */
  numbers: string[];
  brief: Brief;
}

/** A template either writes a draft from real data or says why it has nothing real to say. */
export type TemplateResult = { draft: TemplateDraft } | { omit: string };

export type TemplateBuilder = (facts: ContentFacts) => TemplateResult;

/** The responsible-gambling line every public document ends with (docs/content.md). */
export const RG_LINE = '21+ only. Gambling problem? Call 1-800-GAMBLER.';

/** What a grade claims, in one sentence a reader can check against README "What a grade claims". */
export const CLAIM_LINE =
  "A grade is a claim about a price, not a forecast of the result: the expected value of the book's price against the market's own fair price, the no-vig consensus of the other books.";

/** The EV band each letter claims (README "What a grade claims"). */
export const GRADE_BANDS: Readonly<Record<string, string>> = {
  'A+': 'at least +5% expected value against the market',
  A: '+2% to +5% expected value against the market',
  B: '0 to +2% expected value against the market',
  C: 'a normal price after the vig (-4% to 0)',
  F: 'a price worse than the vig',
};
