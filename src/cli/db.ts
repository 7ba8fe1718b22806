import type { Command } from 'commander';
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
}
