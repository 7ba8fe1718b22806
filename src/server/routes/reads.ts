import { z } from 'zod';
import { PARLAY_LEG_CAP, shapeRow, type Tier } from '../../domain/tiers.js';
import { AppError } from '../../errors.js';
import { gradeParlay, parlayLegInputSchema, type ParlayLeg } from '../../reads/parlay.js';
import { runScan, scanRequestSchema } from '../../jobs/scan.js';
import { evaluateProp } from '../../reads/evaluate-prop.js';
import type { ServerDeps } from '../context.js';
import { readMeter, releaseMetered, reserveMetered, retryAfterFor } from '../../accounts/meter.js';
import { clientKey, defineRoute, type Route } from '../route.js';
import { parlayAnswerSchema, scanAnswerSchema, scanMeterSchema, scanViewSchema } from '../wire/answers-core.js';

/** usage_events kind for a metered scan read. */
export const SCAN_READ_KIND = 'scan_read';

export const parlayRequestSchema = z.object({
  legs: z.array(parlayLegInputSchema).min(2, 'a parlay takes 2 to 6 legs').max(6, 'a parlay takes 2 to 6 legs'),
});

/** The caller's scan limit: one lookup for the limiter and the meter (the numbers: SCAN_READS_PER_DAY in src/domain/tiers.ts). */
export function scanLimit(deps: ServerDeps, tier: Tier): number | null {
  return deps.limits.scanReadsPerDay[tier];
}

export function readRoutes(deps: ServerDeps): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/scan',
      tag: 'grading',
      access: 'tier-shaped',
      response: scanAnswerSchema,
      summary: 'Scan one player/stat/line/direction',
      description:
        "Public. Grade plus intel and the book/fair prices recovered from the latest snapshot by exact join. With a valid token the graded read is written to that user's ledger; anonymous scans never are. A refused read (no projection) writes nothing and is not metered. Graded reads are metered per rolling 24 h (free 5, analyst 100, desk unlimited); over the meter: 429 with Retry-After.",
      body: scanRequestSchema,
      errors: [429],
      handle: async ({ event, caller, body }) => {
        // The meter counts requests: its rolling 24 hours run on the wall clock, the read on the data clock.
        const wall = deps.wallNow();
        const subject = clientKey(event, caller, deps.config);
        const limit = scanLimit(deps, caller.tier);
        // A slot is taken before the read and given back if the read is refused, so concurrent
        // scans can never pass the limit and a refused read never counts.
        let reserved: number | null = null;
        if (limit !== null) {
          const slot = await reserveMetered(deps.store, subject, SCAN_READ_KIND, limit, wall);
          if (!slot.ok) {
            throw new AppError('RATE_LIMITED', `scan meter: ${limit} graded reads per rolling 24 hours for the ${caller.tier} tier`, {
              retryAfter: retryAfterFor(slot.oldest, wall),
              details: { used: slot.used, limit },
            });
          }
          reserved = slot.id;
        }
        let result: Awaited<ReturnType<typeof runScan>>;
        try {
          result = await runScan(deps.store, body, { now: (sport) => deps.now(sport), userId: caller.authenticated && caller.user ? caller.user.id : null, evaluate: evaluateProp });
        } catch (error) {
          if (reserved !== null) await releaseMetered(deps.store, reserved);
          throw error;
        }
        if (!result.metered && reserved !== null) await releaseMetered(deps.store, reserved);
        const meter = await readMeter(deps.store, subject, SCAN_READ_KIND, limit, wall);
        return { ...shapeRow(result, caller.tier), meter: meter.unlimited ? null : { used: meter.used, limit: meter.limit, windowHours: meter.windowHours } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/user/scan-meter',
      tag: 'accounts',
      access: 'auth',
      response: scanMeterSchema,
      summary: "The caller's scan meter: graded reads in the rolling 24 hours",
      description:
        'Auth required (no, unknown or revoked token: 401). Read from the same usage_events rows the POST /api/scan limiter counts. Limited tiers: `{ unlimited: false, used, limit, remaining, window_hours: 24, window_start, next_free_at }`; `next_free_at` is when the oldest counted read leaves the window (null when none is counted). Unlimited tiers (desk): `{ unlimited: true }` and nothing else. A refused read (insufficient_data) is never counted. Limits per tier: free 5, analyst 100, desk unlimited.',
      errors: [401],
      handle: ({ event, caller }) => readMeter(deps.store, clientKey(event, caller, deps.config), SCAN_READ_KIND, scanLimit(deps, caller.tier), deps.wallNow()),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/analyze',
      tag: 'grading',
      access: 'tier-gated',
      response: scanViewSchema,
      summary: 'Model-price analysis of one prop (analyst and desk)',
      description:
        "The scan engine's read with the projection's own view (projection_prob, projection_odds, projection_ev_pct, projection_record) beside the market's (p_win, model_odds, ev_pct, value, takeable), with intel and prices. Free tier: 403. Not metered, never written to the ledger.",
      body: scanRequestSchema,
      errors: [403],
      handle: async ({ caller, body }) => {
        const result = await runScan(deps.store, body, { now: (sport) => deps.now(sport), userId: null, evaluate: evaluateProp });
        const { ledger: _ledger, metered: _metered, ...analysis } = result;
        return shapeRow(analysis, caller.tier);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/parlay/grade',
      tag: 'grading',
      access: 'tier-shaped',
      response: parlayAnswerSchema,
      summary: 'Grade a parlay of 2 to 6 legs',
      description:
        "Legs per tier: free 2, analyst 4, desk 6 (more than the tier allows: 403). 400 for legs that make no parlay, naming them (details.conflicts, details.unresolved): two legs on one player's stat (the same prop twice, both sides of one prop, two lines of one stat), or no leg on a line the latest snapshot prices for an upcoming game. Combined grade, correlation, per-leg grades, the estimated payout at the market's fair prices; the payout at the projection's prices (projection_payout) and each leg's projection view are for analyst and desk (free: upsell).",
      body: parlayRequestSchema,
      errors: [403],
      handle: async ({ caller, body }) => {
        const cap = PARLAY_LEG_CAP[caller.tier];
        if (body.legs.length > cap) {
          throw new AppError('FORBIDDEN', `the ${caller.tier} tier grades at most ${cap} legs per parlay (free ${PARLAY_LEG_CAP.free}, analyst ${PARLAY_LEG_CAP.analyst}, desk ${PARLAY_LEG_CAP.desk})`);
        }
        const result = await gradeParlay(deps.store, body.legs, { now: (sport) => deps.now(sport), tier: caller.tier });
        // Each leg's projection view goes with the tier like every row's; gradeParlay already left out the projection payout.
        return { ...result, legs: result.legs.map((l) => shapeRow<ParlayLeg>(l, caller.tier)) };
      },
    }),
  ];
}
