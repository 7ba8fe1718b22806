import type { Command } from 'commander';
import { z } from 'zod';
import { GRADED_SPORTS } from '../domain/sports.js';
import { easternDate, isIsoDate } from '../domain/time.js';
import type { DeskPack } from '../content/pack.js';
import { contextFor, parseOptions, type CliContext } from './_context.js';
import type { CliIO } from './_io.js';

const optionsSchema = z.object({
  date: z.string().refine(isIsoDate, 'expected a date such as 2025-11-05').optional(),
  out: z.string().min(1).optional(),
});

export function registerDesk(program: Command, io: CliIO): void {
  program
    .command('desk')
    .description('The content desk pack: seven templates with long copy, tweet threads, wire and numbers variants and a data brief')
    .option('--date <yyyy-mm-dd>', 'the pack date (ET; default today, or the newest replayed snapshot\'s day)')
    .option('--out <dir>', 'also write desk.html (the desk page, open it in a browser) and pack.json into this folder')
    .addHelpText(
      'after',
      '\nTemplates: MORNING WIRE, SIGNAL, STREAK WATCH, THE SETTLE, RECEIPTS, ARCHETYPE WATCH, LINE DISPATCH.\n' +
        'A template with nothing real to say is listed as omitted with the reason. Posts are counted as X counts\n' +
        'them (twitter-text weighted length, at most 280). See docs/content.md.\n\nExamples:\n  $ propgrade desk\n  $ propgrade desk --date 2025-11-05 --out /tmp/desk\n  $ propgrade desk --json | jq \'.templates[] | {name, status}\'',
    )
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(optionsSchema, raw);
      const { openRunEnvironment } = await import('./_run.js');
      const { readContentFacts } = await import('../store/repo/content-facts.js');
      const { buildDeskPack } = await import('../content/pack.js');
      const env = await openRunEnvironment(ctx, { readClock: true, clockNoteLater: true });
      try {
        const date = opts.date ?? easternDate(env.now);
        // The record parts count each sport's 30 days on its own clock, as `propgrade record` does; --date ends them all on it.
        if (env.perSportClocks && !opts.date) ctx.progress(deskClockNote(date, env.now, env.forSport));
        // As of an explicit clock, an outcome settled later reads pending (docs/ledger.md "As of a time").
        const facts = await readContentFacts(env.store, { now: env.now, date, ...(opts.date ? {} : { clockFor: env.forSport }), asOf: env.asOf });
        const pack = buildDeskPack(facts);
        if (opts.out) {
          const { mkdirSync, writeFileSync } = await import('node:fs');
          const { join, resolve } = await import('node:path');
          const { renderDeskPage, newNonce } = await import('../content/desk-page.js');
          const { recordChartData } = await import('../content/record-chart.js');
          const { wireJson } = await import('../wire.js');
          const dir = resolve(opts.out);
          mkdirSync(dir, { recursive: true });
          writeFileSync(join(dir, 'desk.html'), renderDeskPage(pack, newNonce(), recordChartData(facts)), 'utf8');
          writeFileSync(join(dir, 'pack.json'), `${wireJson(pack, 2)}\n`, 'utf8');
          ctx.progress(`wrote ${join(dir, 'desk.html')} and ${join(dir, 'pack.json')}`);
        }
        ctx.result(pack, (p) => renderPack(ctx, p));
      } finally {
        await env.close();
      }
    });
}

function renderPack(ctx: CliContext, pack: DeskPack): string {
  const c = ctx.c;
  const out: string[] = [c.bold(`Desk pack for ${pack.date}: ${pack.ready} of ${pack.templates.length} templates ready`)];
  for (const t of pack.templates) {
    out.push('', c.bold(`== ${t.name} ==`));
    if (t.status === 'omitted') {
      out.push(c.yellow(`omitted: ${t.reason}`));
      continue;
    }
    out.push(c.bold(t.headline), '', t.long, '', c.bold(`Thread (${t.thread.length} posts):`));
    for (const tw of t.thread) out.push(c.dim(`[${tw.n}] ${tw.weighted}/280`), tw.text);
    out.push('', c.bold('Wire-only:'), ...t.wire.map((w) => `- ${w}`), '', c.bold('Numbers-only:'), ...t.numbers.map((n) => `  ${n}`), c.dim(`data brief: ${t.brief.length} figures with source rows (--json)`));
  }
  if (pack.omitted.length) out.push('', c.yellow(`Omitted: ${pack.omitted.map((o) => o.name).join(', ')}`));
  return out.join('\n');
}

/** The desk is one ET date for every section; on a replayed store the other sports' own days are named. */
function deskClockNote(date: string, now: Date, forSport: (sport: string) => Date): string {
  const others = GRADED_SPORTS.map((s) => ({ s, day: easternDate(forSport(s)) })).filter((o) => o.day !== date);
  const rest = others.length === 0 ? '' : `; other sports' newest snapshots are on other days (${others.map((o) => `${o.s} ${o.day}`).join(', ')}): --date reads one`;
  return `clock (desk): ${now.toISOString()}, the time of the newest snapshot (replayed from recorded data): every section reads its ET date ${date}${rest}`;
}
