import type { Command } from 'commander';
import { z } from 'zod';
import { isIsoDate } from '../domain/time.js';
import { contextFor, parseOptions, type CliContext } from './_context.js';
import type { CliIO } from './_io.js';

const dateOption = z.string().refine(isIsoDate, 'expected a date such as 2025-11-05').optional();
const buildSchema = z.object({ date: dateOption, out: z.string().min(1).optional() });
const sendSchema = z.object({ date: dateOption });

/** Where `build` writes without --out: var/reports/<date> in propgrade's own folder, beside the default store. */
async function defaultOutDir(date: string): Promise<string> {
  const { dirname, join } = await import('node:path');
  const { DEFAULT_DB_PATH } = await import('../store/db.js');
  return join(dirname(DEFAULT_DB_PATH), 'reports', date);
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

export function registerNewsletter(program: Command, io: CliIO): void {
  const newsletter = program
    .command('newsletter')
    .description('The daily report: build it (HTML + text) or send it as a listmonk campaign (never scheduled)')
    .addHelpText(
      'after',
      '\nThe report carries the day\'s strongest graded reads, the last settle, the streak watch and the 30-day record,\n' +
        'with a responsible-gambling footer and listmonk\'s {{ UnsubscribeURL }} placeholder. A date with no graded read\n' +
        'and no settled entry is refused (exit 1). See docs/content.md.\n\nExamples:\n  $ propgrade newsletter build\n  $ propgrade newsletter build --date 2025-11-05 --out /tmp/report\n  $ propgrade newsletter send --date 2025-11-05',
    );

  newsletter
    .command('build')
    .description('Write report.html and report.txt for a date (default: today, ET)')
    .option('--date <yyyy-mm-dd>', 'the report date (ET)')
    .option('--out <dir>', 'folder to write into (default var/reports/<date> in propgrade\'s folder)')
    .addHelpText('after', '\nExamples:\n  $ propgrade newsletter build\n  $ propgrade newsletter build --date 2025-11-05 --out /tmp/report\n\nExit codes: 0 written, 1 an empty report (nothing real to send), 2 bad input.')
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(buildSchema, raw);
      const { openRunEnvironment } = await import('./_run.js');
      const { easternDate } = await import('../domain/time.js');
      const { buildReportFor } = await import('../jobs/publish/newsletter.js');
      const { mkdirSync, writeFileSync } = await import('node:fs');
      const { join, resolve } = await import('node:path');
      const env = await openRunEnvironment(ctx, { readClock: true });
      try {
        const date = opts.date ?? easternDate(env.now);
        const report = await buildReportFor(env.store, { now: env.now, date, ...(opts.date ? {} : { clockFor: env.forSport }) });
        const dir = resolve(opts.out ?? (await defaultOutDir(date)));
        mkdirSync(dir, { recursive: true });
        const files = { html: join(dir, 'report.html'), text: join(dir, 'report.txt') };
        writeFileSync(files.html, report.html, 'utf8');
        writeFileSync(files.text, report.text, 'utf8');
        const data = {
          date,
          subject: report.subject,
          sections: report.sections.map((s) => ({ id: s.id, title: s.title })),
          omitted: report.omitted,
          figures: report.figures.length,
          files,
          bytes: { html: Buffer.byteLength(report.html), text: Buffer.byteLength(report.text) },
        };
        ctx.result(data, (d) =>
          [
            `Daily report for ${d.date}: "${d.subject}"`,
            `sections: ${d.sections.map((s) => s.title).join(', ')}`,
            ...d.omitted.map((o) => `left out: ${o.id}: ${o.reason}`),
            `figures: ${d.figures}, each with its source rows (--json on \`propgrade desk\` lists them)`,
            `wrote ${d.files.html} (${kb(d.bytes.html)})`,
            `wrote ${d.files.text} (${kb(d.bytes.text)})`,
            `next: propgrade newsletter send --date ${d.date}`,
          ].join('\n'),
        );
      } finally {
        await env.close();
      }
    });

  newsletter
    .command('send')
    .description('Create the day\'s listmonk campaign and start it (once per date; does nothing when listmonk is not configured)')
    .option('--date <yyyy-mm-dd>', 'the report date (ET)')
    .addHelpText('after', '\nExamples:\n  $ propgrade newsletter send\n  $ LISTMONK_URL=https://lists.example.com LISTMONK_USER=api LISTMONK_TOKEN=... LISTMONK_LIST_ID=3 propgrade newsletter send --date 2025-11-05\n\nNot configured: says what is missing and exits 0 without a network call.')
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(sendSchema, raw);
      const { openRunEnvironment } = await import('./_run.js');
      const { easternDate } = await import('../domain/time.js');
      const { sendDailyReport } = await import('../jobs/publish/newsletter.js');
      const env = await openRunEnvironment(ctx, { readClock: true });
      try {
        const date = opts.date ?? easternDate(env.now);
        const result = await sendDailyReport(env.store, ctx.config, { now: env.now, date, ...(opts.date ? {} : { clockFor: env.forSport }) });
        if (result.status === 'refused') io.exitCode = 1;
        ctx.result(result, (r) => renderSend(ctx, r));
      } finally {
        await env.close();
      }
    });
}

type SendResult = Awaited<ReturnType<typeof import('../jobs/publish/newsletter.js').sendDailyReport>>;

function renderSend(ctx: CliContext, r: SendResult): string {
  switch (r.status) {
    case 'sent':
      return `Sent: listmonk campaign ${r.campaignId} on list ${r.listId} created and started${r.started ? ` (status ${r.started})` : ''}: "${r.subject}"`;
    case 'already_sent':
      return `Nothing sent: the ${r.date} report already went out${r.campaignId === null ? '' : ` as listmonk campaign ${r.campaignId}`} (recorded ${r.since}).`;
    case 'not_configured':
      return ctx.c.yellow(`Nothing sent: ${r.reason}.`);
    case 'refused':
      return ctx.c.red(`Not sent: ${r.message}`);
  }
}
