import type { Command } from 'commander';
import { z } from 'zod';
import { parseOrBadInput } from '../errors.js';
import { contextFor } from './_context.js';
import type { CliIO } from './_io.js';

const optionsSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).optional(),
  host: z.string().min(1).optional(),
  quiet: z.boolean().default(false),
});

export function registerServe(program: Command, io: CliIO): void {
  program
    .command('serve')
    .description('Serve the HTTP API over the store (a replayed store answers context reads from its recording and never calls a provider)')
    .option('--port <n>', 'port (env PORT, default 8787)')
    .option('--host <host>', 'interface to bind (env HOST, default 127.0.0.1)')
    .option('--quiet', 'no request log and no cron progress on stderr (warnings and the shutdown line stay)', false)
    .addHelpText(
      'after',
      '\nExamples:\n  $ propgrade serve\n  $ INTERNAL_API_KEY=... CORS_ORIGIN=https://app.example.com propgrade serve --host 0.0.0.0 --port 8787\n  $ SNAPSHOT_CRON=1 propgrade serve   # also runs the snapshot at 14,19,22,1,3 UTC\n  $ propgrade serve --now 2025-11-05T17:10:00Z   # pin the clock (a replayed store is served with each sport as of its own newest snapshot anyway)\n\nEach request logs one line on stderr (method, path without query values, status, ms), e.g.\n  GET /api/snapshot/nba 200 12 ms\n--quiet turns it off. Ctrl-C or SIGTERM closes cleanly and prints the number of requests served.\n\nContext reads (live, news, futures, combat, fight, stats game/lineup/depth/arsenal): a replayed store answers them from\nits recording (--replay, PROPGRADE_REPLAY, else the folder its snapshot read) and never calls a provider; without a\nreadable recording they answer 503 UNAVAILABLE_ON_REPLAY. A live store reads the providers; a failure\'s detail goes to\nstderr, never into a body.\n\nRoutes and auth: docs/api.md; GET /openapi.json describes every route.',
    )
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      // The raw options go with the issues so `--port abc` names 'abc', not the NaN coercion left.
      const opts = parseOrBadInput(optionsSchema, raw, '--');
      const { startApiServer, closeOnSignals, requestLogLine } = await import('../server/serve.js');
      const { openStoreAt, DEFAULT_DB_PATH } = await import('../store/db.js');
      // A server that runs its own snapshots (SNAPSHOT_CRON) may start on a new store; one that only reads may not.
      const store = await openStoreAt(ctx.dbPath() ?? DEFAULT_DB_PATH, { poolMax: ctx.config.PROPGRADE_DB_POOL, create: ctx.config.SNAPSHOT_CRON });
      const warn = (m: string): void => ctx.warn(m);
      const log = { info: opts.quiet ? () => {} : (m: string) => ctx.progress(m), warn };
      // The read-clock rule (README "The clock"): --now / PROPGRADE_NOW pin the server's clock; else a
      // store whose newest snapshot was replayed is served as of that snapshot; else the system clock.
      const { readClock, requestClock } = await import('../reads/read-clock.js');
      const clock = await readClock(store, ctx.explicitNow(), new Date(), ctx.config.SNAPSHOT_EXPECTED_INTERVAL);
      if (clock.note) ctx.log(clock.source === 'system' ? 'warn' : 'info', clock.note);
      const pinned = clock.source === 'system' ? null : clock;
      const config = { ...ctx.config, PROPGRADE_REPLAY: ctx.options.replay ?? ctx.config.PROPGRADE_REPLAY };
      const { contextSourceFor } = await import('../feeds/context.js');
      const source = await contextSourceFor(store, config, { replayDir: null, recordDir: null });
      if (source.kind === 'replay') ctx.progress(`context reads (live, news, stats, ...) answer from the recording ${source.dir}; no provider is called`);
      else if (source.kind === 'offline') ctx.warn(`context reads answer 503 UNAVAILABLE_ON_REPLAY: the store ${source.why}`);
      const explicit = clock.source === 'explicit' ? clock.now : null;
      const running = await startApiServer({
        // Each request reads its sport's clock; a read across sports, the newest snapshot's.
        ...(pinned ? { now: requestClock(pinned) } : {}),
        ...(explicit ? { runNow: () => explicit } : {}),
        store,
        // --replay reaches the server as PROPGRADE_REPLAY: the context routes answer from the recording.
        config,
        port: opts.port ?? ctx.config.PORT,
        host: opts.host ?? ctx.config.HOST,
        cron: ctx.config.SNAPSHOT_CRON,
        log,
        requestLog: opts.quiet ? null : (r) => (ctx.config.PROPGRADE_LOG_FORMAT === 'json' ? ctx.progress('request', r) : ctx.progress(requestLogLine(r))),
      });
      ctx.result({ url: running.url, cron: running.cronNext?.toISOString() ?? null }, (d) =>
        [`propgrade API listening on ${d.url}`, d.cron ? `snapshot cron on: next run ${d.cron}` : 'snapshot cron off (SNAPSHOT_CRON=1 to run it in-process; crontab.example is the recommended way)'].join('\n'),
      );
      // The open socket keeps the process alive; the first SIGINT/SIGTERM closes it cleanly, and
      // with the socket, cron, OCR worker and store closed the process exits on its own (code 0).
      closeOnSignals(running, { announce: (line) => ctx.progress(line), onError: (e) => warn(`shutdown: ${e instanceof Error ? e.message : String(e)}`) });
    });
}
