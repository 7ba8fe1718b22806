import type { Command } from 'commander';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { contextFor } from './_context.js';
import { renderTable, type CliIO } from './_io.js';

export function registerDb(program: Command, io: CliIO): void {
  const db = program
    .command('db')
    .description('Operate on the store (an SQLite file or a PostgreSQL database)')
    .addHelpText('after', '\nExamples:\n  $ propgrade db status\n  $ propgrade --db /srv/propgrade.sqlite db migrate\n  $ propgrade --db postgres://propgrade@db.internal:5432/propgrade db status');

  db.command('migrate')
    .description('Create the store if needed and apply pending migrations')
    .addHelpText('after', '\nExample:\n  $ propgrade db migrate --json')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { DEFAULT_DB_PATH } = await import('../store/db.js');
      const { migrateStore } = await import('../store/operate.js');
      const r = await migrateStore(ctx.dbPath() ?? DEFAULT_DB_PATH);
      ctx.result({ path: r.path, applied: r.applied, pending: r.pending }, (d) =>
        d.applied.length === 0 ? `${d.path}: up to date (${r.appliedTotal} migrations applied)` : `${d.path}: applied ${d.applied.join(', ')}`,
      );
    });

  db.command('status')
    .description('Show the store in use (a file path, or a PostgreSQL URL without its password), applied and pending migrations, and table row counts')
    .addHelpText('after', '\nExample:\n  $ propgrade db status')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { DEFAULT_DB_PATH } = await import('../store/db.js');
      const { storeStatus } = await import('../store/operate.js');
      const status = await storeStatus(ctx.dbPath() ?? DEFAULT_DB_PATH);
      ctx.result(status, (s) => {
        if (!s.exists) return `${s.path}: no store yet (${s.pending.length} migrations pending; run \`propgrade db migrate\`)`;
        const head = `${s.path}\n${s.journalMode ? `journal: ${s.journalMode}` : 'engine: PostgreSQL'}; applied: ${s.applied.map((a) => a.tag).join(', ') || 'none'}; pending: ${s.pending.join(', ') || 'none'}`;
        return `${head}\n${renderTable(['table', 'rows'], s.tables.map((t) => [t.name, t.rows]), ctx.color)}`;
      });
    });

  db.command('check')
    .description("Check the store: integrity (SQLite's checks; on PostgreSQL the server's page checksums setting and unvalidated foreign keys), foreign keys, orphan rows (exit 1 when anything is wrong)")
    .addHelpText('after', '\nExamples:\n  $ propgrade db check\n  $ propgrade --db backups/pg-2025-11-06.sqlite db check --json')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { DEFAULT_DB_PATH } = await import('../store/db.js');
      const { checkStoreAt } = await import('../store/operate.js');
      const report = await checkStoreAt(ctx.dbPath() ?? DEFAULT_DB_PATH);
      ctx.result(report, (r) =>
        [
          `${r.path}: ${r.ok ? 'ok' : 'PROBLEMS FOUND'}`,
          `${r.integrityLabel}: ${r.integrity.join('; ')}`,
          `foreign keys: ${r.foreignKeyViolations.length === 0 ? 'ok' : r.foreignKeyViolations.map((v) => `${v.table} row ${v.rowid ?? '?'} -> ${v.parent}`).join('; ')}`,
          `orphan rows: ${r.orphans.length === 0 ? 'none' : r.orphans.map((o) => `${o.relation}: ${o.rows}`).join('; ')}`,
        ].join('\n'),
      );
      if (!report.ok) io.exitCode = 1;
    });

  db.command('backup')
    .description("Back up the store to a new file (safe while serve and cron run): SQLite's online backup, then a check of the copy; on PostgreSQL pg_dump's custom format, then pg_restore --list of the archive")
    .argument('<file>', 'the backup file to create (never overwritten)')
    .addHelpText('after', '\nExamples:\n  $ propgrade db backup backups/pg-$(date -u +%F).sqlite\n  $ propgrade --db postgres://propgrade@db.internal/propgrade db backup backups/pg-$(date -u +%F).dump')
    .action(async (file: string, _opts: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { DEFAULT_DB_PATH } = await import('../store/db.js');
      const { backupStoreAt } = await import('../store/operate.js');
      const { mkdirSync } = await import('node:fs');
      const { dirname } = await import('node:path');
      mkdirSync(dirname(file), { recursive: true });
      const result = await backupStoreAt(ctx.dbPath() ?? DEFAULT_DB_PATH, file);
      ctx.result(result, (r) => `backed up ${r.source} -> ${r.target}: ${r.method}, ${r.bytes.toLocaleString('en-US')} bytes; check of the copy: ${r.check.ok ? 'ok' : 'PROBLEMS FOUND'}`);
      if (!result.check.ok) io.exitCode = 1;
    });

  db.command('copy')
    .description('Copy every row of the store into an empty store of either engine (SQLite to PostgreSQL and back), ids kept, verified by row counts')
    .requiredOption('--to <target>', 'the empty target: a postgres:// URL or an SQLite file path')
    .addHelpText('after', '\nExamples:\n  $ propgrade db copy --to postgres://propgrade@db.internal:5432/propgrade\n  $ propgrade --db postgres://propgrade@db.internal/propgrade db copy --to var/propgrade-copy.sqlite')
    .action(async (opts: { to: string }, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { openStoreAt, DEFAULT_DB_PATH } = await import('../store/db.js');
      const { copyStore } = await import('../store/copy.js');
      const target = z.string().trim().min(1).max(2048).parse(opts.to);
      const sourcePath = ctx.dbPath() ?? DEFAULT_DB_PATH;
      const source = await openStoreAt(sourcePath);
      try {
        const to = await openStoreAt(target);
        try {
          if (to.label === source.label) throw new AppError('BAD_INPUT', 'the copy target is the source store');
          const report = await copyStore(source, to, (table, rows) => ctx.progress(`copied ${table}: ${rows} rows`));
          ctx.result({ source: source.label, target: to.label, ...report }, (r) =>
            [`copied ${r.source} -> ${r.target}: ${r.rows.toLocaleString('en-US')} rows, every table's count equal on both sides`, renderTable(['table', 'source rows', 'target rows'], r.tables.map((x) => [x.table, x.source, x.target]), ctx.color)].join('\n'),
          );
        } finally {
          await to.close();
        }
      } finally {
        await source.close();
      }
  });
}
