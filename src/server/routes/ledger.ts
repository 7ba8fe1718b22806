import { z } from 'zod';
import { gradedSportSchema } from '../../domain/sports.js';
import { shapeRow } from '../../domain/tiers.js';
import { isIsoDate } from '../../domain/time.js';
import { sharedTeamCode } from '../../feeds/teams/lookup.js';
import { readAccuracy, readModelRecord } from '../../reads/record.js';
import { ledgerEntryView } from '../../reads/ledger-entry-view.js';
import { readLedgerListingIn } from '../../reads/ledger-listing.js';
import type { ServerDeps } from '../context.js';
import { defineRoute, type Route } from '../route.js';
import { isoDateDoc } from '../wire/registry.js';
import { accuracySchema, modelRecordSchema } from '../wire/answers-core.js';

export const accuracyQuerySchema = z.object({ sport: gradedSportSchema.optional() });

export const ledgerModelQuerySchema = z
  .object({
    date: z.string().refine(isIsoDate, 'expected yyyy-mm-dd').meta(isoDateDoc).optional(),
    team: z
      .string()
      .trim()
      .min(1)
      .max(8)
      .transform((t) => t.toUpperCase())
      .optional()
      .describe('team code; one two leagues share (NY: Knicks and Liberty) needs sport'),
    player: z.string().trim().min(1).max(80).optional(),
    sport: gradedSportSchema.optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .superRefine((q, ctx) => {
    // A code two graded leagues share would mix their entries: the caller names the sport.
    const shared = q.team ? sharedTeamCode(q.team, q.sport, (s) => `sport=${s}`) : null;
    if (shared !== null) ctx.addIssue({ code: 'custom', path: ['team'], message: shared });
  });

export function ledgerRoutes(deps: ServerDeps): Route[] {
  // As of an explicit or system clock, an outcome settled later reads pending (docs/ledger.md "As of a time"), as in the CLI.
  const asOf = (sport?: string): Date | null => (deps.outcomesAsOfClock ? deps.now(sport) : null);
  const accuracy = (path: string) =>
    defineRoute({
      method: 'GET',
      path,
      tag: 'record',
      access: 'public',
      response: accuracySchema,
      summary: 'Accuracy by grade tier over the rolling 30 days',
      description:
        'Public record only. Each sport\'s 30 days end on its own data clock (a replayed store\'s sports were recorded on different days), the same windows as GET /api/ledger/model and `propgrade record`; `windows` names each sport\'s, `window` is their span. A tier below 20 decided entries is in the learning state: counts, no percentage. Each tier carries units: flat 1-unit stakes at the locked price (units at n >= 1, roi_pct at n >= 20). Each tier, and beat_close for every entry together, carries beat close on both yardsticks (beat_close against the other books\' no-vig consensus, beat_close_pinnacle against Pinnacle\'s own no-vig close where Pinnacle priced the locked line), pooled and by how long before the start the close was taken (*_by_lead: within_30m, 30m_to_3h, over_3h; n and a Wilson 95% interval, pct at n >= 20): the same figures as GET /api/ledger/model. settled_elsewhere says where settled entries are when the window holds none.',
      query: accuracyQuerySchema,
      maxAge: 300,
      statsLimited: true,
      // Each sport's window ends on its own clock, as in `propgrade record` (one record, issue 41).
      handle: ({ query }) => readAccuracy(deps.store, deps.now(query.sport), 30, query.sport, (sport) => deps.now(sport), asOf(query.sport)),
    });
  return [
    accuracy('/api/accuracy'),
    accuracy('/api/ledger/accuracy'),
    defineRoute({
      method: 'GET',
      path: '/api/ledger/model',
      tag: 'record',
      access: 'tier-shaped',
      response: modelRecordSchema,
      summary: 'Public model record: entries and the 30-day aggregate',
      description:
        'The same record as `propgrade record`: each sport\'s entries in the 30 days ending on its own data clock (`windows` names each, aggregate.window is their span); the entries listed are the ones counted. Filters date (one ET game date, replaces the window), team, player (matched by normalized key), sport. Percentages (hit rate, beat close, ROI) are null below n = 20; beat_close_by_lead splits beat close by how long before the start each close was taken (within_30m, 30m_to_3h, over_3h), n >= 20 per band for a pct; beat_close_pinnacle and beat_close_pinnacle_by_lead read the locked price against Pinnacle\'s own no-vig close instead (issue 43); each entry carries close_lead_minutes and close_lead_band, close_books (the books that formed the close) and, only where Pinnacle priced the locked line, pinnacle_closing_fair_prob, pinnacle_close_lead_minutes, pinnacle_close_lead_band, pinnacle_clv, pinnacle_clv_pct and pinnacle_clv_verdict (absent, never null, where it did not); units (profit of 1-unit stakes at the locked price) show at n >= 1. total is every entry the filters match, count the ones returned (at most limit). Entries carry p_win only for entitled callers, and clv_status (CLV with its verdict, or why there is no close).',
      query: ledgerModelQuerySchema,
      maxAge: 300,
      statsLimited: true,
      handle: async ({ caller, query }) => {
        // Each sport's record reads on its own clock, as `propgrade record` does (docs/api.md "Clocks"; one record, issue 41).
        const now = deps.now(query.sport);
        const record = await readModelRecord(
          deps.store,
          {
            now,
            ...(query.date ? { date: query.date } : {}),
            ...(query.team ? { team: query.team } : {}),
            ...(query.player ? { player: query.player } : {}),
            ...(query.sport ? { sport: query.sport } : {}),
          },
          (sport) => deps.now(sport),
          asOf(query.sport),
        );
        // The entries listed are the ones counted: each sport's, in its own window.
        const listing = await readLedgerListingIn(
          deps.store,
          {
            ...(query.team ? { team: query.team } : {}),
            ...(query.player ? { player: query.player } : {}),
          },
          record.windows,
          query.limit,
          (sport) => deps.now(sport),
          asOf(query.sport),
        );
        // Each tier against its own claim first; the all-entries aggregate mixes opposite claims.
        return {
          tiers: record.tiers,
          aggregate: record.aggregate,
          capped: record.capped,
          settledElsewhere: record.settledElsewhere,
          windows: record.windows,
          total: listing.total,
          count: listing.shown,
          limit: listing.limit,
          entries: listing.entries.map((e) => shapeRow(ledgerEntryView(e, e.clvStatus), caller.tier)),
        };
      },
    }),
  ];
}
