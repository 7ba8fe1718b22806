import { z } from 'zod';
import { fairAmerican } from '../../domain/odds.js';
import { GRADED_SPORTS, gradedSportSchema } from '../../domain/sports.js';
import { shapeRow } from '../../domain/tiers.js';
import { findHero } from '../../reads/board.js';
import { readTicker } from '../../reads/ticker.js';
import { gradedRowView } from '../../reads/views.js';
import type { GradedRowRecord } from '../../store/repo/snapshots.js';
import type { ServerDeps } from '../context.js';
import { defineRoute, type Route } from '../route.js';
import { heroPropSchema, tickerSchema } from '../wire/answers-core.js';

export const heroQuerySchema = z.object({ sport: gradedSportSchema.optional() });

/**
 * The hero's grade with the price it was computed on and when (the lock's), beside the market now:
 * a client quotes `claim` with the grade and `now` as now, never the grade next to the price now.
 */
export function heroClaim(row: GradedRowRecord) {
  return {
    grade: row.grade,
    book: row.lockedBook,
    odds: row.lockedOdds,
    fairOdds: fairAmerican(row.lockedFairProb),
    // Snake_case here on purpose: wire.ts keeps `gradedAt` verbatim (the seed row's spelling), and the claim says graded_at.
    graded_at: row.gradedAt,
    // The market in the snapshot the hero was read from (snapshot_id).
    now: { book: row.book, odds: row.bookOdds, fairOdds: row.fairOdds },
  };
}

export function boardRoutes(deps: ServerDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/ticker',
      tag: 'board',
      access: 'public',
      response: tickerSchema,
      summary: 'Ticker: snapshot line moves (MOVE) and manual pins',
      description: 'Hidden (visible false, no items) when fewer than 4 real items exist. Clients poll every 30 s.',
      maxAge: 30,
      handle: () => readTicker(deps.store, deps.now(), deps.config.TICKER_MANUAL),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/hero-prop',
      tag: 'board',
      access: 'tier-shaped',
      response: heroPropSchema,
      summary: 'The hero prop: the A or B prop with the largest |projection - line|',
      description:
        "Today's slate first; with no qualifying prop today, the most recent real graded read flagged latest: true; nothing stored: {available:false}. A projection on the other side of the line, or an edge gone now, never competes. `claim` is the grade with the price, book, fair and time it was computed on (the lock's), `claim.now` the market now. Model fields are tier-shaped.",
      query: heroQuerySchema,
      maxAge: 60,
      handle: async ({ caller, query }) => {
        const hero = await findHero(deps.store, deps.now(query.sport), query.sport ? [query.sport] : GRADED_SPORTS);
        if (!hero) return { available: false };
        const { row, latest } = hero;
        return {
          available: true,
          latest,
          sport: row.sport,
          snapshotId: row.snapshotId,
          gap: row.projection === null ? null : Math.abs(row.projection - row.line),
          claim: heroClaim(row),
          prop: shapeRow(gradedRowView(row), caller.tier),
        };
      },
    }),
  ];
}

