import type { Command } from 'commander';
import { z } from 'zod';
import { parseOrBadInput } from '../errors.js';
import { contextFor } from './_context.js';
import type { CliIO } from './_io.js';

const optionsSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).optional(),
  host: z.string().min(1).optional(),
});

export function registerServe(program: Command, io: CliIO): void {
  program
    .command('serve')
    .description('Serve the HTTP API over the store (reads the cache; never calls a provider on reads)')
    .option('--port <n>', 'port (env PORT, default 8787)')
    .option('--host <host>', 'interface to bind (env HOST, default 127.0.0.1)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ propgrade serve\n  $ INTERNAL_API_KEY=... CORS_ORIGIN=https://app.example.com propgrade serve --host 0.0.0.0 --port 8787\n  $ SNAPSHOT_CRON=1 propgrade serve   # also runs the snapshot at 14,19,22,1,3 UTC\n  $ propgrade serve --now 2025-11-05T17:10:00Z   # serve the bundled replay as of its day (clock pinned)\n\nRoutes and auth: docs/api.md; GET /openapi.json describes every route.',
    )
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      // The raw options go with the issues so `--port abc` names 'abc', not the NaN coercion left.
      const opts = parseOrBadInput(optionsSchema, raw, '--');
      const { startApiServer } = await import('../server/serve.js');
      const { openStore, DEFAULT_DB_PATH } = await import('../store/db.js');
      const store = openStore(ctx.dbPath() ?? DEFAULT_DB_PATH);
      const log = { info: (m: string) => ctx.progress(m), warn: (m: string) => ctx.progress(ctx.c.yellow(`warning: ${m}`)) };
      // --now / PROPGRADE_NOW pin the server's clock (e.g. to read the bundled replay as of its day).
      const pinned = ctx.explicitNow();
      const running = await startApiServer({
        ...(pinned ? { now: () => pinned } : {}),
        store,
        config: ctx.config,
        port: opts.port ?? ctx.config.PORT,
        host: opts.host ?? ctx.config.HOST,
        cron: ctx.config.SNAPSHOT_CRON,
        log,
      });
      ctx.result({ url: running.url, cron: running.cronNext?.toISOString() ?? null }, (d) =>
        [`propgrade API listening on ${d.url}`, d.cron ? `snapshot cron on: next run ${d.cron}` : 'snapshot cron off (SNAPSHOT_CRON=1 to run it in-process; crontab.example is the recommended way)'].join('\n'),
      );
      // The open socket keeps the process alive; listhen closes it on SIGINT/SIGTERM.
    });
}
