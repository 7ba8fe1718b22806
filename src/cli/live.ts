import type { Command } from 'commander';
import { z } from 'zod';
import { freshnessText, type Freshness } from '../domain/freshness.js';
import { gradedSportSchema } from '../domain/sports.js';
import { STATS, type StatType } from '../domain/stats.js';
import { isIsoDate } from '../domain/time.js';
import { badInput } from '../errors.js';
import type { ContextDeps } from '../feeds/context.js';
import type { LiveRow, LiveView } from '../reads/live.js';
import { contextFor, parseOptions, type CliContext } from './_context.js';
import { renderTable, show, type CliIO } from './_io.js';

/** Rows a table shows before --all. */
export const LIVE_TABLE_ROWS = 30;

const optionsSchema = z.object({
  date: z.string().refine(isIsoDate, { error: (iss) => `date must be yyyy-mm-dd, got '${String(iss.input)}'` }).optional(),
  all: z.boolean().default(false),
  refresh: z.boolean().default(false),
});

/**
 * Runs a context view (live, news, futures, combat, fight) the way the server does: the run's
 * clock, the replay/record folder, the context cache in the store. Feed warnings fold into one
 * stderr line unless --verbose.
 */
export async function withContext<T>(ctx: CliContext, fn: (deps: ContextDeps) => Promise<T>, sport?: string): Promise<T> {
  if (ctx.options.replay && ctx.options.record) throw badInput('choose either --replay <dir> or --record <dir>, not both');
  const { openRunEnvironment } = await import('./_run.js');
  const { openContextDeps } = await import('../feeds/context.js');
  // A view of one sport reads on that sport's clock (a replayed store's sports were recorded on different days).
  const env = await openRunEnvironment(ctx, { readClock: true, sport });
  ctx.dataNow = env.now;
  const warnings: string[] = [];
  const log = { info: (m: string) => env.log.info(m), warn: (m: string) => (ctx.options.verbose ? env.log.warn(m) : void warnings.push(m)) };
  const deps = await openContextDeps({ store: env.store, config: ctx.config, now: env.now, replayDir: env.replayDir, recordDir: ctx.options.record ?? null, log, ...(ctx.io.transport ? { live: ctx.io.transport } : {}) });
  // A read that learns its sport late (stats player) reads on that sport's clock, as scan does.
  deps.forSport = env.forSport;
  try {
    return await fn(deps);
  } finally {
    if (warnings.length > 0) {
      const more = warnings.length > 1 ? ` (+${warnings.length - 1} more)` : '';
      env.log.warn(`${warnings.length} feed warning${warnings.length === 1 ? '' : 's'}: ${warnings[0]}${more}; --verbose shows every line`);
    }
    await deps.close();
    await env.close();
  }
}

/** The freshness line of a view (domain/freshness.ts: fetched with its age live, recorded on a replay), stale marked. */
export function freshnessLine(ctx: CliContext, f: Freshness, what: string): string {
  const line = freshnessText(f, what, (iso) => ctx.dateTime(iso));
  return line.stale ? ctx.c.yellow(line.text) : ctx.c.dim(line.text);
}

export function registerLive(program: Command, io: CliIO): void {
  program
    .command('live')
    .description("Live tracking of the day's ledger and slate props: current value and a tracking state (never a grade)")
    .argument('<sport>', 'nba | wnba | mlb | soccer')
    .option('--date <yyyy-mm-dd>', 'ET game date (default: today at the run clock)')
    .option('--all', `every tracked prop, not the first ${LIVE_TABLE_ROWS}`, false)
    .option('--refresh', 'skip a fresh cached box score and ask the provider', false)
    .addHelpText(
      'after',
      '\nStates (docs/live.md). While a game runs: HIT (an over above its line, for the rest of the game), ON PACE (an over whose pace\n' +
        'reaches a winning total), NEEDS N (an over N short), HOLDS (an under below its line), LINE PASSED (an under at or past its line:\n' +
        'tracking, not a loss). Once the game is final: HIT, MISS, PUSH or VOID, from the ledger once settled, else from the final box score\n' +
        'by the settlement rule. Closest to hitting first. Box scores are cached 90 s; a provider failure shows the last good answer marked stale.\n\n' +
        'Examples:\n  $ propgrade live nba\n  $ propgrade live nba --date 2025-11-05 --replay data/replay --now 2025-11-06T12:00:00Z\n  $ propgrade live mlb --json',
    )
    .action(async (sportArg: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const sport = parseOptions(gradedSportSchema, sportArg);
      const opts = parseOptions(optionsSchema, raw);
      const { readLive } = await import('../reads/live.js');
      await withContext(ctx, async (deps) => {
        const view = await readLive(deps, sport, { ...(opts.date ? { date: opts.date } : {}), refresh: opts.refresh });
        ctx.result(view, (v) => renderLive(ctx, v, opts.all));
      }, sport);
    });
}

const signed = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

function stateText(ctx: CliContext, r: LiveRow): string {
  if (r.label === null) return ctx.c.dim('-');
  if (r.state === 'HIT') return ctx.c.green(r.label);
  if (r.state === 'ON PACE') return ctx.c.cyan(r.label);
  if (r.state === 'LINE PASSED' || r.state === 'MISS') return ctx.c.yellow(r.label);
  if (r.state === 'VOID') return ctx.c.dim(r.label);
  return r.label;
}

/** "120 HIT · 3 PUSH · 200 MISS · 10 VOID · 4 no state" */
export function stateCountsLine(v: Extract<LiveView, { available: true }>): string {
  return `States: ${v.stateCounts.map((c) => `${c.count} ${c.state ?? 'no state'}`).join(' · ')}`;
}

export function renderLive(ctx: CliContext, v: LiveView, all: boolean): string {
  if (!v.available) return `No live tracking for ${v.sport} on ${v.date}: ${v.reason}.`;
  const shown = all ? v.rows : v.rows.slice(0, LIVE_TABLE_ROWS);
  const head = [
    ctx.c.bold(`${v.sport.toUpperCase()} live tracking ${v.date} — ${v.count} tracked prop${v.count === 1 ? '' : 's'}`),
    ctx.c.dim(v.note),
    freshnessLine(ctx, v, 'box scores'),
  ];
  const games = v.games.map((g) => `${g.away ?? '?'} @ ${g.home ?? '?'}: ${g.clock ?? g.status}${g.boxScore === 'unavailable' ? ' (box score unavailable)' : ''}`);
  const table = renderTable(
    ['State', 'Phase', 'Player', 'Team', 'Stat', 'Side', 'Line', 'Now', 'Pace', 'Grade', 'From', 'Note'],
    shown.map((r) => [
      stateText(ctx, r),
      r.phase,
      r.player,
      show(r.team),
      STATS[r.stat as StatType]?.label ?? r.stat,
      r.side,
      signed(r.line),
      show(r.current, signed),
      show(r.paceProjection, (p) => p.toFixed(1)),
      show(r.grade),
      r.source,
      show(r.note),
    ]),
    ctx.color,
  );
  const more = shown.length < v.rows.length ? [ctx.c.dim(`${v.rows.length - shown.length} more: --all shows every tracked prop`)] : [];
  const legend = ctx.c.dim(
    'Phase: tracking = the game so far (a tracking state, never an outcome); final = the final box score by the settlement rule, not yet in the ledger; settled = the ledger outcome. Now: the stat so far, or its final value. From: ledger entry or slate-card row.',
  );
  return [...head, ...(games.length > 0 ? [ctx.c.dim(games.join(' · '))] : []), stateCountsLine(v), table, ...more, legend].join('\n');
}
