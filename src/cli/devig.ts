import type { Command } from 'commander';
import { z } from 'zod';
import {
  DEFAULT_N_WAY_METHOD,
  DEFAULT_TWO_WAY_METHOD,
  DEVIG_METHODS,
  devig,
  devigDecimal,
  devigMethodSchema,
  type DevigMethod,
  type DevigResult,
} from '../domain/devig.js';
import { americanToDecimal } from '../domain/odds.js';
import { badInput } from '../errors.js';
import { contextFor, parseOptions } from './_context.js';
import { pct, renderTable, show, signedAmerican, type CliIO } from './_io.js';

const devigOptionsSchema = z.object({
  method: z
    .union([devigMethodSchema, z.literal('all')], {
      error: (issue) => `${JSON.stringify(issue.input)} is not a method; expected one of ${DEVIG_METHODS.join(', ')} or all`,
    })
    .optional(),
  decimal: z.boolean().default(false),
});

/** A plain number as typed: optional sign, digits, optional fraction. Rejects "", "0x10", "1e3", "abc". */
const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

export type DevigRow = DevigResult & { fairDecimal?: (number | null)[] };

export interface DevigReport {
  format: 'american' | 'decimal';
  legs: Array<{ leg: number; price: number; decimal: number; implied: number }>;
  booksum: number;
  /** booksum - 1, as a fraction. */
  overround: number;
  /** (booksum - 1)/booksum, what US calculators call "hold" or "vig %". */
  hold: number;
  results: DevigRow[];
}

export function registerDevig(program: Command, io: CliIO): void {
  program
    .command('devig')
    .description('Remove the vig from a market: fair probabilities, fair odds and overround per method')
    .argument('<odds...>', 'one price per leg: American (-110 +100) or, with --decimal, decimal (1.91 2.00)')
    .option('--method <name>', `${DEVIG_METHODS.join(', ')} or all (default: shin)`)
    .option('--decimal', 'the prices are decimal odds', false)
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ propgrade devig -110 +100',
        '  $ propgrade devig --method all -- -110 -110',
        '  $ propgrade devig --decimal --method power 2.7 2.3 4.4',
        '  $ propgrade --json devig -250 +190',
      ].join('\n'),
    )
    .action((rawOdds: string[], rawOptions: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const options = parseOptions(devigOptionsSchema, rawOptions);
      const report = devigReport(rawOdds, options.decimal ? 'decimal' : 'american', options.method);
      ctx.result(report, (r) => renderReport(r, ctx.color));
    });
}

/** Parses the typed prices and runs the requested methods; refuses bad input with the bad value named. */
export function devigReport(rawOdds: readonly string[], format: 'american' | 'decimal', method?: DevigMethod | 'all'): DevigReport {
  const legs = parsePrices(rawOdds, format);
  const prices = legs.map((l) => l.price);
  const methods: readonly DevigMethod[] =
    method === 'all' ? DEVIG_METHODS : [method ?? (prices.length === 2 ? DEFAULT_TWO_WAY_METHOD : DEFAULT_N_WAY_METHOD)];
  const results = methods.map((m) => withFairDecimal(format === 'decimal' ? devigDecimal(prices, m) : devig(prices, m)));
  const refused = results.filter((r) => !r.ok);
  if (refused.length === results.length) {
    const reason = refused[0] && !refused[0].ok ? refused[0].reason : 'no method could price it';
    throw badInput(`cannot de-vig ${rawOdds.join(' ')}: ${reason}`);
  }
  const booksum = legs.reduce((acc, l) => acc + 1 / l.decimal, 0);
  return {
    format,
    legs: legs.map((l, i) => ({ leg: i + 1, price: l.price, decimal: l.decimal, implied: 1 / l.decimal })),
    booksum,
    overround: booksum - 1,
    hold: (booksum - 1) / booksum,
    results,
  };
}

function parsePrices(rawOdds: readonly string[], format: 'american' | 'decimal'): Array<{ price: number; decimal: number }> {
  if (rawOdds.length < 2) {
    throw badInput(`devig needs at least 2 prices, one per leg; got ${rawOdds.length}: ${rawOdds.join(' ') || '(none)'}`);
  }
  return rawOdds.map((text) => {
    const trimmed = text.trim();
    if (!NUMBER_TEXT.test(trimmed)) {
      const example = format === 'decimal' ? 'decimal odds like 1.91' : 'American odds like -110 or +150';
      throw badInput(`"${text}" is not a price: expected ${example}`);
    }
    const value = Number(trimmed);
    if (format === 'decimal') {
      if (!(value > 1)) throw badInput(`${text} is not a valid decimal price: it must be greater than 1`);
      return { price: value, decimal: value };
    }
    const decimal = americanToDecimal(value);
    if (decimal === null) {
      const hint = value > 1 && value < 100 ? ' (decimal odds? add --decimal)' : '';
      throw badInput(`${text} is not a valid American price: it must be <= -100 or >= +100${hint}`);
    }
    return { price: value, decimal };
  });
}

function withFairDecimal(result: DevigResult): DevigRow {
  return result.ok ? { ...result, fairDecimal: result.probs.map((p) => 1 / p) } : result;
}

function formatPrice(price: number, format: 'american' | 'decimal'): string {
  if (format === 'decimal') return String(price);
  return price > 0 ? `+${price}` : String(price);
}

function formatParams(params: Record<string, number> | undefined): string {
  if (!params) return '';
  return Object.entries(params)
    .map(([k, v]) => `${k}=${v.toPrecision(8)}`)
    .join(' ');
}

function renderReport(report: DevigReport, color: boolean): string {
  const summary =
    `${report.legs.length} legs · booksum ${pct(report.booksum, 2)} · ` +
    `overround ${pct(report.overround, 2)} · hold ${pct(report.hold, 2)}` +
    (report.booksum < 1 ? ' · underround: no margin, the legs are raised to sum to 1' : '');
  const rows: Array<Array<string | number>> = [];
  for (const result of report.results) {
    if (!result.ok) {
      rows.push([result.method, '-', '-', '-', '-', '-', '-', result.reason]);
      continue;
    }
    const note = result.method === 'worst_case' ? 'per-leg minimum; legs need not sum to 1' : formatParams(result.params);
    report.legs.forEach((leg, i) => {
      const first = i === 0;
      rows.push([
        first ? result.method : '',
        leg.leg,
        formatPrice(leg.price, report.format),
        show(result.probs[i], (p) => pct(p, 2)),
        show(result.fairAmerican[i], signedAmerican),
        show(result.fairDecimal?.[i], (d) => d.toFixed(3)),
        first ? pct(result.overround, 2) : '',
        first ? note : '',
      ]);
    });
  }
  const table = renderTable(['method', 'leg', 'price', 'fair prob', 'fair odds', 'fair dec', 'overround', 'note'], rows, color);
  return `${summary}\n${table}`;
}
