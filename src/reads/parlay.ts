import { z } from 'zod';
import { archetypeBefore } from '../domain/archetypes/index.js';
import type { Grade } from '../domain/grades.js';
import type { CapReason } from '../domain/model/grading.js';
import {
  assertLegCount,
  assertParlayLegs,
  averageCorrelation,
  combineGrades,
  correlationWarning,
  estimatePayout,
  pairCorrelations,
  type CombinedGrade,
  type PairCorrelation,
  type ParlayLegCheck,
} from '../domain/parlay.js';
import { gradedSportSchema, sideSchema, type GradedSport, type Side } from '../domain/sports.js';
import { propLineSchema, statInputSchema, type StatType } from '../domain/stats.js';
import { normalizeName, playerNameSchema } from '../domain/names.js';
import { projectionView, type ProjectionRecord } from '../domain/projection-view.js';
import { hasModelPriceEntitlement, type Tier } from '../domain/tiers.js';
import type { Store } from '../store/db.js';
import type { GameRef, PlayerCandidate } from '../domain/prop-evaluation.js';
import type { DataClock } from '../domain/data-clock.js';
import { evaluateProp } from './evaluate-prop.js';

/**
 * Parlay grading: each leg through the scan's engine (reads/evaluate-prop.ts: same resolution, same gradeProp, same
 * board prices), then the seed rules of src/domain/parlay.ts. Reads the store only.
 */

export const parlayLegInputSchema = z.object({
  player: playerNameSchema,
  stat: statInputSchema,
  line: propLineSchema,
  side: sideSchema,
  sport: gradedSportSchema.optional(),
});
export type ParlayLegInput = z.infer<typeof parlayLegInputSchema>;

export const UPSELL = "The projection's own payout (each leg at the projection's price) and each leg's projection probability, price, EV and held-out record are part of the analyst and desk tiers; upgrade to see them.";

export interface ParlayLeg {
  leg: number;
  player: string;
  playerKey: string | null;
  stat: StatType;
  line: number;
  side: Side;
  sport: GradedSport | null;
  team: string | null;
  game: GameRef | null;
  archetype: string | null;
  grade: Grade | null;
  /** The letter the leg's EV earns uncapped, and the cap holding grade below it (null: not capped or no grade). */
  gradeUncapped: Grade | null;
  capReason: CapReason | null;
  /** Why the engine gave no grade (insufficient data, unknown or ambiguous player). */
  refusal?: string;
  candidates?: PlayerCandidate[];
  projection: number | null;
  bookOdds: number | null;
  fairOdds: number | null;
  /** The projection's own view of the leg (paid tiers; the route's tier shaping removes it). */
  projectionProb: number | null;
  projectionOdds: number | null;
  projectionEvPct: number | null;
  projectionRecord: ProjectionRecord | null;
}

export interface ParlayResult {
  combined: CombinedGrade;
  correlation: { average: number | null; pairs: PairCorrelation[] };
  /** At the legs' market fair prices (free: anyone holding fair_odds and docs/parlay.md computes it). */
  payout: { decimal: number; american: number | null } | null;
  /** At the legs' projection prices, same haircut: paid tiers only (absent for free, null when a leg has none). */
  projectionPayout?: { decimal: number; american: number | null } | null;
  /** Set instead of the projection payout for a caller without the entitlement (free tier). */
  upsell?: string;
  warnings: string[];
  legs: ParlayLeg[];
  tier: Tier;
}

const NO_PROJECTION = { projectionProb: null, projectionOdds: null, projectionEvPct: null, projectionRecord: null } as const;

async function gradeLeg(store: Store, input: ParlayLegInput, n: number, now: DataClock): Promise<ParlayLeg> {
  const ev = await evaluateProp(store, input, now);
  const base = { leg: n, player: input.player, stat: input.stat, line: input.line, side: input.side };
  if (!ev.resolved) {
    const refusal =
      ev.status === 'ambiguous'
        ? `ambiguous player '${input.player}': ${ev.candidates.map((c) => `${c.name} (${c.sport})`).join(', ')}`
        : `no player '${input.player}' in the store${ev.suggestions && ev.suggestions.length > 0 ? `; did you mean ${ev.suggestions.map((s) => s.name).join(', ')}?` : ''}`;
    return {
      ...base,
      playerKey: null,
      sport: null,
      team: null,
      game: null,
      archetype: null,
      grade: null,
      gradeUncapped: null,
      capReason: null,
      refusal,
      ...(ev.status === 'ambiguous' ? { candidates: ev.candidates } : {}),
      projection: null,
      bookOdds: null,
      fairOdds: null,
      ...NO_PROJECTION,
    };
  }
  const out = ev.outcome;
  return {
    ...base,
    player: ev.player.name,
    playerKey: ev.player.key,
    sport: ev.sport,
    team: ev.team,
    game: ev.game,
    archetype: archetypeBefore(ev.sport, ev.history, ev.gameDate).classification?.primary ?? null,
    grade: out.grade,
    gradeUncapped: out.insufficientData ? null : out.gradeUncapped,
    capReason: out.insufficientData ? null : out.capReason,
    ...(out.insufficientData ? { refusal: out.reason } : {}),
    projection: out.projection,
    bookOdds: ev.boardRow?.bookOdds ?? null,
    // Fair odds come from the market pair alone, so a refused leg still has them.
    fairOdds: ev.boardRow?.fairOdds ?? null,
    ...(out.insufficientData ? NO_PROJECTION : projectionView(ev.sport, input.stat, out.detail.pModel, ev.boardRow?.bookOdds ?? null)),
  };
}

const describe = (l: ParlayLeg) => `leg ${l.leg} (${l.player} ${l.stat} ${l.side} ${l.line})`;

/**
 * A graded leg as the parlay rule reads it (src/domain/parlay.ts): its market (the resolved player,
 * else the typed name, and the stat) and whether it resolved to a line the board prices.
 */
function legCheck(l: ParlayLeg, input: ParlayLegInput): ParlayLegCheck {
  const who = l.playerKey === null ? `typed:${normalizeName(input.player).key}` : `${l.sport ?? ''}:${l.playerKey}`;
  const priced = l.bookOdds !== null || l.fairOdds !== null;
  const unresolved = l.playerKey === null || !priced ? (l.refusal ?? (l.game === null ? 'no upcoming game on the latest snapshot' : 'the board has no price at this line')) : null;
  return { leg: l.leg, label: `${l.player} ${l.stat} ${l.side} ${l.line}`, market: `${who}|${l.stat}`, line: l.line, side: l.side, unresolved };
}

/** Each leg is read on its own sport's clock (`now` per sport on a replayed store). */
export async function gradeParlay(store: Store, legs: readonly ParlayLegInput[], opts: { now: DataClock; tier: Tier }): Promise<ParlayResult> {
  assertLegCount(legs.length, opts.tier);
  const graded = await Promise.all(legs.map((l, i) => gradeLeg(store, l, i + 1, opts.now)));
  // A repeated prop, both sides of one, two lines of one stat, or no leg on the board: no parlay to grade.
  assertParlayLegs(graded.map((l, i) => legCheck(l, legs[i]!)));
  const pairs = pairCorrelations(graded.map((l) => ({ playerKey: l.playerKey, team: l.team, eventId: l.game?.eventId ?? null })));
  const average = averageCorrelation(pairs);
  const combined = combineGrades(
    graded.map((l) => l.grade),
    average,
  );
  const payout = estimatePayout(
    graded.map((l) => l.fairOdds),
    average,
  );

  const warnings: string[] = [];
  const corr = correlationWarning(pairs, average);
  if (corr) warnings.push(corr);
  // One line per leg: what is wrong with it and what it costs the parlay.
  for (const l of graded) {
    if (l.refusal !== undefined) warnings.push(`${describe(l)} refused: ${l.refusal}; left out of the combined grade and the payout`);
    else if (l.game === null) warnings.push(`${describe(l)} has no upcoming game on the latest snapshot: no price, no payout`);
    else if (l.fairOdds === null) warnings.push(`${describe(l)} has no fair price (the board priced one side only): no payout`);
  }
  const unknown = pairs.filter((p) => p.relationship === 'unknown');
  if (unknown.length > 0) {
    warnings.push(
      `correlation unknown for ${unknown.map((p) => `legs ${p.a}+${p.b}`).join(', ')} (a leg has no game on the latest snapshot or no known team); ${average === null ? 'no pair is known, so there is no combined grade or payout' : 'the average rests on the known pairs'}`,
    );
  }
  if (combined.provisional && combined.legsUsed === 1) warnings.push(`the combined grade rests on one leg: a provisional leg grade, not a parlay grade`);

  const entitled = hasModelPriceEntitlement(opts.tier);
  if (payout && payout.american === null) warnings.push(`estimated payout ${payout.decimal.toFixed(2)}x is at or below the stake after the correlation haircut`);
  const projected = entitled
    ? estimatePayout(
        graded.map((l) => l.projectionOdds),
        average,
      )
    : null;
  return {
    combined,
    correlation: { average, pairs },
    payout: payout ? { decimal: payout.decimal, american: payout.american } : null,
    ...(entitled ? { projectionPayout: projected ? { decimal: projected.decimal, american: projected.american } : null } : { upsell: UPSELL }),
    warnings,
    legs: graded,
    tier: opts.tier,
  };
}
