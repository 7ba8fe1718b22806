import type { Command } from 'commander';
import type { Readiness, SportReadiness } from '../domain/readiness.js';
import { contextFor } from './_context.js';
import { renderTable, show, type CliIO } from './_io.js';

const STATE_LEGEND = 'State: normal / amber (newest snapshot past 1.5x the expected interval) / stale (past 3x: not ready) / replayed (read as of its own recorded snapshot) / never_run.';

function sportRow(s: SportReadiness): Array<string | number> {
  return [s.sport, s.state, show(s.newestSnapshotAt), s.ageMinutes === null ? '-' : `${s.ageMinutes} min`, s.lastRun ? `${s.lastRun.status} ${s.lastRun.at}` : '-', s.lastSettle ? `${s.lastSettle.status} ${s.lastSettle.at}` : '-'];
}

function render(r: Readiness, color: boolean): string {
  const lines = [r.ready ? 'ready' : 'NOT READY', ...r.reasons.map((x) => `  reason: ${x}`), ...r.warnings.map((x) => `  warning: ${x}`)];
  lines.push(`migrations: ${r.migrations.current ? 'current' : `pending ${r.migrations.pending.join(', ')}`}`);
  lines.push(renderTable(['Sport', 'State', 'Newest snapshot', 'Age', 'Last snapshot run', 'Last settle'], r.sports.map(sportRow), color));
  lines.push(STATE_LEGEND);
  const c = r.credits;
  lines.push(`Odds API credits today (ET, wall clock): ${c.spentToday} spent${c.dailyBudget === null ? ', no daily budget set (ODDS_API_DAILY_BUDGET)' : ` of ${c.dailyBudget}, ${c.leftToday} left`}`);
  lines.push(r.locks.length === 0 ? 'run locks: none held' : `run locks: ${r.locks.map((l) => `${l.name} by ${l.owner} since ${l.since}${l.expired ? ' (past its lease)' : ''}`).join('; ')}`);
  return lines.join('\n');
}

export function registerStatus(program: Command, io: CliIO): void {
  program
    .command('status')
    .description('Operator status: store and migrations, each sport’s freshness, last runs, credits and run locks; exit 1 when not ready')
    .addHelpText('after', '\nThe same checks as GET /readyz (docs/operations.md). Exit 0 ready, 1 not ready, 2 bad input.\n\nExamples:\n  $ propgrade status\n  $ propgrade status --json')
    .action(async (_raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const { openStoreAt, DEFAULT_DB_PATH } = await import('../store/db.js');
      const { storeIsMissing } = await import('../store/operate.js');
      const path = ctx.dbPath() ?? DEFAULT_DB_PATH;
      if (storeIsMissing(path)) {
        ctx.result({ ready: false, reasons: [`no store at ${path}: run \`propgrade snapshot all\` first`] }, (d) => `NOT READY\n  reason: ${d.reasons[0]}`);
        io.exitCode = 1;
        return;
      }
      const { readReadiness } = await import('../reads/health.js');
      // Opened without migrating: status reports pending migrations instead of applying them.
      const store = await openStoreAt(path, { migrate: false });
      try {
        const r = await readReadiness(store, ctx.config, new Date());
        ctx.result(r, (d) => render(d, ctx.color));
        if (!r.ready) io.exitCode = 1;
      } finally {
        await store.close();
      }
    });
}
