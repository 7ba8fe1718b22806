import type { Command } from 'commander';
import { z } from 'zod';
import { REFUSAL_LEGEND, REFUSAL_WORDS, refusalWord } from '../domain/refusal.js';
import { capLegendLines, formatEvPct, markedGrade } from '../domain/model/grading.js';
import { isAbsolute, relative } from 'node:path';
import { gradedSportSchema, type GradedSport } from '../domain/sports.js';
import { shellQuote } from '../slips/commands.js';
import type { Store } from '../store/db.js';
import { STATS, type StatType } from '../domain/stats.js';
import { localClock, localDateTime } from '../domain/time.js';
import type { GradedRowRecord } from '../store/repo/snapshots.js';
import type { SlateRead } from '../reads/slate.js';
import { contextFor, parseOptions, type CliContext } from './_context.js';
import { renderTable, show, signedAmerican, type CliIO } from './_io.js';

const optionsSchema = z.object({
  all: z.boolean().default(false),
  graded: z.boolean().default(false),
});

export function registerSlate(program: Command, io: CliIO): void {
  program
    .command('slate')
    .description('Show the cached graded slate of the latest snapshot (reads the store only)')
    .argument('<sport>', 'mlb | nba | wnba | soccer')
    .option('--all', 'every row, not just the top 6 per game', false)
    .option('--graded', 'hide refused reads (no projection)', false)
    .addHelpText('after', '\nExamples:\n  $ propgrade slate nba\n  $ propgrade slate nba --all --json')
    .action(async (sportArg: string, raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const sport = parseOptions(gradedSportSchema, sportArg);
      const opts = parseOptions(optionsSchema, raw);
      const { openRunEnvironment } = await import('./_run.js');
      const { readSlate } = await import('../reads/slate.js');
      const env = await openRunEnvironment(ctx, { needsReplayClock: false, readClock: true, sport });
      try {
        const slate = await readSlate(env.store, sport, { all: opts.all, gradedOnly: opts.graded });
        if (!slate) {
          const hint = await noSnapshotHint(env.store, sport, env.replayDir);
          ctx.result({ sport, available: false }, () => `No ${sport} snapshot yet. ${hint}`);
          return;
        }
        ctx.result(await slateJson(sport, slate), () => renderSlate(ctx, sport, slate));
      } finally {
        await env.close();
      }
    });
}

/**
 * What to run for a sport with no snapshot, only when it can work as printed: on a store graded
 * from a recording, the snapshot over that recording if it holds the sport, else why there is
 * none (a sport the recording does not hold needs live odds); on a live store, the snapshot.
 */
async function noSnapshotHint(store: Store, sport: GradedSport, replayDir: string | null): Promise<string> {
  const { replayOrigin } = await import('../store/repo/replay-origin.js');
  const folder = replayDir ?? (await replayOrigin(store)).folder;
  if (folder === null) return `Run \`propgrade snapshot ${sport}\` first.`;
  const { readReplayManifest } = await import('../feeds/transport/replay.js');
  const { gradedSportsIn } = await import('../feeds/odds-api/sport-keys.js');
  const { GRADED_SPORTS } = await import('../domain/sports.js');
  const recorded = [...gradedSportsIn(readReplayManifest(folder).entries.map((e) => e.key), GRADED_SPORTS)].sort();
  const rel = relative(process.cwd(), folder);
  const shown = rel === '' || rel.startsWith('..') || isAbsolute(rel) ? folder : rel;
  if (recorded.includes(sport)) return `Run \`propgrade snapshot ${sport} --replay ${shellQuote(shown)}\` first.`;
  return `The recording this store was graded from (${shown}) holds no ${sport} (it records ${recorded.join(', ') || 'no graded sport'}): a ${sport} slate needs a live snapshot, with ODDS_API_KEY set.`;
}

export async function slateJson(sport: string, slate: SlateRead) {
  const { gradedRowView } = await import('../reads/views.js');
  return {
    sport,
    available: true,
    snapshot: { id: slate.snapshot.id, takenAt: slate.snapshot.takenAt, slateDate: slate.snapshot.slateDate, graded: slate.snapshot.gradedCount, rows: slate.snapshot.rowCount },
    games: slate.games.map((g) => ({ eventId: g.eventId, game: g.game, commenceTime: g.commenceTime, hidden: g.hidden, rows: g.rows.map(gradedRowView) })),
  };
}

/** The letter, coloured, with the cap marker (`B*`) when a cap holds it below what its EV earns. */
export const gradeColor = (ctx: CliContext, grade: string | null, capReason: string | null = null): string => {
  const text = markedGrade(grade, capReason);
  if (grade === null || text === null) return ctx.c.dim('—');
  if (grade === 'A+' || grade === 'A') return ctx.c.green(text);
  if (grade === 'B') return ctx.c.cyan(text);
  if (grade === 'F') return ctx.c.red(text);
  return text;
};

/** What a letter claims, in one line under every slate (docs/model.md §3). */
export const GRADE_LEGEND = [
  'Grade = EV of the price against the market: A+ ≥ +5%, A +2..5%, B 0..+2%, C −4..0%, F below −4% (of the EV as printed); — = no grade.',
  '  X* = a capped letter: the EV would earn more, but the market behind it cannot carry that claim (the line under each table says why).',
  'Graded = the claim: its EV at the price and book it was made on, and when (a grade is locked and never changes).',
  'Now = the best price now and its EV against the fair now, by the same rule; "gone" / "reduced" = the claimed edge no longer holds / is smaller.',
  'Market = how the fair price was formed: N books (the other books at the line), implied (an alternate line, priced from the main line),',
  '  thin N (1-2 other books at the line, the graded book\'s own pair counted among the N), own book (no other book at the line).',
  '  Price = the best price now (Book); Fair = the market\'s no-vig fair price now. Line "alt" = an alternate line.',
  '  Proj = the model\'s projection of the stat (never part of the EV); ≠ = it lies on the other side of the line.',
  '  Move = main-line change since the previous snapshot.',
  'Order = the claim as it stands now: the locked letter while its edge holds, else the letter today\'s EV earns (a gone edge never leads), then EV now.',
].join('\n');

/** The no-grade words a table shows, each with its meaning: only the words present. */
export function refusalLegend(reasons: readonly (string | null)[]): string | null {
  const present = new Set(reasons.map(refusalWord).filter((w) => w !== null));
  if (present.size === 0) return null;
  return `No grade (—), why in Graded: ${REFUSAL_WORDS.filter((w) => present.has(w)).map((w) => `${w} = ${REFUSAL_LEGEND[w]}`).join('; ')}.`;
}

const pct = formatEvPct;

/** The claim with the price and time it was made on: "+3.4% at −130 betmgm 10:05 AM"; without a grade, why in a word. */
export function claimCell(r: Pick<GradedRowRecord, 'evPct' | 'lockedOdds' | 'lockedBook' | 'gradedAt' | 'grade' | 'refusalReason'>, zone: string): string {
  if (r.grade === null) return refusalWord(r.refusalReason) ?? '-';
  if (r.evPct === null || r.lockedOdds === null) return '-';
  return [`${pct(r.evPct)} at ${signedAmerican(r.lockedOdds)}`, r.lockedBook, localClock(r.gradedAt, zone)].filter((x) => x !== null).join(' ');
}

/** The current best price's EV by the same rule, and whether the claimed edge still holds. */
export function nowCell(r: Pick<GradedRowRecord, 'evNowPct' | 'edgeNow'>): string {
  if (r.evNowPct === null) return '-';
  return r.edgeNow === 'gone' || r.edgeNow === 'reduced' ? `${pct(r.evNowPct)} ${r.edgeNow}` : pct(r.evNowPct);
}

/** The projection, marked when it contradicts the graded side. */
export function projectionCell(r: Pick<GradedRowRecord, 'projection' | 'projectionAgrees'>): string {
  if (r.projection === null) return '-';
  return r.projectionAgrees === false ? `${r.projection.toFixed(1)} ≠` : r.projection.toFixed(1);
}

const stat = (s: string): string => STATS[s as StatType]?.label ?? s;

/** How the row's fair price was formed, short. */
export function marketCell(r: { fairSource: string | null; consensusBooks: number | null; thinConsensus: boolean | null; outlierPrice: boolean | null }): string {
  const base =
    r.fairSource === null
      ? '-'
      : r.fairSource === 'market_implied'
        ? 'implied'
        : r.fairSource === 'book'
          ? 'own book'
          : r.thinConsensus
            ? `thin ${r.consensusBooks ?? '?'}`
            : `${r.consensusBooks} books`;
  return r.outlierPrice ? `${base}, outlier set aside` : base;
}

/** Line change with its unit and direction, or why there is none. */
export function moveCell(r: Pick<GradedRowRecord, 'isMainLine' | 'lineDelta' | 'lineDirection' | 'previousLine' | 'statType'>): string {
  if (!r.isMainLine) return '';
  if (r.lineDelta === null || r.previousLine === null) return 'new';
  if (r.lineDelta === 0) return 'held';
  const unit = STATS[r.statType as StatType]?.unit ?? '';
  return `${r.lineDelta > 0 ? '+' : '−'}${Math.abs(r.lineDelta)} ${unit}${r.lineDirection ? `, ${r.lineDirection}` : ''}`;
}

export function renderSlate(ctx: CliContext, sport: string, slate: SlateRead): string {
  const s = slate.snapshot;
  const tz = ctx.config.PROPGRADE_TZ;
  const lines = [
    ctx.c.bold(`${sport.toUpperCase()} slate ${s.slateDate} — snapshot ${localDateTime(s.takenAt, tz)} — ${s.gradedCount.toLocaleString('en-US')} graded of ${s.rowCount.toLocaleString('en-US')} rows`),
    ctx.c.dim(GRADE_LEGEND),
  ];
  for (const g of slate.games) {
    lines.push('', ctx.c.bold(`${g.game} — ${localDateTime(g.commenceTime, tz)}`));
    lines.push(
      renderTable(
        ['Grade', 'Player', 'Team', 'Stat', 'Line', 'Side', 'Proj', 'Graded', 'Book', 'Price', 'Fair', 'Market', 'Now', 'Move'],
        g.rows.map((r) => [
          gradeColor(ctx, r.grade, r.capReason),
          r.player,
          show(r.team),
          stat(r.statType),
          r.isMainLine ? String(r.line) : `${r.line} alt`,
          r.side,
          projectionCell(r),
          claimCell(r, tz),
          show(r.book),
          show(r.bookOdds, signedAmerican),
          show(r.fairOdds, signedAmerican),
          marketCell(r),
          r.edgeNow === 'gone' ? ctx.c.red(nowCell(r)) : nowCell(r),
          moveCell(r),
        ]),
        ctx.color,
      ),
    );
    for (const l of capLegendLines(g.rows)) lines.push(ctx.c.dim(`  ${l}`));
    if (g.hidden > 0) lines.push(ctx.c.dim(`  … ${g.hidden} more rows (--all shows every line)`));
  }
  const why = refusalLegend(slate.games.flatMap((g) => g.rows.filter((r) => r.grade === null).map((r) => r.refusalReason ?? 'no projection')));
  if (why !== null) lines.push('', ctx.c.dim(why));
  return lines.join('\n');
}
