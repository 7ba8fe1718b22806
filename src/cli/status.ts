import type { Command } from 'commander';
import type { Readiness, SportReadiness } from '../domain/readiness.js';
import { contextFor } from './_context.js';
import { renderTable, show, type CliIO } from './_io.js';

const STATE_LEGEND = 'State: normal / amber (newest snapshot past 1.5x the expected interval) / stale (past 3x: not ready) / replayed (read as of its own recorded snapshot) / never_run.';
// A run stores the time it ran at on its own data clock (a replayed settle at its --now), while ages and
// locks run on the wall clock: each heading names its clock so the two are never read as one.
const CLOCK_LEGEND =
  "Clocks: snapshot and run times are on each run's data clock (its --now or replay time, else the wall clock it ran at); Age says its clock (a replayed sport is read as of its own snapshot, so 0); run locks are on the wall clock.";
const HEADINGS = ['Sport', 'State', 'Newest snapshot (data clock)', 'Age', 'Last snapshot run (data clock)', 'Last settle (data clock)', 'Last close run (data clock)'];

/** The age names its clock: the wall clock, or a replayed sport's own snapshot (always 0). */
function ageCell(s: SportReadiness): string {
  if (s.ageMinutes === null) return '-';
  return `${s.ageMinutes} min (${s.clock === 'replay_snapshot' ? 'replay' : 'wall clock'})`;
}

function sportRow(s: SportReadiness): Array<string | number> {
  return [s.sport, s.state, show(s.newestSnapshotAt), ageCell(s), s.lastRun ? `${s.lastRun.status} ${s.lastRun.at}` : '-', s.lastSettle ? `${s.lastSettle.status} ${s.lastSettle.at}` : '-', s.lastClose ? `${s.lastClose.status} ${s.lastClose.at}` : '-'];
}

function render(r: Readiness, color: boolean): string {
  const lines = [r.ready ? 'ready' : 'NOT READY', ...r.reasons.map((x) => `  reason: ${x}`), ...r.warnings.map((x) => `  warning: ${x}`)];
  lines.push(`migrations: ${r.migrations.current ? 'current' : `pending ${r.migrations.pending.join(', ')}`}`);
  lines.push(renderTable(HEADINGS, r.sports.map(sportRow), color));
  lines.push(STATE_LEGEND, CLOCK_LEGEND);
  const c = r.credits;
  lines.push(`Odds API credits today (ET, wall clock): ${c.spentToday} spent${c.dailyBudget === null ? ', no daily budget set (ODDS_API_DAILY_BUDGET)' : ` of ${c.dailyBudget}, ${c.leftToday} left`}`);
  lines.push(r.locks.length === 0 ? 'run locks: none held' : `run locks: ${r.locks.map((l) => `${l.name} by ${l.owner} since ${l.since} (wall clock)${l.expired ? ' (past its lease)' : ''}`).join('; ')}`);
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
