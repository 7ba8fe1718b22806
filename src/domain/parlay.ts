import { badInput } from '../errors.js';
import { gradeFromPoints, gradePoints, type Grade } from './grades.js';
import { americanToDecimal, decimalToAmerican } from './odds.js';
import { PARLAY_LEG_CAP, type Tier } from './tiers.js';

/**
 * Parlay arithmetic (seed rules, spec "Parlay"): pair correlation by game relationship, the
 * combined grade, the estimated payout, the correlation warning and the leg caps. Pure; the
 * pipeline feeds it legs it has already graded. docs/parlay.md explains every number here.
 */

/** Spec limit: 2 to 6 legs per request (one prop alone is a scan, not a parlay). */
export const PARLAY_MIN_LEGS = 2;
export const PARLAY_MAX_LEGS = 6;

export const RELATIONSHIPS = ['same_player', 'same_team_same_game', 'same_game_opposing_teams', 'different_games', 'unknown'] as const;
export type Relationship = (typeof RELATIONSHIPS)[number];

/**
 * Seed correlation per relationship. Two props of one player move together most (one bad
 * night sinks both); teammates share one game's pace and minutes; opponents share only the
 * game's pace; separate games share nothing. `unknown` (a leg without a known game or team)
 * has no score: it is left out of the average instead of being guessed.
 */
export const CORRELATION: Readonly<Record<Exclude<Relationship, 'unknown'>, number>> = {
  same_player: 0.7,
  same_team_same_game: 0.4,
  same_game_opposing_teams: 0.2,
  different_games: 0.0,
};

/** Grade points taken off the average leg grade per unit of average correlation. */
export const CORRELATION_PENALTY_FACTOR = 0.5;
/** Warn when the slip's average correlation reaches this, or any single pair reaches the next. */
export const WARN_AVERAGE_CORRELATION = 0.2;
export const WARN_PAIR_CORRELATION = 0.4;

/** What a leg's relationship to another depends on. Null means "not known from real data". */
export interface LegContext {
  playerKey: string | null;
  team: string | null;
  eventId: string | null;
}

export function relationshipOf(a: LegContext, b: LegContext): Relationship {
  if (a.playerKey !== null && a.playerKey === b.playerKey) return 'same_player';
  if (a.eventId === null || b.eventId === null) return 'unknown';
  if (a.eventId !== b.eventId) return 'different_games';
  if (a.team === null || b.team === null) return 'unknown';
  return a.team === b.team ? 'same_team_same_game' : 'same_game_opposing_teams';
}

export function correlationOf(relationship: Relationship): number | null {
  return relationship === 'unknown' ? null : CORRELATION[relationship];
}

export interface PairCorrelation {
  /** 1-based leg numbers, a < b. */
  a: number;
  b: number;
  relationship: Relationship;
  score: number | null;
}

export function pairCorrelations(legs: readonly LegContext[]): PairCorrelation[] {
  const pairs: PairCorrelation[] = [];
  for (let i = 0; i < legs.length; i++) {
    for (let j = i + 1; j < legs.length; j++) {
      const relationship = relationshipOf(legs[i]!, legs[j]!);
      pairs.push({ a: i + 1, b: j + 1, relationship, score: correlationOf(relationship) });
    }
  }
  return pairs;
}

/** Mean score over the pairs whose relationship is known; null when none is (or there are no pairs). */
export function averageCorrelation(pairs: readonly PairCorrelation[]): number | null {
  const known = pairs.map((p) => p.score).filter((s): s is number => s !== null);
  if (known.length === 0) return null;
  return known.reduce((s, x) => s + x, 0) / known.length;
}

export interface CombinedGrade {
  grade: Grade | null;
  /** True when the grade rests on fewer than two legs: a leg grade, not a parlay grade. */
  provisional: boolean;
  legsUsed: number;
  legsTotal: number;
  points: {
    /** Mean grade points of the graded legs. */
    average: number | null;
    /** average correlation x CORRELATION_PENALTY_FACTOR; null with no known pair. */
    penalty: number | null;
    combined: number | null;
  };
}

/**
 * Average of the graded legs' grade points, minus average correlation x 0.5, mapped back to the
 * nearest letter. Refused legs (null) are left out and `legs_used` says how many remain. A
 * one-leg slip has no pair, so its grade is the leg's own, flagged provisional. A multi-leg
 * slip whose pair relationships are all unknown has no honest penalty, so no combined grade.
 */
export function combineGrades(grades: ReadonlyArray<Grade | null>, avgCorrelation: number | null): CombinedGrade {
  const used = grades.filter((g): g is Grade => g !== null);
  const base = { legsUsed: used.length, legsTotal: grades.length, provisional: used.length < 2 };
  if (used.length === 0) return { ...base, grade: null, points: { average: null, penalty: null, combined: null } };
  const average = used.reduce((s, g) => s + gradePoints(g), 0) / used.length;
  const penalty = avgCorrelation === null ? null : avgCorrelation * CORRELATION_PENALTY_FACTOR;
  const combined = grades.length === 1 ? average : penalty === null ? null : average - penalty;
  return { ...base, grade: combined === null ? null : gradeFromPoints(combined), points: { average, penalty, combined } };
}

export interface Payout {
  /** Product of the legs' fair decimal odds, before the correlation haircut. */
  product: number;
  decimal: number;
  /** Null when the estimate is at or below even stake (no American price exists for it). */
  american: number | null;
}

/**
 * Estimated payout = product of the legs' fair decimal odds x (1 - average correlation). Null
 * when any leg lacks a fair price, or when a multi-leg slip has no known pair relationship.
 * One leg: no pair, so no haircut.
 */
export function estimatePayout(fairAmericans: ReadonlyArray<number | null>, avgCorrelation: number | null): Payout | null {
  if (fairAmericans.length === 0) return null;
  const decimals = fairAmericans.map((a) => americanToDecimal(a));
  if (decimals.some((d) => d === null)) return null;
  const product = (decimals as number[]).reduce((p, d) => p * d, 1);
  if (fairAmericans.length > 1 && avgCorrelation === null) return null;
  const decimal = product * (1 - (fairAmericans.length > 1 ? (avgCorrelation as number) : 0));
  return { product, decimal, american: decimalToAmerican(decimal) };
}

const RELATIONSHIP_LABEL: Readonly<Record<Relationship, string>> = {
  same_player: 'same player',
  same_team_same_game: 'same team, same game',
  same_game_opposing_teams: 'same game, opposing teams',
  different_games: 'different games',
  unknown: 'unknown',
};

export function relationshipLabel(r: Relationship): string {
  return RELATIONSHIP_LABEL[r];
}

/** The correlation warning, when the average or any pair reaches its threshold; else null. */
export function correlationWarning(pairs: readonly PairCorrelation[], avgCorrelation: number | null): string | null {
  const strong = pairs.filter((p) => p.score !== null && p.score >= WARN_PAIR_CORRELATION);
  const highAverage = avgCorrelation !== null && avgCorrelation >= WARN_AVERAGE_CORRELATION;
  if (strong.length === 0 && !highAverage) return null;
  const named = strong.map((p) => `legs ${p.a}+${p.b} ${relationshipLabel(p.relationship)} (${p.score?.toFixed(1)})`);
  const avg = avgCorrelation === null ? '' : `average correlation ${avgCorrelation.toFixed(2)}`;
  const parts = [avg, ...named].filter((s) => s.length > 0).join('; ');
  return `correlated legs: ${parts}. Correlated legs tend to win or lose together, so the combined grade and payout are marked down.`;
}

/** Enforces 2..6 legs and the tier's cap; the message names the cap. */
export function assertLegCount(count: number, tier: Tier): void {
  if (count < PARLAY_MIN_LEGS) {
    throw badInput(`a parlay takes ${PARLAY_MIN_LEGS} to ${PARLAY_MAX_LEGS} legs, got ${count}${count === 1 ? ' (one prop alone: propgrade scan, or POST /api/scan)' : ''}`);
  }
  if (count > PARLAY_MAX_LEGS) throw badInput(`a parlay takes ${PARLAY_MIN_LEGS} to ${PARLAY_MAX_LEGS} legs, got ${count}`);
  const cap = PARLAY_LEG_CAP[tier];
  if (count > cap) {
    throw badInput(`the ${tier} tier allows at most ${cap} legs per parlay, got ${count} (caps: free ${PARLAY_LEG_CAP.free}, analyst ${PARLAY_LEG_CAP.analyst}, desk ${PARLAY_LEG_CAP.desk})`);
  }
}

/** One leg as the parlay rule sees it, after its player was looked up on the board. */
export interface ParlayLegCheck {
  /** 1-based. */
  leg: number;
  /** How the leg reads in a message: "Jalen Brunson points over 27.5". */
  label: string;
  /**
   * The market the leg bets on, one player's one stat: the resolved player (with his sport) when
   * the name resolved, else the typed name normalized, so a leg typed twice is still one market.
   */
  market: string;
  line: number;
  side: 'over' | 'under';
  /** Null when the leg resolved to a line the board prices for an upcoming game; else why not. */
  unresolved: string | null;
}

export type LegConflictKind = 'repeated' | 'both_sides' | 'same_market';

export interface LegConflict {
  a: number;
  b: number;
  kind: LegConflictKind;
}

/**
 * Pairs of legs that bet one market: the same prop twice, both sides of one prop, or two lines of
 * one player's stat. A parlay multiplies its legs as if each could win or lose apart from the
 * others; none of these pairs can (a repeated leg is one bet, two sides of a line cannot both win,
 * and of two lines one decides or contradicts the other), and books take none of them together.
 */
export function legConflicts(legs: readonly ParlayLegCheck[]): LegConflict[] {
  const out: LegConflict[] = [];
  for (let i = 0; i < legs.length; i++) {
    for (let j = i + 1; j < legs.length; j++) {
      const a = legs[i]!;
      const b = legs[j]!;
      if (a.market !== b.market) continue;
      const kind: LegConflictKind = a.line !== b.line ? 'same_market' : a.side === b.side ? 'repeated' : 'both_sides';
      out.push({ a: a.leg, b: b.leg, kind });
    }
  }
  return out;
}

const CONFLICT_TEXT: Readonly<Record<LegConflictKind, string>> = {
  repeated: 'are the same prop twice',
  both_sides: 'are both sides of one prop (they cannot both win)',
  same_market: "are two lines of one player's stat (one decides or contradicts the other)",
};

/** Why a set of legs is no parlay: the pairs that bet one market, and the unresolved legs when no leg resolves. */
export interface ParlayProblems {
  conflicts: LegConflict[];
  /** Every leg with its reason, only when none resolves (one resolved leg keeps the rest as warnings). */
  unresolved: Array<{ leg: number; reason: string }>;
}

export function parlayProblems(legs: readonly ParlayLegCheck[]): ParlayProblems {
  const reasons = legs.flatMap((l) => (l.unresolved === null ? [] : [{ leg: l.leg, reason: l.unresolved }]));
  const none = legs.length > 0 && reasons.length === legs.length;
  return { conflicts: legConflicts(legs), unresolved: none ? reasons : [] };
}

/** Refuses legs that make no parlay (bad input: exit 2, HTTP 400), naming each leg at fault. */
export function assertParlayLegs(legs: readonly ParlayLegCheck[]): void {
  const problems = parlayProblems(legs);
  const label = new Map(legs.map((l) => [l.leg, l.label]));
  const named = (n: number) => `${n} (${label.get(n) ?? '?'})`;
  const words = [
    ...problems.conflicts.map((c) => `legs ${named(c.a)} and ${named(c.b)} ${CONFLICT_TEXT[c.kind]}`),
    ...(problems.unresolved.length > 0 ? [`no leg resolves to a line the board prices: ${problems.unresolved.map((u) => `leg ${named(u.leg)}: ${u.reason}`).join('; ')}`] : []),
  ];
  if (words.length > 0) throw badInput(`not a parlay: ${words.join('; ')}`, problems);
}
