import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { z } from 'zod';
import { clockAt, type DataClock } from '../domain/data-clock.js';
import { capLegendLines, markedGrade } from '../domain/model/grading.js';
import { assertLegCount, PARLAY_MIN_LEGS, relationshipLabel } from '../domain/parlay.js';
import { GRADED_SPORTS, gradedSportSchema, type GradedSport, type Side } from '../domain/sports.js';
import { normalizeName, playerNameSchema } from '../domain/names.js';
import { parseStat, propLineSchema, type StatType } from '../domain/stats.js';
import { PARLAY_LEG_CAP, shapeRow, type Tier } from '../domain/tiers.js';
import { badInput, describeZodIssues } from '../errors.js';
import type { ParlayLegInput, ParlayResult } from '../reads/parlay.js';
import type { Store } from '../store/db.js';
import { contextFor, parseOptions, type CliContext } from './_context.js';
import { renderTable, show, signedAmerican, type CliIO } from './_io.js';
import { sideArgSchema, tierArgSchema } from './scan.js';

/** The three prompts the interactive builder uses; injectable so the flow is testable without a terminal. */
export interface ParlayPrompts {
  search(config: { message: string; source: (term: string | undefined) => Promise<Array<{ name: string; value: string }>> }): Promise<string>;
  select(config: { message: string; choices: Array<{ name: string; value: string }> }): Promise<string>;
  confirm(config: { message: string; default?: boolean }): Promise<boolean>;
}

export interface ParlayDeps {
  prompts?: () => Promise<ParlayPrompts>;
}

const optionsSchema = z.object({
  leg: z.array(z.string()).default([]),
  file: z.string().min(1).optional(),
  tier: tierArgSchema,
});

const collect = (value: string, previous: string[]) => [...previous, value];

/** "Player|stat|line|side" -> a leg, with a one-line message naming the leg and the bad part. */
export function parseLegFlag(spec: string, n: number): ParlayLegInput {
  const parts = spec.split('|').map((p) => p.trim());
  if (parts.length !== 4) throw badInput(`leg ${n}: expected "Player|stat|line|over", got "${spec}"`);
  const [player, statRaw, lineRaw, sideRaw] = parts as [string, string, string, string];
  return legFrom({ player, stat: statRaw, line: lineRaw, side: sideRaw }, n);
}

const fileLegSchema = z.object({ player: z.string(), stat: z.string(), line: z.union([z.number(), z.string()]), side: z.string(), sport: z.string().optional() });
const legsFileSchema = z.union([z.array(fileLegSchema), z.object({ legs: z.array(fileLegSchema) })]);

/** Validates one leg's fields (typed or from a file) into the pipeline's input. */
function legFrom(raw: { player: string; stat: string; line: number | string; side: string; sport?: string | undefined }, n: number): ParlayLegInput {
  if (raw.player.trim().length === 0) throw badInput(`leg ${n}: player is empty`);
  // The same bounds as the HTTP body (a name the API would refuse is refused here too).
  const player = playerNameSchema.safeParse(raw.player);
  if (!player.success) throw badInput(`leg ${n}: ${player.error.issues[0]?.message ?? 'bad player name'}`);
  const stat = parseStat(raw.stat);
  if (stat === null) throw badInput(`leg ${n}: unknown stat '${raw.stat}'`);
  const line = typeof raw.line === 'number' ? raw.line : /^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/.test(raw.line) ? Number(raw.line) : Number.NaN;
  if (!Number.isFinite(line)) throw badInput(`leg ${n}: line must be a number, got '${String(raw.line)}'`);
  const bounded = propLineSchema.safeParse(line);
  if (!bounded.success) throw badInput(`leg ${n}: ${bounded.error.issues[0]?.message ?? 'bad line'}, got ${line}`);
  const side = sideArgSchema.safeParse(raw.side);
  if (!side.success) throw badInput(`leg ${n}: side must be over or under, got '${raw.side}'`);
  // The one sport schema every command parses with: an unknown or ungraded sport (mma) is bad input.
  const sport = raw.sport === undefined ? undefined : gradedSportSchema.safeParse(raw.sport);
  if (sport && !sport.success) throw badInput(`leg ${n}: ${describeZodIssues(sport.error.issues, '', raw.sport)}`);
  return { player: player.data, stat, line, side: side.data, ...(sport?.data ? { sport: sport.data } : {}) };
}

export function readLegsFile(path: string): ParlayLegInput[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw badInput(`cannot read legs file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badInput(`legs file ${path} is not JSON`);
  }
  const parsed = legsFileSchema.safeParse(json);
  if (!parsed.success) throw badInput(`legs file ${path}: ${describeZodIssues(parsed.error.issues)} (expected [{"player","stat","line","side"}, ...])`);
  const legs = Array.isArray(parsed.data) ? parsed.data : parsed.data.legs;
  return legs.map((l, i) => legFrom(l, i + 1));
}

export function registerParlay(program: Command, io: CliIO, deps: ParlayDeps = {}): void {
  program
    .command('parlay')
    .description('Grade a parlay of 2 to 6 legs: per-leg grades, pair correlation, combined grade and estimated payout')
    .option('--leg <spec>', 'a leg "Player|stat|line|over" (repeat for each leg)', collect, [])
    .option('--file <legs.json>', 'legs from a JSON file: [{"player","stat","line","side"}, ...]')
    .option('--tier <tier>', 'free | analyst | desk: preview a tier (leg cap 2/4/6; free sees the market payout, not the projection payout); the local owner gets desk', 'desk')
    .addHelpText(
      'after',
      '\nWith neither --leg nor --file, on a terminal, legs are picked from the cached slate interactively.\n' +
        'One leg per player and stat: the same prop twice, both sides of one prop or two lines of one stat make no parlay.\n\n' +
        'Examples (after `propgrade snapshot nba --replay data/replay`):\n  $ propgrade parlay --leg "Shai Gilgeous-Alexander|points|31.5|over" --leg "Chet Holmgren|rebounds|8.5|over"\n  $ propgrade parlay --file legs.json --tier free   # what a free API caller sees\n\n' +
        'Exit codes: 0 graded, 2 bad input (unknown stat, bad line or side, fewer than 2 legs or more than the tier allows,\n' +
        'two legs on one player\'s stat, no leg on a line the board prices; the message names the legs).',
    )
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(optionsSchema, raw);
      const flagLegs = opts.leg.map((spec, i) => parseLegFlag(spec, i + 1));
      const fileLegs = opts.file ? readLegsFile(opts.file) : [];
      let legs = [...fileLegs, ...flagLegs];
      if (legs.length === 0 && !io.isTTY) {
        throw badInput('no legs: pass --leg "Player|stat|line|over" (repeat per leg) or --file legs.json; interactive entry needs a terminal');
      }
      // A count no tier takes is refused before any store is opened.
      if (legs.length > 0) assertLegCount(legs.length, opts.tier);
      const { openRunEnvironment } = await import('./_run.js');
      const { gradeParlay } = await import('../reads/parlay.js');
      const env = await openRunEnvironment(ctx, { readClock: true });
      try {
        if (legs.length === 0) {
          const prompts = await (deps.prompts ?? inquirerPrompts)();
          legs = await promptLegs(env.store, env.forSport, opts.tier, prompts);
        }
        // Each leg is read on its own sport's clock (a replayed store's sports were recorded on different days).
        const result = await gradeParlay(env.store, legs, { now: env.forSport, tier: opts.tier });
        // --json is what the tier's API caller gets: each leg's projection view goes with the tier.
        ctx.result({ ...result, legs: result.legs.map((l) => shapeRow(l, opts.tier)) }, () => renderParlay(ctx, result));
      } finally {
        await env.close();
      }
    });
}

async function inquirerPrompts(): Promise<ParlayPrompts> {
  const inquirer = await import('@inquirer/prompts');
  return {
    search: (config) => inquirer.search<string>(config),
    select: (config) => inquirer.select<string>(config),
    confirm: (config) => inquirer.confirm(config),
  };
}

interface BoardLine {
  sport: GradedSport;
  player: string;
  playerKey: string;
  team: string | null;
  game: string;
  stat: StatType;
  line: number;
  side: Side;
  bookOdds: number | null;
  fairOdds: number | null;
}

/** Upcoming lines of every sport's latest snapshot taken by its clock (never a later one, issue 41 item 5): what the interactive builder offers. */
export async function cachedBoard(store: Store, now: DataClock): Promise<BoardLine[]> {
  const { latestSnapshot, snapshotRows } = await import('../store/repo/snapshots.js');
  const out: BoardLine[] = [];
  for (const sport of GRADED_SPORTS) {
    const snap = await latestSnapshot(store, sport, clockAt(now, sport));
    if (!snap) continue;
    for (const r of await snapshotRows(store, snap.id)) {
      if (r.commenceTime <= clockAt(now, sport).toISOString()) continue;
      const stat = parseStat(r.statType);
      if (stat === null) continue;
      out.push({ sport, player: r.player, playerKey: r.playerKey, team: r.team, game: `${r.awayTeam} @ ${r.homeTeam}`, stat, line: r.line, side: r.side, bookOdds: r.bookOdds, fairOdds: r.fairOdds });
    }
  }
  return out;
}

/** Search a player, pick a stat, pick a line and side from the cached slate; repeat up to the tier's cap. */
export async function promptLegs(store: Store, now: DataClock, tier: Tier, prompts: ParlayPrompts): Promise<ParlayLegInput[]> {
  const { PlayerIndex, searchPlayers } = await import('../domain/player-index.js');
  const board = await cachedBoard(store, now);
  if (board.length === 0) throw badInput('no cached slate with upcoming games to pick from: run `propgrade snapshot` first, or pass --leg');
  const players = new Map<string, BoardLine>();
  for (const b of board) if (!players.has(`${b.sport}|${b.playerKey}`)) players.set(`${b.sport}|${b.playerKey}`, b);
  const index = new PlayerIndex<string>();
  for (const [id, b] of players) index.add(b.player, id);
  const label = (b: BoardLine) => `${b.player}${b.team ? ` (${b.team})` : ''} — ${b.game} [${b.sport}]`;

  const legs: ParlayLegInput[] = [];
  const cap = PARLAY_LEG_CAP[tier];
  while (legs.length < cap) {
    const id = await prompts.search({
      message: `Leg ${legs.length + 1}: player`,
      source: async (term) => {
        const all = [...players.entries()];
        const hits = term && term.trim().length > 0 ? searchPlayers(index, term, 15).flatMap((c) => all.filter(([, b]) => b.playerKey === c.key)) : all.slice(0, 15);
        return hits.map(([value, b]) => ({ name: label(b), value }));
      },
    });
    const pick = players.get(id);
    if (!pick) throw badInput(`leg ${legs.length + 1}: no such player on the cached slate`);
    const lines = board.filter((b) => b.sport === pick.sport && b.playerKey === pick.playerKey);
    // One leg per player and stat (src/domain/parlay.ts): a stat this player already has a leg on is not offered again.
    const taken = new Set(legs.filter((l) => l.sport === pick.sport && normalizeName(l.player).key === pick.playerKey).map((l) => l.stat));
    const stats = [...new Set(lines.map((b) => b.stat))].filter((s) => !taken.has(s));
    if (stats.length === 0) throw badInput(`leg ${legs.length + 1}: every stat of ${pick.player} on the board already has a leg`);
    const stat = await prompts.select({ message: `Leg ${legs.length + 1}: stat`, choices: stats.map((s) => ({ name: s, value: s })) });
    const rungs = lines.filter((b) => b.stat === stat).sort((a, b) => a.line - b.line || a.side.localeCompare(b.side));
    const choice = await prompts.select({
      message: `Leg ${legs.length + 1}: line and side`,
      choices: rungs.map((b) => ({ name: `${b.side} ${b.line}  price ${show(b.bookOdds, signedAmerican)}  fair ${show(b.fairOdds, signedAmerican)}`, value: `${b.line}|${b.side}` })),
    });
    const [lineText, side] = choice.split('|') as [string, Side];
    legs.push({ player: pick.player, stat: stat as StatType, line: Number(lineText), side, sport: pick.sport });
    if (legs.length >= cap) break;
    // A parlay takes two legs at least: the builder asks to stop only once it has them.
    if (legs.length < PARLAY_MIN_LEGS) continue;
    const more = await prompts.confirm({ message: `Add another leg? (${legs.length} of at most ${cap} on the ${tier} tier)`, default: false });
    if (!more) break;
  }
  return legs;
}

const fmtPoints = (v: number | null) => (v === null ? '-' : v.toFixed(2));

/** What each leg column means (every label has its legend line). */
export const PARLAY_LEGEND = [
  'Grade = EV of the leg\'s best price against the market: A+ ≥ +5%, A +2..5%, B 0..+2%, C −4..0%, F below −4%; X* = capped (the line below says why).',
  "Price = the best price now; Fair = the market's no-vig fair price; Archetype = the player's role from his real games; Line in the stat's own unit.",
].join('\n');

export function renderParlay(ctx: CliContext, r: ParlayResult): string {
  const lines: string[] = [];
  lines.push(
    renderTable(
      ['#', 'Player', 'Team', 'Game', 'Stat', 'Line', 'Side', 'Grade', 'Archetype', 'Price', 'Fair'],
      r.legs.map((l) => [
        l.leg,
        l.player,
        show(l.team),
        l.game ? l.game.label : '-',
        l.stat,
        l.line,
        l.side,
        markedGrade(l.grade, l.capReason) ?? ctx.c.yellow('refused'),
        show(l.archetype),
        show(l.bookOdds, signedAmerican),
        show(l.fairOdds, signedAmerican),
      ]),
      ctx.color,
    ),
  );
  for (const l of r.legs) if (l.refusal) lines.push(ctx.c.dim(`  leg ${l.leg} refused: ${l.refusal}`));
  lines.push(ctx.c.dim(PARLAY_LEGEND));
  for (const l of capLegendLines(r.legs)) lines.push(ctx.c.dim(`  ${l}`));
  if (r.correlation.pairs.length > 0) {
    lines.push(
      renderTable(
        ['Pair', 'Relationship', 'Correlation'],
        r.correlation.pairs.map((p) => [`${p.a}+${p.b}`, relationshipLabel(p.relationship), show(p.score, (v) => v.toFixed(1))]),
        ctx.color,
      ),
    );
  }
  const c = r.combined;
  const rests = `rests on ${c.legsUsed} of ${c.legsTotal} leg${c.legsTotal === 1 ? '' : 's'}`;
  const grade = c.grade === null ? 'none' : c.grade;
  lines.push(
    ctx.c.bold(`Combined grade: ${grade}${c.provisional && c.grade !== null ? ' (provisional)' : ''} — ${rests}`) +
      ctx.c.dim(`  [avg ${fmtPoints(c.points.average)} − penalty ${fmtPoints(c.points.penalty)} = ${fmtPoints(c.points.combined)} points; avg correlation ${show(r.correlation.average, (v) => v.toFixed(2))}]`),
  );
  if (r.payout)
    lines.push(
      `Estimated payout: ${r.payout.decimal.toFixed(2)}x (${show(r.payout.american, signedAmerican)}) per unit staked — the product of the legs' fair prices (the market's no-vig price, not a book's), less the correlation haircut`,
    );
  else lines.push(ctx.c.dim('Estimated payout: not available'));
  // The paid view: the same rule at the projection's own prices (a free caller sees the upsell).
  if (r.projectionPayout)
    lines.push(`At the projection's prices: ${r.projectionPayout.decimal.toFixed(2)}x (${show(r.projectionPayout.american, signedAmerican)}) — the projection's view, not the market's; see its held-out record (docs/model.md §6)`);
  else if (r.upsell) lines.push(ctx.c.cyan(r.upsell));
  for (const w of r.warnings) lines.push(ctx.c.yellow(`warning: ${w}`));
  return lines.join('\n');
}
