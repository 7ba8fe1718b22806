import { z } from 'zod';
import { normalizeName } from '../../domain/names.js';
import { gradedSportSchema } from '../../domain/sports.js';
import { shapeRow } from '../../domain/tiers.js';
import { isIsoDate } from '../../domain/time.js';
import { readAccuracy, readModelRecord } from '../../pipeline/record-read.js';
import { listLedger, type LedgerEntry } from '../../store/repo/ledger.js';
import type { ServerDeps } from '../context.js';
import { defineRoute, type Route } from '../route.js';

export const accuracyQuerySchema = z.object({ sport: gradedSportSchema.optional() });

export const ledgerModelQuerySchema = z.object({
  date: z.string().refine(isIsoDate, 'expected yyyy-mm-dd').optional(),
  team: z.string().trim().min(1).max(8).transform((t) => t.toUpperCase()).optional(),
  player: z.string().trim().min(1).max(80).optional(),
  sport: gradedSportSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** A public ledger entry in spec field names; p_win is the model field tier shaping removes. */
export function ledgerEntryView(e: LedgerEntry) {
  return {
    id: e.id,
    sport: e.sport,
    event_id: e.eventId,
    game_date: e.gameDate,
    commence_time: e.commenceTime,
    player: e.player,
    team: e.team,
    opponent: e.opponent,
    stat: e.statType,
    line: e.line,
    side: e.side,
    grade: e.grade,
    projection: e.projection,
    p_win: e.pWin,
    book: e.book,
    locked_price: e.lockedPrice,
    locked_fair_prob: e.lockedFairProb,
    locked_at: e.lockedAt,
    closing_line: e.closingLine,
    closing_price: e.closingPrice,
    clv: e.clv,
    clv_verdict: e.clvVerdict,
    outcome: e.outcome,
    actual: e.actualValue,
    settled_at: e.settledAt,
    revised_from_grade: e.revisedFromGrade,
  };
}

export function ledgerRoutes(deps: ServerDeps): Route[] {
  const accuracy = (path: string) =>
    defineRoute({
      method: 'GET',
      path,
      tag: 'record',
      access: 'public',
      summary: 'Accuracy by grade tier over the rolling 30 days',
      description: 'Public record only. A tier below 20 decided entries is in the learning state: counts, no percentage.',
      query: accuracyQuerySchema,
      maxAge: 300,
      statsLimited: true,
      handle: ({ query }) => readAccuracy(deps.store, deps.now(), 30, query.sport),
    });
  return [
    accuracy('/api/accuracy'),
    accuracy('/api/ledger/accuracy'),
    defineRoute({
      method: 'GET',
      path: '/api/ledger/model',
      tag: 'record',
      access: 'tier-shaped',
      summary: 'Public model record: entries and the 30-day aggregate',
      description:
        'Filters date (one ET game date, replaces the window), team, player (matched by normalized key), sport. Percentages are null below n = 20. Entries carry p_win only for entitled callers.',
      query: ledgerModelQuerySchema,
      maxAge: 300,
      statsLimited: true,
      handle: ({ caller, query }) => {
        const now = deps.now();
        const record = readModelRecord(deps.store, {
          now,
          ...(query.date ? { date: query.date } : {}),
          ...(query.team ? { team: query.team } : {}),
          ...(query.player ? { player: query.player } : {}),
          ...(query.sport ? { sport: query.sport } : {}),
        });
        const entries = listLedger(
          deps.store.db,
          {
            publicOnly: true,
            ...(query.date ? { date: query.date } : { from: record.aggregate.window.from, to: record.aggregate.window.to }),
            ...(query.team ? { team: query.team } : {}),
            ...(query.player ? { playerKey: normalizeName(query.player).key } : {}),
            ...(query.sport ? { sport: query.sport } : {}),
          },
          query.limit,
        );
        return {
          aggregate: record.aggregate,
          tiers: record.tiers,
          count: entries.length,
          limit: query.limit,
          entries: entries.map((e) => shapeRow(ledgerEntryView(e), caller.tier)),
        };
      },
    }),
  ];
}
