import type { Command } from 'commander';
import { z } from 'zod';
import { playerNameSchema } from '../domain/names.js';
import { capLegendLines, formatEvPct, markedGrade } from '../domain/model/grading.js';
import { gradedSportSchema } from '../domain/sports.js';
import { STATS } from '../domain/stats.js';
import { hasModelPriceEntitlement, shapeRow, tierSchema, type Tier } from '../domain/tiers.js';
import { localDateTime } from '../domain/time.js';
import type { ScanResult } from '../jobs/scan.js';
import { contextFor, parseOptions, type CliContext } from './_context.js';
import { pct, renderTable, show, signedAmerican, type CliIO } from './_io.js';

/** A number typed on the command line; "abc" or "" is bad input, never NaN. */
export const lineArgSchema = z
  .string()
  .trim()
  .refine((s) => /^-?(\d+(\.\d*)?|\.\d+)$/.test(s), { error: (iss) => `line must be a number, got '${String(iss.input)}'` })
  .transform(Number);

export const sideArgSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
  z.enum(['over', 'under'], { error: (iss) => `side must be over or under, got '${String(iss.input)}'` }),
);

export const tierArgSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
  z.enum(tierSchema.options, { error: (iss) => `tier must be free, analyst or desk, got '${String(iss.input)}'` }),
);

const optionsSchema = z.object({
  player: playerNameSchema,
  stat: z.string(),
  line: lineArgSchema,
  direction: sideArgSchema,
  sport: gradedSportSchema.optional(),
  user: z.coerce.number({ error: 'user must be a numeric user id' }).int().positive().optional(),
  tier: tierArgSchema,
});

export function registerScan(program: Command, io: CliIO): void {
  program
    .command('scan')
    .description('Grade one player/stat/line/side with the snapshot engine from stored history (no provider calls)')
    .requiredOption('--player <name>', 'player name (resolved by normalized key; ambiguous names are refused)')
    .requiredOption('--stat <stat>', 'stat: points, rebounds, assists, threes, pra, blocks, steals, hits, total_bases, home_runs, strikeouts, shots, shots_on_target')
    .requiredOption('--line <n>', 'the line (stat threshold)')
    .requiredOption('--direction <side>', 'over | under')
    .option('--sport <sport>', 'nba | wnba | mlb | soccer (default: wherever the stat and player are)')
    .option('--user <id>', 'write the graded scan to this user’s ledger (anonymous scans never touch the ledger)')
    .option('--tier <tier>', 'free | analyst | desk: preview what a tier sees (free hides model prices); the local owner sees everything', 'desk')
    .addHelpText(
      'after',
      '\nExamples:\n  $ propgrade --replay data/replay scan --player "Shai Gilgeous-Alexander" --stat points --line 31.5 --direction over\n  $ propgrade --replay data/replay scan --player "Deni Avdija" --stat pts --line 24.5 --direction over --tier free --json   # what a free API caller sees\n\nExit codes: 0 a result (graded or refused), 1 the player name did not resolve (unknown: with did-you-mean names; ambiguous: with candidates), 2 bad input.',
    )
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(optionsSchema, raw);
      const { scanRequestSchema, runScan } = await import('../jobs/scan.js');
      const { evaluateProp } = await import('../reads/evaluate-prop.js');
      const request = parseOptions(scanRequestSchema, { player: opts.player, stat: opts.stat, line: opts.line, direction: opts.direction, sport: opts.sport });
      const { openRunEnvironment } = await import('./_run.js');
      // The player's sport is known only once the name resolves; its clock is said then.
      const env = await openRunEnvironment(ctx, { readClock: true, clockNoteLater: true });
      try {
        const result = await runScan(env.store, request, { now: env.forSport, userId: opts.user ?? null, evaluate: evaluateProp });
        if (result.sport) env.sayClock(result.sport);
        const shaped = shapeRow(result, opts.tier);
        ctx.result(shaped, () => renderScan(ctx, result, opts.tier));
        // Nothing was graded because the name did not resolve: the caller must fix it.
        if (result.status === 'unknown_player' || result.status === 'ambiguous') io.exitCode = 1;
      } finally {
        await env.close();
      }
    });
}

/** What each label of the scan's tables means (every label has its legend line). */
function scanLegend(stat: string): string[] {
  const unit = STATS[stat as keyof typeof STATS]?.unit ?? stat;
  return [
    'Grade = EV of the price against the market: A+ ≥ +5%, A +2..5%, B 0..+2%, C −4..0%, F below −4% (of the EV as printed); X* = capped (the line below says why).',
    `Projection = the model's projection of the stat, in ${unit}; it is required for a grade but never enters the EV.`,
    "Fair P(win) = the market's no-vig fair probability of the side; Fair = the same as an American price; EV = the price's expected value at that fair, % of stake.",
    'Nudge = how far a model term moved the fair, in probability points (pp); 0 unless a term passed the held-out gate (docs/model.md §3). Takeable = an A or A+ claim.',
    "Price = the best price (Book); Fair prob = the market's fair probability; Overround = the book's margin on the pair; De-vig = how the margin was removed.",
    `Season avg / Form (last 5) = ${unit} per played game this season / over the last 5; Usage = FGA + 0.44 x FTA per game; Minutes = per game; Games = played this season.`,
  ];
}

function projectionLine(r: ScanResult): string {
  if (r.projectionProb === null) return "Projection's view: none (no projection probability for this read)";
  const rec = r.projectionRecord;
  const record =
    rec === null
      ? 'no held-out record for this stat'
      : `held out ${rec.heldOutFrom}..${rec.heldOutTo}: log loss ${rec.projectionLogLoss.toFixed(4)} vs the market's ${rec.marketLogLoss.toFixed(4)} over ${rec.props} props`;
  return `Projection's view (not the letter's): P(win) ${pct(r.projectionProb)}, ${show(r.projectionOdds, signedAmerican)}, EV ${show(r.projectionEvPct, formatEvPct)}; ${record}`;
}

export function renderScan(ctx: CliContext, r: ScanResult, tier: Tier): string {
  const ask = `${r.request.player} ${r.request.stat} ${r.request.direction} ${r.request.line}`;
  if (r.status === 'unknown_player') {
    const hint = r.suggestions && r.suggestions.length > 0 ? `\nDid you mean: ${r.suggestions.map((s) => s.name).join(', ')}?` : '';
    return `No player matching '${r.request.player}' in the store (history or latest snapshot). Nothing graded.${hint}`;
  }
  if (r.status === 'ambiguous') {
    const names = (r.candidates ?? []).map((c) => `  ${c.name} (${c.sport})`).join('\n');
    return `'${r.request.player}' is ambiguous; nothing graded. Candidates:\n${names}\nRun again with the full name.`;
  }
  const p = r.player!;
  const head = ctx.c.bold(`${p.name}${p.team ? ` (${p.team})` : ''} — ${r.request.stat} ${r.request.direction} ${r.request.line}`);
  const game = r.game ? `${r.game.label}, ${localDateTime(r.game.commenceTime, ctx.config.PROPGRADE_TZ)}` : `no upcoming game on the latest ${r.sport} snapshot; graded as of ${r.gradedFor}`;
  const lines = [head, ctx.c.dim(game)];
  if (r.status === 'refused') {
    lines.push(`${ctx.c.yellow('Refused')} (insufficient_data): ${r.refusalReason ?? 'no projection'}`);
  } else {
    const entitled = hasModelPriceEntitlement(tier);
    lines.push(
      renderTable(
        ['Grade', 'Projection', 'Fair P(win)', 'Fair', 'EV', 'Nudge', 'Takeable'],
        [
          [
            markedGrade(r.grade, r.capReason) ?? '-',
            show(r.projection, (v) => `${v.toFixed(1)} ${STATS[r.request.stat].unit}`),
            show(r.pWin, (v) => pct(v)),
            show(r.modelOdds, signedAmerican),
            show(r.evPct, formatEvPct),
            show(r.value, (v) => `${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)} pp`),
            show(r.takeable === null ? null : r.takeable ? 'yes' : 'no'),
          ],
        ],
        ctx.color,
      ),
    );
    for (const l of capLegendLines([r])) lines.push(ctx.c.dim(l));
    // The paid view is the projection's own price, never the market's (docs/api.md "What a tier buys").
    if (entitled) lines.push(projectionLine(r));
    else lines.push(ctx.c.dim("The projection's own probability, price and EV, with its held-out record, are for the analyst and desk tiers."));
  }
  const i = r.intel;
  lines.push(
    renderTable(
      ['Season avg', 'Form (last 5)', 'Usage', 'Minutes', 'Games', 'Archetype'],
      [[show(i.seasonAvg), show(i.form), show(i.usage), show(i.minutesAvg), show(i.games), show(i.archetype)]],
      ctx.color,
    ),
  );
  if (r.prices) {
    const pr = r.prices;
    lines.push(
      renderTable(
        ['Book', 'Price', 'Fair', 'Fair prob', 'Overround', 'De-vig'],
        [[show(pr.book), signedAmerican(pr.bookOdds), signedAmerican(pr.fairOdds), show(pr.fairProb, (v) => pct(v)), show(pr.overround, (v) => pct(v)), show(pr.devigMethod)]],
        ctx.color,
      ),
    );
  } else {
    const why = r.game === null ? `${p.name} has no game on the latest ${r.sport} snapshot that has not started yet` : `the latest snapshot has no two-sided price for ${ask}`;
    lines.push(ctx.c.dim(`No book/fair prices: ${why}.`));
  }
  const legend = scanLegend(r.request.stat);
  lines.push(...(r.status === 'graded' ? legend : legend.slice(-2)).map((l) => ctx.c.dim(l)));
  lines.push(r.ledger.written ? ctx.c.green('Written to the ledger.') : ctx.c.dim(`Ledger: not written (${r.ledger.reason ?? 'not asked'}).`));
  return lines.join('\n');
}
