import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { z } from 'zod';
import type { SeasonTier } from '../domain/season-record.js';
import { beatCloseCell, CLOSE_LEAD_BANDS, CLOSE_LEAD_SHORT } from '../domain/close-lead.js';
import { MIN_SAMPLE } from '../domain/record-gate.js';
import { gradedSportSchema } from '../domain/sports.js';
import { isIsoDate } from '../domain/time.js';
import { badInput } from '../errors.js';
import type { SimulateReport } from '../jobs/simulate.js';
import { contextFor, parseOptions } from './_context.js';
import { renderTable, show, type CliIO } from './_io.js';

const optionsSchema = z.object({
  from: z.string().refine(isIsoDate, 'expected yyyy-mm-dd').optional(),
  to: z.string().refine(isIsoDate, 'expected yyyy-mm-dd').optional(),
});

export function registerSimulate(program: Command, io: CliIO): void {
  program
    .command('simulate')
    .description("Run the cron schedule over a season's replay folder: every recorded snapshot, a settle each morning, then the season's public record")
    .argument('<sport>', 'nba | wnba | mlb')
    .option('--from <yyyy-mm-dd>', 'first ET slate date to run (default: the folder\'s first)')
    .option('--to <yyyy-mm-dd>', 'last ET slate date to run (default: the folder\'s last)')
    .addHelpText(
      'after',
      '\nExample (build the folder first, then run on a fresh store: the record is the store\'s public ledger for those dates):\n' +
        '  $ node scripts/build-season-replay.mjs wnba var/season-wnba\n' +
        '  $ PROPGRADE_DB=var/sim-wnba.sqlite propgrade simulate wnba --replay var/season-wnba\n\n' +
        'Progress goes to stderr (a bar on a terminal); the per-tier record to stdout (--json for the data).',
    )
    .action(async (sportArg: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const sport = parseOptions(gradedSportSchema, sportArg);
      const opts = parseOptions(optionsSchema, raw);
      const replayDir = ctx.options.replay ?? ctx.config.PROPGRADE_REPLAY;
      if (!replayDir) throw badInput('simulate needs --replay <dir> (a folder from scripts/build-season-replay.mjs)');
      if (!existsSync(replayDir)) throw badInput(`no such folder: ${replayDir}`);
      const { openStoreAt, DEFAULT_DB_PATH } = await import('../store/db.js');
      const { runSimulation } = await import('../jobs/simulate.js');
      const store = await openStoreAt(ctx.dbPath() ?? DEFAULT_DB_PATH);
      const bar = io.isTTY && !ctx.options.json;
      let lastLine = 0;
      try {
        const report = await runSimulation({
          store,
          sport,
          replayDir,
          config: ctx.config,
          ...(opts.from ? { from: opts.from } : {}),
          ...(opts.to ? { to: opts.to } : {}),
          // The runs' own lines are per-snapshot noise over a season: --verbose shows them.
          log: { info: (m) => ctx.verbose(m), warn: (m) => ctx.verbose(`warning: ${m}`) },
          onStep: (done, total, label) => {
            if (bar) {
              const width = 30;
              const filled = Math.round((width * done) / total);
              io.stderr(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${label}   `);
              if (done === total) io.stderr('\n');
            } else if (done === total || done - lastLine >= Math.max(1, Math.floor(total / 10))) {
              lastLine = done;
              ctx.progress(`simulate ${sport}: ${done}/${total} runs (${label})`);
            }
          },
        });
        ctx.result(report, (r) => renderReport(r, ctx.color));
      } finally {
        await store.close();
      }
    });
}

const pct = (v: number): string => `${(100 * v).toFixed(1)}%`;
const signed = (v: number): string => `${v >= 0 ? '+' : ''}${v.toFixed(1)}%`;

function renderReport(r: SimulateReport, color: boolean): string {
  const rows = Object.entries(r.record).map(([tier, t]) => {
    const s = t as SeasonTier;
    return [
      tier,
      s.n,
      show(s.hitRate, pct),
      s.hitRateCi95 ? `${pct(s.hitRateCi95[0])} .. ${pct(s.hitRateCi95[1])}` : '-',
      s.claimedEvPct === null ? '-' : `${signed(s.claimedEvPct)} (n=${s.claimedEvN})`,
      show(s.roiPct.value, signed),
      s.roiPct.ci95 ? `${signed(s.roiPct.ci95[0])} .. ${signed(s.roiPct.ci95[1])}` : '-',
      s.withClose,
      ...s.beatCloseByLead.map(beatCloseCell),
      ...s.beatClosePinnacleByLead.map(beatCloseCell),
      s.voids,
      s.pending,
    ];
  });
  const runs = Object.entries(r.snapshotStatus).map(([k, v]) => `${v} ${k}`).join(', ');
  return [
    `Simulated ${r.sport} season from ${r.replay}: ${r.snapshots} snapshots (${runs || 'none'}), ${r.settles} settles; ${r.gradedRows} graded rows, ${r.ledgerEntries} public ledger entries`,
    `wall ${r.wallSeconds.toFixed(1)} s: snapshots ${r.snapshotSeconds.toFixed(1)} s (${show(r.secondsPerSnapshot, (v) => v.toFixed(3))} s each), settles ${r.settleSeconds.toFixed(1)} s`,
    '',
    'Public record per tier (settled hit/miss/push; claimed EV = mean EV of the settled stakes\' locked prices at p_win; ROI at the locked price, 95% interval over games)',
    renderTable(['tier', 'n', 'hit', 'hit 95% CI', 'claimed EV', 'ROI', 'ROI 95% CI (games)', 'with close', ...CLOSE_LEAD_BANDS.map((b) => `beat close ${CLOSE_LEAD_SHORT[b]}`), ...CLOSE_LEAD_BANDS.map((b) => `beat Pinnacle ${CLOSE_LEAD_SHORT[b]}`), 'void', 'pending'], rows, color),
    `beat close ≤30m / 30m–3h / >3h: share of the entries whose close (taken within 30 min of the start, 30 min to 3 h before it, more than 3 h before it) the locked price beat (against the other books' no-vig consensus; beat Pinnacle: against Pinnacle's own no-vig close, where it priced the line, by that close's lead); a % at n >= ${MIN_SAMPLE} with its 95% Wilson interval, else "n of ${MIN_SAMPLE} needed"`,
  ].join('\n');
}
