import { capLegendLines, markedGrade } from '../domain/model/grading.js';
import type { Command } from 'commander';
import { z } from 'zod';
import { fairAmerican } from '../domain/odds.js';
import { gradedSportSchema } from '../domain/sports.js';
import { isIsoDate } from '../domain/time.js';
import { leadText } from '../domain/close-lead.js';
import { badInput } from '../errors.js';
import { sharedTeamCode } from '../feeds/teams/lookup.js';
import type { ClvStatus, NoCloseReason } from '../domain/settlement.js';
import { NO_CLOSE_NOTES } from '../domain/settlement.js';
import type { LedgerListing, ListedLedgerEntry } from '../reads/ledger-listing.js';
import { contextFor, parseOptions } from './_context.js';
import { renderTable, show, signedAmerican, type CliIO } from './_io.js';

const optionsSchema = z.object({
  date: z.string().refine(isIsoDate, 'expected yyyy-mm-dd').optional(),
  team: z.string().trim().toUpperCase().optional(),
  player: z.string().trim().min(1).optional(),
  sport: gradedSportSchema.optional(),
  pending: z.boolean().default(false),
  user: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(100_000).default(200),
});

export function registerLedger(program: Command, io: CliIO): void {
  program
    .command('ledger')
    .description('List ledger entries (the public record unless --user is given)')
    .option('--date <yyyy-mm-dd>', 'ET game date')
    .option('--team <abbr>', 'team abbreviation (one two leagues share, such as NY, needs --sport)')
    .option('--player <name>', 'player name (matched by normalized key)')
    .option('--sport <sport>', 'nba | wnba | mlb | soccer')
    .option('--pending', 'only unsettled entries', false)
    .option('--user <id>', "a user's own scans instead of the public record")
    .option('--limit <n>', 'at most n entries (the footer and --json "total" give the full count)', '200')
    .addHelpText(
      'after',
      '\nCLV: the locked price\'s EV at the closing fair (the market\'s no-vig probability at the locked line, read as the grade read it),\n' +
        'in % of stake, with its verdict (beat, faded, flat inside ±0.5%); "line +n" when only another line was priced at the close,\n' +
        'n toward the entry\'s side. A pending entry\'s CLV is "so far" until its game starts. When there is no close the row says why\n' +
        '(docs/ledger.md). Fair lock / Fair close: that fair probability as American odds at the lock and at the close.\n\n' +
        'Examples:\n  $ propgrade ledger --date 2025-11-05\n  $ propgrade ledger --player "LeBron James" --json\n  $ propgrade ledger --team NY --sport nba --limit 1000',
    )
    .action(async (raw: unknown, cmd: Command) => {
      const ctx = contextFor(cmd, io);
      const opts = parseOptions(optionsSchema, raw);
      const shared = opts.team ? sharedTeamCode(opts.team, opts.sport) : null;
      if (shared !== null) throw badInput(shared);
      const { openRunEnvironment } = await import('./_run.js');
      const { readLedgerListing } = await import('../reads/ledger-listing.js');
      const env = await openRunEnvironment(ctx, { needsReplayClock: false, readClock: true, sport: opts.sport });
      try {
        const query = {
          ...(opts.date ? { date: opts.date } : {}),
          ...(opts.team ? { team: opts.team } : {}),
          ...(opts.sport ? { sport: opts.sport } : {}),
          ...(opts.player ? { player: opts.player } : {}),
          pending: opts.pending,
          ...(opts.user ? { userId: opts.user } : {}),
        };
        // Each entry is read on its own sport's clock (reads/ledger-listing.ts).
        // As of an explicit clock, an outcome settled later reads pending (docs/ledger.md "As of a time").
        const listing = await readLedgerListing(env.store, query, opts.limit, env.forSport, env.asOf);
        ctx.result(listing, (d) => renderLedger(d, ctx.color));
      } finally {
        await env.close();
      }
    });
}

/** Short in-cell forms of the no-close reasons; the footer spells each one out. */
const NO_CLOSE_SHORT: Readonly<Record<NoCloseReason, string>> = {
  not_captured_yet: 'no close yet',
  no_book: 'no close: no book',
  no_snapshot_after_lock: 'no close: no later snapshot',
  game_not_in_later_snapshots: 'no close: game not re-read',
  market_stopped_pricing: 'no close: line unpriced',
  no_capture_before_start: 'no close',
  captured_after_start: 'no close: late capture',
  one_sided_market: 'no CLV: one-sided',
};

/** "+3.5% beat" (clv_pct), "line +1 beat", "-0.3% flat (so far)"; the reason when there is no verdict. */
export function clvText(s: ClvStatus): string {
  if (s.verdict === null) return s.noCloseReason ? NO_CLOSE_SHORT[s.noCloseReason] : '-';
  const sign = (v: number, text: string) => `${v > 0 ? '+' : v < 0 ? '-' : ''}${text}`;
  const figure =
    s.clvPct !== null ? `${sign(s.clvPct, Math.abs(s.clvPct).toFixed(1))}%` : s.clvLine !== null ? `line ${sign(s.clvLine, String(Math.abs(s.clvLine)))}` : '';
  return `${figure} ${s.verdict}${s.final ? '' : ' (so far)'}`.trim();
}

/** The closing fair at the locked line, or the other line the close could only be read at. */
function closeCell(e: ListedLedgerEntry): string {
  if (e.closingLine === null) return '-';
  if (e.closingLine !== e.line) return `${e.closingLine} line`;
  return show(fairAmerican(e.closingFairProb), signedAmerican);
}

function renderLedger(d: LedgerListing, color: boolean): string {
  if (d.total === 0) return 'No ledger entries match.';
  const table = renderTable(
    ['Date', 'Sport', 'Player', 'Team', 'Opp', 'Stat', 'Line', 'Side', 'Grade', 'Locked', 'Fair lock', 'Fair close', 'Close lead', 'CLV', 'Outcome', 'Actual'],
    d.entries.map((e) => [
      e.gameDate,
      e.sport,
      e.player,
      show(e.team),
      show(e.opponent),
      e.statType,
      e.line,
      e.side,
      show(markedGrade(e.grade, e.capReason)),
      e.lockedPrice === null ? '-' : [signedAmerican(e.lockedPrice), e.book].filter((x) => x !== null).join(' '),
      show(fairAmerican(e.lockedFairProb), signedAmerican),
      closeCell(e),
      e.closingCapturedAt === null ? '-' : leadText(e.closeLeadMinutes),
      clvText(e.clvStatus) + (e.closeMethod === 'own_book_devig' && e.clvStatus.verdict !== null ? ' (old method)' : ''),
      e.outcome,
      show(e.actualValue),
    ]),
    color,
  );
  const footer: string[] = [];
  footer.push(d.shown < d.total ? `showing ${d.shown} of ${d.total}; --limit N or --date/--team/--player to narrow` : `${d.total} ${d.total === 1 ? 'entry' : 'entries'}`);
  const reasons = new Map<NoCloseReason, number>();
  for (const e of d.entries) if (e.clvStatus.noCloseReason) reasons.set(e.clvStatus.noCloseReason, (reasons.get(e.clvStatus.noCloseReason) ?? 0) + 1);
  if (d.entries.some((e) => e.clvStatus.verdict !== null)) {
    footer.push("CLV: the locked price's EV at the closing fair (the market at the locked line, read as the grade read it), % of stake; flat inside ±0.5%; line +n: only another line was priced, n toward the side");
  }
  if (d.entries.some((e) => e.closingCapturedAt !== null)) footer.push('Close lead: how long before the start the close was taken (bands: within 30 min, 30 min to 3 h, more than 3 h; `record` splits beat close by them)');
  if (d.entries.some((e) => e.closeMethod === 'own_book_devig')) footer.push('(old method): a close stored before the one-yardstick change, read on the book\'s own pair; kept, never counted in the beat-close rate');
  for (const [reason, n] of reasons) footer.push(`${n} shown × ${NO_CLOSE_NOTES[reason]}`);
  footer.push(...capLegendLines(d.entries));
  return `${table}\n${footer.join('\n')}`;
}
