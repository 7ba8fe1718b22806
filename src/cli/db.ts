import type { Command } from 'commander';
import { AppError } from '../errors.js';
import { contextFor } from './_context.js';
import { renderTable, type CliIO } from './_io.js';

export function registerDb(program: Command, io: CliIO): void {
  const db = program
    .command('db')
    .description('Operate on the SQLite store')
    .addHelpText('after', '\nExamples:\n  $ propgrade db status\n  $ propgrade --db /srv/propgrade.sqlite db migrate');

  db.command('migrate')
    .description('Create the store if needed and apply pending migrations')
    .addHelpText('after', '\nExample:\n  $ propgrade db migrate --json')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { openStore, migrationStatus, DEFAULT_DB_PATH } = await import('../store/db.js');
      const path = ctx.dbPath() ?? DEFAULT_DB_PATH;
      const before = migrationStatus(path);
      openStore(path).close();
      const after = migrationStatus(path);
      const applied = before.pending.filter((tag) => !after.pending.includes(tag));
      ctx.result({ path: after.path, applied, pending: after.pending }, (d) =>
        d.applied.length === 0
          ? `${d.path}: up to date (${after.applied.length} migrations applied)`
          : `${d.path}: applied ${d.applied.join(', ')}`,
      );
    });

  db.command('status')
    .description('Show the store path, applied and pending migrations, and table row counts')
    .addHelpText('after', '\nExample:\n  $ propgrade db status')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { migrationStatus, DEFAULT_DB_PATH } = await import('../store/db.js');
      const status = migrationStatus(ctx.dbPath() ?? DEFAULT_DB_PATH);
      ctx.result(status, (s) => {
        if (!s.exists) return `${s.path}: no store yet (${s.pending.length} migrations pending; run \`propgrade db migrate\`)`;
        const head = `${s.path}\njournal: ${s.journalMode}; applied: ${s.applied.map((a) => a.tag).join(', ') || 'none'}; pending: ${s.pending.join(', ') || 'none'}`;
        return `${head}\n${renderTable(['table', 'rows'], s.tables.map((t) => [t.name, t.rows]), ctx.color)}`;
      });
    });

  db.command('check')
    .description('Check the store: SQLite integrity, foreign keys, orphan rows (exit 1 when anything is wrong)')
    .addHelpText('after', '\nExamples:\n  $ propgrade db check\n  $ propgrade --db backups/pg-2025-11-06.sqlite db check --json')
    .action(async (_opts: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { DEFAULT_DB_PATH } = await import('../store/db.js');
      const { checkStore } = await import('../store/maintenance.js');
      let report;
      try {
        report = checkStore(ctx.dbPath() ?? DEFAULT_DB_PATH);
      } catch (error) {
        throw new AppError('NOT_FOUND', error instanceof Error ? error.message : String(error));
      }
      ctx.result(report, (r) =>
        [
          `${r.path}: ${r.ok ? 'ok' : 'PROBLEMS FOUND'}`,
          `integrity_check: ${r.integrity.join('; ')}`,
          `foreign keys: ${r.foreignKeyViolations.length === 0 ? 'ok' : r.foreignKeyViolations.map((v) => `${v.table} row ${v.rowid ?? '?'} -> ${v.parent}`).join('; ')}`,
          `orphan rows: ${r.orphans.length === 0 ? 'none' : r.orphans.map((o) => `${o.relation}: ${o.rows}`).join('; ')}`,
        ].join('\n'),
      );
      if (!report.ok) io.exitCode = 1;
    });

  db.command('backup')
    .description('Copy the store to a new file with SQLite\'s online backup (safe while serve and cron run), then check the copy')
    .argument('<file>', 'the backup file to create (never overwritten)')
    .addHelpText('after', '\nExample:\n  $ propgrade db backup backups/pg-$(date -u +%F).sqlite')
    .action(async (file: string, _opts: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { DEFAULT_DB_PATH } = await import('../store/db.js');
      const { backupStore } = await import('../store/maintenance.js');
      const { mkdirSync } = await import('node:fs');
      const { dirname } = await import('node:path');
      mkdirSync(dirname(file), { recursive: true });
      let result;
      try {
        result = await backupStore(ctx.dbPath() ?? DEFAULT_DB_PATH, file);
      } catch (error) {
        throw new AppError('BAD_INPUT', error instanceof Error ? error.message : String(error));
      }
      ctx.result(result, (r) => `backed up ${r.source} -> ${r.target}: ${r.pages} pages, ${r.bytes.toLocaleString('en-US')} bytes; check of the copy: ${r.check.ok ? 'ok' : 'PROBLEMS FOUND'}`);
      if (!result.check.ok) io.exitCode = 1;
    });
}
