import type { Command } from 'commander';
import { z } from 'zod';
import { isIsoDate } from '../domain/time.js';
import { contextFor, parseOptions, type CliContext } from './_context.js';
import { renderTable, show, type CliIO } from './_io.js';

const optionsSchema = z.object({
  days: z.coerce.number().int().min(1).max(365).default(30),
  team: z.string().trim().min(1).optional(),
  player: z.string().trim().min(1).optional(),
  date: z.string().refine(isIsoDate, 'expected yyyy-mm-dd').optional(),
  sport: z.string().optional(),
});

interface Rate {
  n: number;
  pct: number | null;
  ci95: [number, number] | null;
  label: string;
}

/** A percentage only with its n and interval; below the gate, the counts and "n of 20". */
export function showRate(r: Rate): string {
  if (r.pct === null) return `${r.label} (record building)`;
  const ci = r.ci95 ? ` [${r.ci95[0].toFixed(1)}–${r.ci95[1].toFixed(1)}]` : '';
  return `${r.pct.toFixed(1)}% (n=${r.n})${ci}`;
}

export function registerRecord(program: Command, io: CliIO): void {
  program
    .command('record')
    .description('The public model record: hit and beat-close rates over a window, and the per-tier table')
    .option('--days <n>', 'window length in days, ending today (ET)', '30')
    .option('--team <abbr>', 'only this team')
    .option('--player <name>', 'only this player')
    .option('--date <yyyy-mm-dd>', 'only this ET game date')
    .option('--sport <sport>', 'only this sport')
    .addHelpText('after', '\nPercentages appear at n >= 20; below that the counts and "n of 20" are shown.\n\nExamples:\n  $ propgrade record\n  $ propgrade record --team LAL --json')
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(optionsSchema, raw);
      const { openRunEnvironment } = await import('./_run.js');
      const { readModelRecord } = await import('../pipeline/record-read.js');
      const env = await openRunEnvironment(ctx, { readClock: true });
      try {
        const record = readModelRecord(env.store, { now: env.now, ...opts });
        ctx.result(record, (r) => renderRecord(ctx, r));
      } finally {
        await env.close();
      }
    });
}

function renderRecord(ctx: CliContext, r: ReturnType<typeof import('../pipeline/record-read.js').readModelRecord>): string {
  const a = r.aggregate;
  const c = a.counts;
  const head = [
    ctx.c.bold(`Model record ${a.window.from} to ${a.window.to}`),
    `entries ${c.entries}: ${c.hits} hit, ${c.misses} miss, ${c.pushes} push, ${c.voids} void, ${c.pending} pending`,
    `hit rate: ${showRate(a.hitRate)}`,
    `beat close: ${showRate(a.beatClose)} (beat ${a.clv.beat}, faded ${a.clv.faded}, flat ${a.clv.flat})`,
  ];
  const table = renderTable(
    ['Tier', 'Hit', 'Miss', 'Push', 'Void', 'Pending', 'Hit rate', 'Mean p_win'],
    r.tiers.map((t) => [t.grade, t.counts.hits, t.counts.misses, t.counts.pushes, t.counts.voids, t.counts.pending, showRate(t.hitRate), show(t.calibration.meanPWinPct, (v) => `${v.toFixed(1)}%`)]),
    ctx.color,
  );
  return `${head.join('\n')}\n${table}`;
}
