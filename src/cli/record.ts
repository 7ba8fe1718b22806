import { CAP_MARKER, CAP_REASON_TEXT, capLegend } from '../domain/model/grading.js';
import type { Command } from 'commander';
import { z } from 'zod';
import { gradedSportSchema } from '../domain/sports.js';
import { isIsoDate } from '../domain/time.js';
import { MIN_SAMPLE } from '../domain/record-gate.js';
import { beatCloseCell, CLOSE_LEAD_BANDS, CLOSE_LEAD_LABEL, CLOSE_LEAD_SHORT, type BeatCloseBand } from '../domain/close-lead.js';
import type { RecordWindow, UnitsRecord } from '../domain/records.js';
import type { readModelRecord } from '../reads/record.js';
import { badInput } from '../errors.js';
import { contextFor, parseOptions, type CliContext } from './_context.js';
import { renderTable, type CliIO } from './_io.js';

const optionsSchema = z.object({
  days: z.coerce.number().int().min(1).max(365).default(30),
  team: z.string().trim().min(1).optional(),
  player: z.string().trim().min(1).optional(),
  date: z.string().refine(isIsoDate, 'expected yyyy-mm-dd').optional(),
  // The one sport schema: an unknown sport, or mma (fight cards, never a graded entry), is bad input.
  sport: gradedSportSchema.optional(),
});

interface Rate {
  n: number;
  pct: number | null;
  ci95: [number, number] | null;
}

/** A percentage only with its n and interval; below the gate, how far the record is from showing one. */
export function showRate(r: Rate): string {
  if (r.pct === null) return `record building: ${r.n} of ${MIN_SAMPLE} needed`;
  const ci = r.ci95 ? ` [${r.ci95[0].toFixed(1)}–${r.ci95[1].toFixed(1)}]` : '';
  return `${r.pct.toFixed(1)}% (n=${r.n})${ci}`;
}

/** Signed units, two places: +3.41 u, -0.50 u. */
export function signedUnits(u: number): string {
  const r = Math.round(u * 100) / 100;
  return `${r > 0 ? '+' : r < 0 ? '-' : ''}${Math.abs(r).toFixed(2)} u`;
}

/** Units always (a real sum at any n >= 1); ROI % only at n >= 20. */
export function showUnits(u: UnitsRecord): string {
  if (u.units === null) return 'no settled stake yet (n=0)';
  const roi = u.roiPct === null ? `ROI: record building: ${u.n} of ${MIN_SAMPLE} needed` : `ROI ${signedPct(u.roiPct)}`;
  return `${signedUnits(u.units)}, ${roi} (n=${u.n})`;
}

function windowText(w: RecordWindow, days: number, date: string | undefined): string {
  return date ? `on ${w.to}` : `in the ${days} days to ${w.to}`;
}

/** Why the window shows no settled entry, and where to look instead; null when it holds some. */
export function emptyWindowNote(r: ModelRecord, days: number, date: string | undefined): string | null {
  const c = r.aggregate.counts;
  if (c.hits + c.misses + c.pushes + c.voids > 0) return null;
  const where = windowText(r.aggregate.window, days, date);
  const e = r.settledElsewhere;
  if (e) {
    const tries = date ? [`--date ${e.tryDate}`] : [e.tryNow ? `--now ${e.tryNow.replace('.000Z', 'Z')}` : null, e.tryDays ? `--days ${e.tryDays}` : null, e.tryNow || e.tryDays ? null : `--date ${e.tryDate}`].filter((t): t is string => t !== null);
    return `no settled entries ${where}; ${e.settled} settled ${e.settled === 1 ? 'entry exists' : 'entries exist'}, the latest on ${e.latestGameDate}: try ${tries.join(' or ')}`;
  }
  if (c.pending > 0) return `nothing settled yet ${where}: ${c.pending} pending; run \`propgrade settle\` after their games`;
  return `no public entries ${where} and none settled elsewhere in this scope: \`propgrade snapshot <sport>\` grades a slate and records its picks`;
}

export function registerRecord(program: Command, io: CliIO): void {
  program
    .command('record')
    .description('The public model record: hit and beat-close rates over a window, and the per-tier table')
    .option('--days <n>', 'window length in days, ending today (ET)', '30')
    .option('--team <abbr>', 'only this team (one two leagues share, such as NY, needs --sport)')
    .option('--player <name>', 'only this player')
    .option('--date <yyyy-mm-dd>', 'only this ET game date')
    .option('--sport <sport>', 'only this sport')
    .addHelpText(
      'after',
      '\nBeat close is split by the lead time of the close before the start (within 30 min, 30 min to 3 h, more than 3 h).\nPercentages (hit rate, beat close per band, ROI) appear at n >= 20; below that the counts and "record building: n of 20 needed".\n' +
        'Units: profit of a 1-unit stake on every settled entry at its locked price (push 0, void left out).\n\nExamples:\n  $ propgrade record\n  $ propgrade record --team LAL --json\n  $ propgrade record --now 2025-11-06T12:00:00Z --days 7',
    )
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(optionsSchema, raw);
      // A code two leagues share (NY: the Knicks and the Liberty) names one team only with its sport, as in `ledger`.
      const { sharedTeamCode } = await import('../feeds/teams/lookup.js');
      const shared = opts.team ? sharedTeamCode(opts.team, opts.sport) : null;
      if (shared !== null) throw badInput(shared);
      const { openRunEnvironment } = await import('./_run.js');
      const { readModelRecord } = await import('../reads/record.js');
      const env = await openRunEnvironment(ctx, { readClock: true, sport: opts.sport });
      try {
        // Each sport's window ends on its own clock (the same instant unless the store is replayed), as on the API.
        // As of an explicit clock, an outcome settled later reads pending (docs/ledger.md "As of a time").
        const record = await readModelRecord(env.store, { now: env.now, ...opts }, env.forSport, env.asOf);
        let perSport: string | null = null;
        if (env.perSportClocks && !opts.sport && !opts.date) {
          const { latestSnapshot } = await import('../store/repo/snapshots.js');
          const snapshotted: string[] = [];
          for (const w of record.windows) if ((await latestSnapshot(env.store, w.sport)) !== null) snapshotted.push(w.sport);
          perSport = perSportWindows(record.windows.filter((w) => snapshotted.includes(w.sport)), opts.days);
        }
        ctx.result(record, (r) => [...(perSport ? [ctx.c.dim(perSport)] : []), renderRecord(ctx, r, opts.days, opts.date)].join('\n'));
      } finally {
        await env.close();
      }
    });
}

type ModelRecord = Awaited<ReturnType<typeof readModelRecord>>;

/** On a replayed store each sport's window ends on its own clock: the header's span is their union. */
function perSportWindows(windows: ReadonlyArray<{ sport: string; from: string; to: string }>, days: number): string | null {
  if (new Set(windows.map((w) => w.to)).size < 2) return null;
  return `each sport's ${days} days end on its own clock: ${windows.map((w) => `${w.sport} ${w.from} to ${w.to}`).join(', ')}`;
}

/** What each letter claims (docs/model.md §3): the EV band of the locked price. */
const TIER_CLAIM: Record<string, string> = { 'A+': '≥ +5% EV', A: '+2..5% EV', B: '0..+2% EV', C: '−4..0% EV' };

/** One decimal with its sign; a value that rounds to zero prints 0.0%, never -0.0%. */
const signedPct = (v: number): string => {
  const rounded = Number(v.toFixed(1));
  const r = rounded === 0 ? 0 : rounded; // -0 === 0: a rounded -0.04 prints 0.0%
  return `${r > 0 ? '+' : ''}${r.toFixed(1)}%`;
};

function roiCell(u: ModelRecord['tiers'][number]['units']): string {
  if (u.roiPct === null) return u.n === 0 ? '-' : `record building: ${u.n} of ${MIN_SAMPLE} needed`;
  const ci = u.roiCi95 ? ` [${u.roiCi95[0].toFixed(1)}, ${u.roiCi95[1].toFixed(1)}]` : '';
  return `${signedPct(u.roiPct)}${ci}`;
}

function renderRecord(ctx: CliContext, r: ModelRecord, days: number, date: string | undefined): string {
  const a = r.aggregate;
  const c = a.counts;
  const head = [ctx.c.bold(`Model record ${a.window.from} to ${a.window.to}`)];
  const note = emptyWindowNote(r, days, date);
  if (note !== null) head.push(ctx.c.yellow(note));
  if (c.entries === 0) return [...head, `entries 0`].join('\n');
  // The record leads with each tier against its own claim: an all-grades figure mixes claims of
  // positive EV (A+, A, B) with claims of negative EV (C), so alone it would read as "the model loses".
  head.push("Each tier against its own claim: the mean EV its locked prices claimed, the ROI they returned (1-unit stakes at the locked price), and how often the locked price beat the close, by how long before the start the close was taken.");
  const table = renderTable(
    ['Tier', 'Claims', 'Claimed EV', 'ROI [95%]', 'Units', ...CLOSE_LEAD_BANDS.map((b) => `Beat close ${CLOSE_LEAD_SHORT[b]}`), ...CLOSE_LEAD_BANDS.map((b) => `Beat Pinnacle ${CLOSE_LEAD_SHORT[b]}`), 'Hit rate', 'Hit', 'Miss', 'Push', 'Void', 'Pending'],
    r.tiers.map((t) => [
      r.capped.some((c) => c.grade === t.grade) ? `${t.grade}${CAP_MARKER}` : t.grade,
      TIER_CLAIM[t.grade] ?? '-',
      t.claim.meanEvPct === null ? '-' : `${signedPct(t.claim.meanEvPct)} (n=${t.claim.n})`,
      roiCell(t.units),
      t.units.units === null ? '-' : `${signedUnits(t.units.units)} (n=${t.units.n})`,
      ...t.beatCloseByLead.map(beatCloseCell),
      ...t.beatClosePinnacleByLead.map(beatCloseCell),
      showRate(t.hitRate),
      t.counts.hits,
      t.counts.misses,
      t.counts.pushes,
      t.counts.voids,
      t.counts.pending,
    ]),
    ctx.color,
  );
  const all = [
    ctx.c.bold('All entries together (every claim, positive and negative):'),
    `entries ${c.entries}: ${c.hits} hit, ${c.misses} miss, ${c.pushes} push, ${c.voids} void, ${c.pending} pending`,
    `hit rate: ${showRate(a.hitRate)}`,
    `units at the locked price: ${showUnits(a.units)}${a.units.unpriced ? `; ${a.units.unpriced} settled without a locked price left out` : ''}`,
    ...yardstickLines('beat close (consensus of the other books)', a.beatCloseByLead, `every lead time together: ${showRate(a.beatClose)} (beat ${a.clv.beat}, faded ${a.clv.faded}, flat ${a.clv.flat})`),
    ...yardstickLines("beat Pinnacle's own no-vig close (entries Pinnacle priced at the locked line)", a.beatClosePinnacleByLead, `every lead time together: ${showRate(a.beatClosePinnacle)}`),
  ];
  const legend = `Beat close ≤30m / 30m–3h / >3h: the share of closes the locked price beat, for closes taken within 30 min of the start, 30 min to 3 h before it, and more than 3 h before it (n per band; a % at n >= ${MIN_SAMPLE}, 95% Wilson interval). Beat close is read against the other books' no-vig consensus; Beat Pinnacle against Pinnacle's own no-vig close, where Pinnacle priced the line.`;
  return `${head.join('\n')}\n${table}\n${legend}\n${[...cappedLines(r.capped), ...all].join('\n')}`;
}

/** Capped letters counted with their reason: "B* 14 entries capped: 9 the EV would earn A+; thin consensus (...), ...". */
function cappedLines(capped: ModelRecord['capped']): string[] {
  if (capped.length === 0) return [];
  const byGrade = new Map<string, ModelRecord['capped']>();
  for (const c of capped) byGrade.set(c.grade, [...(byGrade.get(c.grade) ?? []), c]);
  const out = ['Capped letters (X* = a tier holding entries whose EV would earn more; each counted with its reason):'];
  for (const [grade, list] of byGrade) {
    const n = list.reduce((s, c) => s + c.n, 0);
    const parts = list.map((c) => `${c.n} ${c.gradeUncapped === null ? `capped: ${CAP_REASON_TEXT[c.capReason]}` : capLegend(c.gradeUncapped, c.capReason)}`);
    out.push(`  ${grade}${CAP_MARKER} ${n} ${n === 1 ? 'entry' : 'entries'}: ${parts.join('; ')}`);
  }
  return out;
}

/**
 * One yardstick's beat-close lines, headed by the close nearest the start that holds any (the
 * headline: a close taken hours early measures something else), then the other bands, then all
 * lead times together.
 */
function yardstickLines(title: string, bands: readonly BeatCloseBand[], pooled: string): string[] {
  const cell = (b: BeatCloseBand) => (b.n === 0 ? 'none' : `${showRate({ n: b.n, pct: b.pct, ci95: b.ci95 })} (beat ${b.beat}, faded ${b.faded}, flat ${b.flat})`);
  const nearest = bands.find((b) => b.n > 0);
  if (!nearest) return [`${title}: no close`];
  return [
    `${title}, closes ${CLOSE_LEAD_LABEL[nearest.band]}: ${cell(nearest)}`,
    ...bands.filter((b) => b !== nearest).map((b) => `  closes ${CLOSE_LEAD_LABEL[b.band]}: ${cell(b)}`),
    `  ${pooled}`,
  ];
}
