import type { Command } from 'commander';
import { z } from 'zod';
import { isIsoDate } from '../domain/time.js';
import type { LiveTransportOptions } from '../feeds/transport/live.js';
import type { FeedsCheckReport, ProbeBases, ProviderReport } from '../jobs/feeds-check.js';
import { contextFor, parseOptions } from './_context.js';
import { renderTable, show, type CliIO } from './_io.js';

const checkOptionsSchema = z.object({ date: z.string().refine(isIsoDate, 'expected yyyy-mm-dd').optional() });

/** Test seams: where live probes go and how patient the live transport is. */
export interface FeedsCommandOptions {
  probeBases?: ProbeBases;
  live?: Partial<LiveTransportOptions>;
}

export function registerFeeds(program: Command, io: CliIO, options: FeedsCommandOptions = {}): void {
  const feeds = program.command('feeds').description('Inspect the provider feeds');

  feeds
    .command('check')
    .description('Doctor: per provider, what was reachable, how many records parsed, and every warning')
    .option('--date <yyyy-mm-dd>', 'live mode: the slate date to probe (default: today, US Eastern)')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ propgrade feeds check --replay data/replay      # every recorded response, parsed by its adapter',
        '  $ propgrade feeds check --date 2025-11-05         # live probes (Odds API only with ODDS_API_KEY)',
        '  $ propgrade feeds check --record rec/ --json      # live probes, saved as a replay folder',
        '',
        'Live probes: Odds API sports list and events per graded sport (both free of credits),',
        'ESPN scoreboards, the MLB schedule and both Savant CSVs. Exit 1 when a probed provider was',
        'unreachable, a response could not be parsed, or a recorded URL has no known kind.',
      ].join('\n'),
    )
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(checkOptionsSchema, raw);
      const service = await import('../jobs/feeds-check.js');
      const replayDir = ctx.options.replay ?? ctx.config.PROPGRADE_REPLAY;
      let report: FeedsCheckReport;
      if (replayDir) {
        if (opts.date) ctx.progress('--date applies to live probes only; a replay check reads every recorded entry');
        report = await service.checkReplayFolder(replayDir);
      } else {
        const { probeTransport, providerOrigins } = await import('../feeds/factory.js');
        const transport = probeTransport({ recordDir: ctx.options.record ?? null, now: () => ctx.now(), origins: providerOrigins(ctx.config), ...(options.live ? { live: options.live } : {}) });
        try {
          report = await service.checkLive(transport, {
            now: ctx.now(),
            oddsApiKey: ctx.config.ODDS_API_KEY,
            ...(opts.date ? { date: opts.date } : {}),
            ...(options.probeBases ? { bases: options.probeBases } : {}),
          });
        } finally {
          await transport.close?.();
        }
      }
      ctx.result(report, (r) => renderReport(r, ctx.color));
      io.exitCode = report.ok ? 0 : 1;
    });
}

function credits(p: ProviderReport): string | null {
  if (!p.credits) return null;
  return `credits: remaining ${show(p.credits.remaining)}, used ${show(p.credits.used)}, last call ${show(p.credits.last)}`;
}

function providerHeading(p: ProviderReport): string {
  if (p.skipped) return `${p.provider}: skipped (${p.skipped})`;
  const state = p.reachable ? 'reachable' : 'NOT reachable';
  return `${p.provider}: ${state}, ${p.parsed} of ${p.entries} parsed${p.unknown ? `, ${p.unknown} unknown kind` : ''}`;
}

/** One table per provider, then its failures and warnings, all on stdout. */
export function renderReport(report: FeedsCheckReport, color: boolean): string {
  const out: string[] = [report.mode === 'replay' ? `feeds check: replay folder ${report.source}` : `feeds check: live probes for ${report.date}`];
  for (const w of report.warnings) out.push(`! ${w}`);
  for (const p of report.providers) {
    out.push('', providerHeading(p));
    if (p.skipped) continue;
    out.push(
      renderTable(
        ['kind', 'entries', 'records', 'failed', 'warnings'],
        p.kinds.map((k) => [k.kind, k.entries, k.parsed > 0 ? `${k.records} ${k.unit ?? ''}`.trim() : '-', k.failed, k.warnings]),
        color,
      ),
    );
    const line = credits(p);
    if (line) out.push(line);
    for (const e of report.entries.filter((x) => x.provider === p.provider)) {
      const where = e.file ?? e.url;
      if (e.outcome !== 'parsed') out.push(`  x ${where}: ${e.outcome}${e.status !== null ? ` (HTTP ${e.status})` : ''}${e.reason ? `: ${e.reason}` : ''}`);
      for (const w of e.warnings) out.push(`  ! ${where}: ${w}`);
    }
  }
  out.push('', report.ok ? 'OK: every checked provider answered and parsed' : 'FAILED: see the x lines above');
  return out.join('\n');
}
