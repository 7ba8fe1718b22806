import type { Command } from 'commander';
import { z } from 'zod';
import { isIsoDate } from '../domain/time.js';
import type { DraftsResult } from '../jobs/publish/drafts.js';
import { contextFor, parseOptions, type CliContext } from './_context.js';
import type { CliIO } from './_io.js';

const optionsSchema = z.object({ date: z.string().refine(isIsoDate, 'expected a date such as 2025-11-05').optional() });

export function registerDrafts(program: Command, io: CliIO): void {
  program
    .command('drafts')
    .description('Save the slate-preview and settle drafts to Ghost (always status draft; a second run updates the same posts)')
    .option('--date <yyyy-mm-dd>', 'the date (ET; default today)')
    .addHelpText(
      'after',
      '\nNeeds GHOST_URL and GHOST_ADMIN_KEY; without them it says so and calls nothing. A draft edited or published\n' +
        'in Ghost since propgrade saved it is left alone. See docs/content.md.\n\nExamples:\n  $ propgrade drafts\n  $ propgrade drafts --date 2025-11-05 --json',
    )
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(optionsSchema, raw);
      const { openRunEnvironment } = await import('./_run.js');
      const { easternDate } = await import('../domain/time.js');
      const { saveGhostDrafts } = await import('../jobs/publish/drafts.js');
      const env = await openRunEnvironment(ctx, { readClock: true });
      try {
        const date = opts.date ?? easternDate(env.now);
        const result = await saveGhostDrafts(env.store, ctx.config, { now: env.now, date, ...(opts.date ? {} : { clockFor: env.forSport }) });
        ctx.result(result, (r) => renderDrafts(ctx, r));
      } finally {
        await env.close();
      }
    });
}

function renderDrafts(ctx: CliContext, r: DraftsResult): string {
  if (r.status === 'not_configured') return ctx.c.yellow(`Nothing saved: ${r.reason}.`);
  return [
    `Ghost drafts for ${r.date}:`,
    ...r.drafts.map((d) => {
      const name = d.kind === 'settle' ? 'settle' : 'slate preview';
      if (d.action === 'skipped') return `- ${name}: skipped, ${d.reason}`;
      if (d.action === 'left') return `- ${name}: left as it is (post ${d.postId}): ${d.reason}`;
      return `- ${name}: ${d.action} post ${d.postId} (status ${d.status}, updated ${d.updatedAt})`;
    }),
  ].join('\n');
}
