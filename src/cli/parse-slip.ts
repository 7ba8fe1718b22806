import { readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import type { GradeLeg } from '../slips/reader.js';
import { z } from 'zod';
import { AppError, badInput } from '../errors.js';
import { gradeCommand, type CommandGlobals, type GradeCommand } from '../slips/commands.js';
import type { Field, SlipBet, SlipResult } from '../slips/schema.js';
import { contextFor, parseOptions } from './_context.js';
import { renderTable, show, signedAmerican, type CliIO } from './_io.js';
// Review reasons name the bet field as --json does (bet_id).
import { wireKey } from '../wire.js';
import { normalizeName } from '../domain/names.js';

const UPLOAD_CAP_BYTES = 4 * 1024 * 1024;

const optionsSchema = z.object({
  text: z.boolean().default(false),
  book: z.enum(['auto', 'fanduel', 'draftkings', 'hardrock', 'prizepicks']).default('auto'),
});

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += b.length;
    // Stop reading early rather than buffer an unbounded stream.
    if (size > UPLOAD_CAP_BYTES) throw badInput('input is over the upload cap 4 MB');
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

function readInput(source: string): Buffer {
  let size: number;
  try {
    const st = statSync(source);
    if (!st.isFile()) throw badInput(`${source} is not a file`);
    size = st.size;
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') throw badInput(`no such file: ${source}`);
    throw error;
  }
  if (size > UPLOAD_CAP_BYTES) throw badInput(`${source} is ${(size / 1048576).toFixed(1)} MB: over the upload cap 4 MB`);
  return readFileSync(source);
}

const flagMark = (f: Field<unknown>): string => (f.needsReview ? ' ?' : '');
const cell = (f: Field<string | number>, format?: (v: number) => string): string =>
  f.value === null && f.needsReview ? `? ${f.raw ?? 'unread'}` : `${show(f.value, format)}${flagMark(f)}`;
const money = (v: number): string => `$${v.toFixed(2)}`;
const line = (v: number): string => String(v);

/** The slip result as printed: each bet carries the command that grades its readable legs. */
type ParseSlipOutput = Omit<SlipResult, 'bets'> & { bets: Array<SlipBet & { gradeCommand: GradeCommand | null }> };

/** Why the result needs review, one line per flagged field; empty when nothing is flagged. */
function reviewReasons(result: SlipResult): string[] {
  const book = result.book.needsReview ? result.book.reasons.map((r) => `book: ${r}`) : [];
  const bets = result.bets.flatMap((b, i) => [
    ...(['price', 'stake', 'payout', 'betId'] as const).flatMap((k) => b[k].reasons.map((r) => `bet ${i + 1} ${wireKey(k)}: ${r}`)),
    ...b.legs.flatMap((l, j) =>
      (['selection', 'player', 'market', 'stat', 'line', 'side', 'price'] as const).flatMap((k) =>
        l[k].needsReview ? l[k].reasons.map((r) => `bet ${i + 1} leg ${j + 1} ${k}: ${r}`) : [],
      ),
    ),
  ]);
  return [...book, ...bets];
}

function human(result: ParseSlipOutput): string {
  const out: string[] = [];
  const layout = result.book.value === null && result.bets.length > 0 ? '   read as plain lines' : '';
  out.push(`book: ${result.book.value ?? 'unknown'}${flagMark(result.book)}   source: ${result.source}${layout}${result.ocr ? `   OCR ${result.ocr.ms} ms` : ''}`);
  result.bets.forEach((bet, i) => {
    out.push('');
    const kind = bet.betType ?? (bet.legs.length > 1 ? `${bet.legs.length} legs, no bet type shown` : 'single');
    out.push(`bet ${i + 1}: ${kind}${bet.boosted ? ' (boosted)' : ''}${bet.bonusBet ? ' (bonus bet)' : ''}`);
    out.push(
      `  price ${cell(bet.price, signedAmerican)}   stake ${cell(bet.stake, money)}   payout ${cell(bet.payout, money)}${bet.currency ? ` ${bet.currency}` : ''}   id ${cell(bet.betId)}`,
    );
    const rows = bet.legs.map((leg, j) => [
      j + 1,
      cell(leg.player.value !== null || leg.player.needsReview ? leg.player : leg.selection),
      cell(leg.market),
      cell(leg.stat),
      cell(leg.line, line),
      cell(leg.side),
      cell(leg.price, signedAmerican),
      leg.grading?.status === 'graded'
        ? gradeCell(leg.grading.view)
        : leg.grading?.status === 'refused'
          ? `refused: ${refusalCell(leg.grading.refusal)}`
          : leg.grading?.status === 'unavailable'
            ? leg.grading.reason
            : (leg.ungradeableReason ?? '-'),
    ]);
    out.push(renderTable(['#', 'player / selection', 'market', 'stat', 'line', 'side', 'price', 'grade'], rows, false));
  });
  // A heading only over reasons: a result flagged for a bet-level cause alone says why under warnings.
  const reasons = reviewReasons(result);
  if (reasons.length) out.push('', 'NEEDS REVIEW (fields marked ?):', ...reasons.map((r) => `  - ${r}`));
  if (result.warnings.length) out.push('', ...result.warnings.map((w) => `warning: ${w}`));
  const several = result.bets.length > 1;
  result.bets.forEach((bet, i) => {
    const cmd = bet.gradeCommand;
    const refused = bet.legs.filter((l) => l.grading?.status === 'refused').length;
    if (!cmd && refused > 0) out.push('', `nothing to grade${several ? ` in bet ${i + 1}` : ''}: ${refused === 1 ? 'its readable leg was' : `all ${refused} readable legs were`} refused (the grade column says why)`);
    if (!cmd) return;
    const what = cmd.legs.length === 1 ? `leg ${cmd.legs[0]}` : `legs ${cmd.legs.join(', ')} as a parlay`;
    out.push('', `to grade ${several ? `bet ${i + 1} ` : ''}${what}:`, `  ${cmd.command}`);
    if (cmd.leftOut.length) out.push(`  (left out: ${cmd.leftOut.map((l) => `leg ${l.leg}, ${l.reason}`).join('; ')})`);
    if (cmd.note) out.push(`  (${cmd.note})`);
  });
  return out.join('\n');
}

/** No leg read from any bet: the run failed (exit 1), with what the reader saw and how to help it. */
function nothingRead(result: SlipResult, bookChosen: boolean): AppError {
  const seen = result.warnings.length ? `: ${result.warnings.join('; ')}` : '';
  const hint =
    result.source === 'text'
      ? bookChosen
        ? 'check that the text is that book\'s slip, or leave --book out to read plain lines such as "Jalen Brunson over 27.5 points"'
        : 'plain lines are read as player, side, line, stat, e.g. "Jalen Brunson over 27.5 points"'
      : bookChosen
        ? 'check the screenshot shows the legs'
        : 'pass --book if the slip is from FanDuel, DraftKings, Hard Rock or PrizePicks';
  return new AppError('NOT_FOUND', `nothing read from the slip${seen} (${hint})`);
}

/**
 * The bet as the printed command may take it: a leg the engine just refused (a line the board never
 * priced, an unknown player) is left out with its refusal, and so is a second leg on one player's
 * stat, which `propgrade parlay` refuses; so the command runs as printed and grades something.
 */
function commandable(bet: SlipBet): SlipBet {
  const markets = new Set<string>();
  const legs = bet.legs.map((leg) => {
    if (!leg.gradeable) return leg;
    if (leg.grading?.status === 'refused') return { ...leg, gradeable: false, ungradeableReason: `refused: ${refusalCell(leg.grading.refusal)}` };
    // A leg without a read player or stat names no market to repeat (and is not gradeable anyway).
    if (leg.player.value === null || leg.stat.value === null) return leg;
    const market = `${normalizeName(leg.player.value).key}|${leg.stat.value}`;
    if (markets.has(market)) return { ...leg, gradeable: false, ungradeableReason: "another leg of the bet is on this player's stat (a parlay takes one leg per player and stat)" };
    markets.add(market);
    return leg;
  });
  return { ...bet, legs };
}

/** The grade letter of a scan result, with its projection when present. */
function gradeCell(view: unknown): string {
  const v = view as { grade?: string | null; projection?: number | null };
  return `${v.grade ?? '-'}${typeof v.projection === 'number' ? ` (proj ${v.projection.toFixed(1)})` : ''}`;
}

function refusalCell(refusal: unknown): string {
  const r = refusal as { status?: string; refusalReason?: string; candidates?: Array<{ name: string }> };
  if (r.status === 'ambiguous' && r.candidates) return `ambiguous player (${r.candidates.map((c) => c.name).join(', ')})`;
  return r.refusalReason ?? r.status ?? 'refused';
}

export function registerParseSlip(program: Command, io: CliIO): void {
  program
    .command('parse-slip')
    .description('Read a bet slip screenshot (or pasted slip text) into legs; fields it cannot vouch for are marked for review')
    .argument('<input>', 'image file (PNG/JPEG/GIF/BMP/WebP/TIFF, max 4 MB and 25 megapixels), a text file with --text, or - for stdin')
    .option('--text', 'the input is pasted slip text, not an image', false)
    .option('--book <book>', 'auto | fanduel | draftkings | hardrock | prizepicks', 'auto')
    .addHelpText(
      'after',
      '\nPasted text with no sportsbook layout is read line by line: player, side, line, stat, e.g.\n  Jalen Brunson over 27.5 points\n  Jalen Brunson o27.5 pts -110\n\nExamples (the last on the bundled 2025-11-05 NBA snapshot):\n  $ propgrade parse-slip slip.png\n  $ pbpaste | propgrade parse-slip - --text --book fanduel --json\n  $ printf \'Jalen Brunson over 27.5 points\\nJosh Hart o6.5 reb\\n\' | propgrade parse-slip - --text\n\nAfter a parse, the command that grades the readable legs is printed (--json: bets[].grade_command); a leg the\nengine refused (a line the board never priced) or a second leg on one player\'s stat is left out, with why.\nExit codes: 0 legs read, 1 nothing read from the slip, 2 bad input (not an image, over 4 MB or 25 megapixels / 10,000 px a side, bad --book).',
    )
    .action(async (input: string, rawOpts: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(optionsSchema, rawOpts);
      const bytes = input === '-' ? await readStdin() : readInput(input);
      const { readSlipImage, readSlipText } = await import('../slips/reader.js');
      const { openRunEnvironment } = await import('./_run.js');
      const { runScan } = await import('../jobs/scan.js');
      const { evaluateProp } = await import('../reads/evaluate-prop.js');
      const env = await openRunEnvironment(ctx, { needsReplayClock: false, readClock: true });
      // Each unflagged leg goes through the same engine as `propgrade scan`; a refusal stays a refusal.
      const gradeLeg: GradeLeg = async (leg) => {
        const scan = await runScan(env.store, { player: leg.player, stat: leg.stat, line: leg.line, direction: leg.side }, { now: env.forSport, userId: null, evaluate: evaluateProp });
        return scan.status === 'graded' ? { status: 'graded', view: scan } : { status: 'refused', refusal: scan };
      };
      let result: SlipResult;
      try {
      if (opts.text) {
        result = await readSlipText(bytes.toString('utf8'), { book: opts.book, gradeLeg });
      } else {
        const { checkImage } = await import('../slips/image.js');
        checkImage(bytes);
        const { SlipReader } = await import('../slips/ocr.js');
        const reader = new SlipReader();
        try {
          result = await readSlipImage(reader, bytes, { book: opts.book, gradeLeg });
        } finally {
          await reader.close();
        }
      }
      } finally {
        await env.close();
      }
      if (result.bets.every((b) => b.legs.length === 0)) throw nothingRead(result, opts.book !== 'auto');
      const globals: CommandGlobals = { db: ctx.options.db, replay: ctx.options.replay, now: ctx.options.now };
      const output: ParseSlipOutput = { ...result, bets: result.bets.map((b) => ({ ...b, gradeCommand: gradeCommand(commandable(b), globals) })) };
      ctx.result(output, human);
    });
}
