import type { Command } from 'commander';
import { z } from 'zod';
import { isIsoDate } from '../domain/time.js';
import { AppError } from '../errors.js';
import type { BoutView, CombatView, FightView } from '../reads/combat.js';
import { contextFor, parseOptions, type CliContext } from './_context.js';
import { renderTable, show, signedAmerican, type CliIO } from './_io.js';
import { freshnessLine, withContext } from './live.js';

const dateArg = z.string().refine(isIsoDate, { error: (iss) => `date must be yyyy-mm-dd, got '${String(iss.input)}'` });
const idArg = z.string().regex(/^\d{1,20}$/, 'bout id must be digits (the ESPN bout id, as `propgrade combat <date>` lists it)');

export function registerCombat(program: Command, io: CliIO): void {
  program
    .command('combat')
    .description('MMA fight cards (UFC, PFL) for an ET date with moneyline and round-total odds; empty off-card')
    .argument('<date>', 'yyyy-mm-dd (ET)')
    .addHelpText(
      'after',
      '\nOdds join ESPN fighters to The Odds API by normalized name; a bout whose fighters do not both join has no odds and says so.\n' +
        'Method, round and KO markets are data-limited (never priced). The style edge is a model read, not a grade.\n\n' +
        'Examples:\n  $ propgrade combat 2025-09-27 --replay data/replay\n  $ propgrade combat 2025-10-03 --replay data/replay --json',
    )
    .action(async (dateRaw: string, _raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const date = parseOptions(dateArg, dateRaw);
      const { readCombat } = await import('../reads/combat.js');
      await withContext(ctx, async (deps) => {
        const view = await readCombat(deps, date);
        ctx.result(view, (v) => renderCombat(ctx, v));
      });
    });

  program
    .command('fight')
    .description('One bout by ESPN id: tale of the tape, best odds, style read')
    .argument('<id>', 'ESPN bout id (from `propgrade combat <date>`)')
    .addHelpText('after', '\nExit codes: 0 the bout, 1 no card holds that id, 2 bad input.\n\nExample:\n  $ propgrade fight 401801745 --replay data/replay')
    .action(async (idRaw: string, _raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const id = parseOptions(idArg, idRaw);
      const { readFight } = await import('../reads/combat.js');
      await withContext(ctx, async (deps) => {
        const view = await readFight(deps, id);
        if (view === null) throw new AppError('NOT_FOUND', `no fight card holds bout ${id} (ids come from \`propgrade combat <date>\`)`);
        ctx.result(view, (v) => renderFight(ctx, v));
      });
    });
}

const price = (p: { price: number; book: string } | null) => (p ? `${signedAmerican(p.price)} ${p.book}` : '-');
const NO_TOTALS = 'no round-total prices in the odds answer';

function totalsText(b: BoutView): string {
  if (!b.odds || b.odds.roundTotals.length === 0) return '-';
  return b.odds.roundTotals.map((t) => `o${t.rounds} ${t.over ? signedAmerican(t.over.price) : '-'} / u${t.rounds} ${t.under ? signedAmerican(t.under.price) : '-'}`).join('; ');
}

function fighterText(f: BoutView['fighters'][number]): string {
  const won = f.winner === true ? ' (W)' : '';
  return `${f.name}${f.record ? ` ${f.record}` : ''}${won}`;
}

export function renderCombat(ctx: CliContext, v: CombatView): string {
  if (!v.available) return `No fight cards for ${v.date}: ${v.reason}.`;
  const head = [freshnessLine(ctx, v, 'ESPN fight cards'), v.odds.available ? freshnessLine(ctx, v.odds, 'MMA odds') : ctx.c.yellow(`MMA odds unavailable: ${v.odds.reason}`)];
  if (v.leaguesUnavailable.length > 0) head.push(ctx.c.yellow(`no scoreboard answer from: ${v.leaguesUnavailable.join(', ')} (its cards are not listed)`));
  if (v.cards.length === 0) return [...head, `No UFC or PFL card on ${v.date}.`].join('\n');
  const out = [...head];
  const bouts = v.cards.flatMap((c) => c.bouts);
  // The column shows only where some bout has a real round-total price.
  const anyTotals = bouts.some((b) => b.odds !== null && b.odds.roundTotals.length > 0);
  const ml = (p: { price: number } | null | undefined) => (p ? signedAmerican(p.price) : '-');
  for (const card of v.cards) {
    out.push(ctx.c.bold(`${card.name ?? card.eventId} (${card.league.toUpperCase()}, ${card.date ? ctx.dateTime(card.date) : 'no date'})`));
    out.push(
      renderTable(
        ['Bout', 'Fighter', 'ML', 'Fighter', 'ML', 'Class', 'Rds', ...(anyTotals ? ['Round totals'] : []), 'Note'],
        card.bouts.map((b) => [
          b.id,
          fighterText(b.fighters[0]),
          ml(b.odds?.moneyline[0]?.best),
          fighterText(b.fighters[1]),
          ml(b.odds?.moneyline[1]?.best),
          show(b.weightClass),
          show(b.scheduledRounds),
          ...(anyTotals ? [totalsText(b)] : []),
          b.oddsNote === null || b.oddsNote === NO_TOTALS ? '-' : b.oddsNote,
        ]),
        ctx.color,
      ),
    );
    if (card.skippedBouts > 0) out.push(ctx.c.dim(`${card.skippedBouts} bout(s) without two readable fighters not shown`));
  }
  if (bouts.length > 0 && bouts.every((b) => b.oddsNote !== null)) out.push(ctx.c.dim(`Round totals: ${bouts.some((b) => b.oddsNote === NO_TOTALS) ? 'none in the odds answer' : 'none'}.`));
  out.push(ctx.c.dim(`ML = best moneyline across the allowed books. Data-limited (never priced): ${v.dataLimited.join(', ')}. Books, style edge: \`propgrade fight <id>\`.`));
  return out.join('\n');
}

/** 'unknown' on a past bout: the recording predates it and holds no result (domain boutStatusAt). */
function statusText(status: string): string {
  return status === 'unknown' ? 'result not in the data (recorded before the bout)' : status;
}

export function renderFight(ctx: CliContext, v: FightView): string {
  if (!v.available) return `Fight unavailable: ${v.reason}.`;
  const b = v.bout;
  const lines = [
    ctx.c.bold(`${b.fighters[0].name} vs ${b.fighters[1].name} — ${show(b.weightClass)}, ${show(b.scheduledRounds)} rounds, ${statusText(b.status)}`),
    ctx.c.dim(`${b.card.name ?? b.card.eventId} (${b.league.toUpperCase()}), ${b.date ? ctx.dateTime(b.date) : 'no date'}; bout ${b.id}`),
    freshnessLine(ctx, v, 'ESPN fight card'),
    renderTable(
      ['', b.fighters[0].name, b.fighters[1].name],
      [
        ['Record (W-L-D)', show(b.fighters[0].record), show(b.fighters[1].record)],
        ['ESPN athlete id', show(b.fighters[0].athleteId), show(b.fighters[1].athleteId)],
        ['Country', show(b.fighters[0].country), show(b.fighters[1].country)],
        ['Result', b.fighters[0].winner === null ? '-' : b.fighters[0].winner ? 'won' : 'lost', b.fighters[1].winner === null ? '-' : b.fighters[1].winner ? 'won' : 'lost'],
        ['Moneyline (best)', price(b.odds?.moneyline[0]?.best ?? null), price(b.odds?.moneyline[1]?.best ?? null)],
        ['Style', show(b.fighters[0].style?.primary), show(b.fighters[1].style?.primary)],
      ],
      ctx.color,
    ),
    `Round totals: ${totalsText(b)}`,
  ];
  if (b.oddsNote) lines.push(ctx.c.yellow(b.oddsNote));
  lines.push(`Style edge (${b.styleEdge.kind}): ${b.styleEdge.edge ?? 'none'}; ${b.styleEdge.reason}`);
  lines.push(ctx.c.dim(`Data-limited (never priced): ${b.dataLimited.join(', ')}`));
  return lines.join('\n');
}
