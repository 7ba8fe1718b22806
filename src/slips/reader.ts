import type { Side } from '../domain/sports.js';
import { badInput } from '../errors.js';
import type { StatType } from '../domain/stats.js';
import type { OcrReader } from './ocr.js';
import { parseOcrPage, parseSlipText, type BookChoice } from './parse.js';
import type { LegGrading, SlipLeg, SlipResult } from './schema.js';

/** What the grading engine needs from a leg: all four read cleanly, nothing inferred. */
export interface GradableLeg {
  player: string;
  stat: StatType;
  line: number;
  side: Side;
}

/**
 * Grades one leg with the normal engine. Injected by the caller (the CLI and server wire the
 * snapshot store); a refusal comes back as `{ status: 'refused' }` and is shown as one.
 */
export type GradeLeg = (leg: GradableLeg) => Promise<Extract<LegGrading, { status: 'graded' | 'refused' }>>;

export interface ReadSlipOptions {
  book?: BookChoice;
  gradeLeg?: GradeLeg;
}

export const NO_GRADER_REASON = 'grading unavailable: no snapshot store';

function gradable(leg: SlipLeg): GradableLeg | null {
  if (!leg.gradeable) return null;
  const { player, stat, line, side } = leg;
  if (player.value === null || stat.value === null || line.value === null || side.value === null) return null;
  return { player: player.value, stat: stat.value, line: line.value, side: side.value };
}

/**
 * The most legs one slip may carry, over all its bets: a book's longest parlay is 25 legs and a
 * screenshot shows a few bets. Each leg is graded on the server's one thread, so a pasted text of
 * hundreds of made-up legs (555 in 20,000 characters held the server 6-10 s) is refused instead.
 */
export const SLIP_LEGS_MAX = 30;

/** Grades every gradeable leg; legs that are not gradeable keep `grading: null` and their reason. */
export async function gradeLegs(result: SlipResult, gradeLeg: GradeLeg | undefined): Promise<SlipResult> {
  const legs = result.bets.reduce((n, bet) => n + bet.legs.length, 0);
  if (legs > SLIP_LEGS_MAX) throw badInput(`a slip carries at most ${SLIP_LEGS_MAX} legs; this one reads ${legs}`);
  for (const bet of result.bets) {
    for (const leg of bet.legs) {
      const input = gradable(leg);
      if (!input) continue;
      if (!gradeLeg) {
        leg.grading = { status: 'unavailable', reason: NO_GRADER_REASON };
        continue;
      }
      // One leg at a time, with the event loop free in between: other requests run between legs.
      await new Promise<void>((resolve) => setImmediate(resolve));
      try {
        leg.grading = await gradeLeg(input);
      } catch (error) {
        leg.grading = { status: 'unavailable', reason: `grading failed: ${error instanceof Error ? error.message : String(error)}` };
      }
    }
  }
  return result;
}

/** OCR an image with a reader (a lone SlipReader, or a ticket of the server's pool), parse it, grade what can be graded. */
export async function readSlipImage(reader: OcrReader, image: Uint8Array, options: ReadSlipOptions = {}): Promise<SlipResult> {
  const { page, ms } = await reader.read(image);
  const result = parseOcrPage(page, options.book ?? 'auto');
  const confs = page.words.map((w) => w.conf);
  result.ocr = {
    ms,
    words: page.words.length,
    meanConfidence: confs.length ? Math.round((confs.reduce((a, b) => a + b, 0) / confs.length) * 1000) / 1000 : null,
  };
  return gradeLegs(result, options.gradeLeg);
}

/** Pasted slip text through the same parsers. */
export async function readSlipText(text: string, options: ReadSlipOptions = {}): Promise<SlipResult> {
  return gradeLegs(parseSlipText(text, options.book ?? 'auto'), options.gradeLeg);
}
