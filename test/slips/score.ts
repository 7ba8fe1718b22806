import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Field, SlipResult } from '../../src/slips/schema.js';

/** Hand-labelled truth for one real screenshot (test/fixtures/slips/truth/*.json). */
export interface TruthLeg {
  player: string | null;
  market: string | null;
  stat: string | null;
  line: number | null;
  side: string | null;
  price: number | null;
}
export interface Truth {
  image: string;
  book: string;
  bets: Array<{ price: number | null; stake: number | null; payout: number | null; bet_id: string | null; legs: TruthLeg[] }>;
}

export const FIXTURES = join(import.meta.dirname, '../fixtures/slips');

export function loadTruth(name: string): Truth {
  return JSON.parse(readFileSync(join(FIXTURES, 'truth', `${name}.json`), 'utf8')) as Truth;
}

/**
 * Per field: `correct` (right and not flagged), `flagged` (needs_review, right or wrong),
 * `missed` (printed but left null without a flag) and `wrong` (a wrong value nobody flagged:
 * the one outcome the reader must never produce). Fields the slip does not print are skipped
 * unless the reader invents a value for them, which counts as wrong.
 */
export interface Tally {
  correct: number;
  flagged: number;
  missed: number;
  wrong: number;
  wrongFields: string[];
}

const norm = (v: unknown): unknown =>
  typeof v === 'string'
    ? v
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^a-z0-9+/' ]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
    : v;

function score(t: Tally, where: string, truth: unknown, field: Field<unknown> | undefined): void {
  const value = field?.value ?? null;
  const flagged = field?.needsReview ?? false;
  if (truth === null && value === null) return;
  if (flagged) t.flagged += 1;
  else if (truth !== null && value === null) t.missed += 1;
  else if (norm(value) === norm(truth)) t.correct += 1;
  else {
    t.wrong += 1;
    t.wrongFields.push(`${where}: read ${JSON.stringify(value)}, truth ${JSON.stringify(truth)}`);
  }
}

export function tally(result: SlipResult, truth: Truth, t: Tally = { correct: 0, flagged: 0, missed: 0, wrong: 0, wrongFields: [] }): Tally {
  score(t, 'book', truth.book, result.book);
  const bets = Math.max(truth.bets.length, result.bets.length);
  for (let b = 0; b < bets; b += 1) {
    const tb = truth.bets[b];
    const rb = result.bets[b];
    for (const k of ['price', 'stake', 'payout'] as const) score(t, `bet${b}.${k}`, tb?.[k] ?? null, rb?.[k]);
    // The truth files spell the id as the wire does (bet_id); the reader names it betId.
    score(t, `bet${b}.bet_id`, tb?.bet_id ?? null, rb?.betId);
    const legs = Math.max(tb?.legs.length ?? 0, rb?.legs.length ?? 0);
    for (let l = 0; l < legs; l += 1) {
      const tl = tb?.legs[l];
      const rl = rb?.legs[l];
      for (const k of ['player', 'market', 'stat', 'line', 'side', 'price'] as const) {
        // A leg that was never read leaves its fields missed; a leg the reader made up is wrong unless flagged.
        score(t, `bet${b}.leg${l}.${k}`, tl?.[k] ?? null, rl?.[k]);
      }
    }
  }
  return t;
}
