import { americanToDecimal, fairAmerican } from './odds.js';

/**
 * The projection's own view of a prop (issue 41 item 4): what the paid tiers buy. The letter,
 * p_win and ev_pct are the market's (EV of the locked price at the market's fair), so anyone
 * holding the fair probability and the price can recompute them; they are free. What no free
 * answer holds is the projection's probability of the side (pModel: the count distribution
 * around the projected mean, conditional on no push), its price and the EV of the locked price
 * at it. Beside them goes the projection's held-out record, so a paid caller sees how far that
 * probability has been worth trusting (so far: less than the market's, everywhere but WNBA 2024).
 */

/** The projection's held-out log loss against the market's, at main lines (one P(over) per prop). */
export interface ProjectionRecord {
  /** ET dates of the held-out window (everything fitted before its first day). */
  heldOutFrom: string;
  heldOutTo: string;
  props: number;
  projectionLogLoss: number;
  marketLogLoss: number;
  /** projectionLogLoss - marketLogLoss: below 0 the projection predicted better than the market. */
  projectionMinusMarket: number;
  /** 95% bootstrap interval over games of projectionMinusMarket; null where the back-test printed none. */
  interval: [number, number] | null;
  /** Where the figures are written out, with the command that reproduces them. */
  source: string;
}

const NBA = { heldOutFrom: '2025-10-21', heldOutTo: '2025-11-09', source: 'docs/model.md §6, held-out result (propgrade backtest --fit-before 2025-10-21)' };
const WNBA = { heldOutFrom: '2024-01-01', heldOutTo: '2024-08-20', source: 'docs/model.md §6, WNBA held out: 2024 (propgrade backtest --sport wnba --committed)' };
const MLB = { heldOutFrom: '2025-06-03', heldOutTo: '2025-09-28', source: 'docs/model.md §6b (propgrade backtest --sport mlb)' };

function rec(base: typeof NBA, props: number, projectionLogLoss: number, marketLogLoss: number, diff: number, interval: [number, number] | null): ProjectionRecord {
  return { ...base, props, projectionLogLoss, marketLogLoss, projectionMinusMarket: diff, interval };
}

/**
 * Copied from the back-test tables in docs/model.md (LL pure model, LL consensus, model -
 * consensus). A sport:stat with no held-out run (soccer, MLB batters, WNBA blocks and steals)
 * has no record: absent, never a stand-in.
 */
export const PROJECTION_RECORDS: Readonly<Record<string, ProjectionRecord>> = {
  'nba:assists': rec(NBA, 1663, 0.6992, 0.6871, 0.0121, [0.0005, 0.0235]),
  'nba:blocks': rec(NBA, 1095, 0.6261, 0.6114, 0.0147, [0.0018, 0.0282]),
  'nba:points': rec(NBA, 1689, 0.7205, 0.6937, 0.0269, [0.0147, 0.0396]),
  'nba:pra': rec(NBA, 1671, 0.7213, 0.6915, 0.0298, [0.0169, 0.0428]),
  'nba:rebounds': rec(NBA, 1684, 0.7038, 0.6846, 0.0193, [0.0085, 0.0299]),
  'nba:steals': rec(NBA, 721, 0.6729, 0.6619, 0.0109, [0.0001, 0.0221]),
  'nba:threes': rec(NBA, 1535, 0.6951, 0.6858, 0.0093, [-0.0011, 0.0197]),
  'wnba:points': rec(WNBA, 328, 0.6746, 0.6905, -0.0159, null),
  'wnba:rebounds': rec(WNBA, 268, 0.6793, 0.688, -0.0087, null),
  'wnba:assists': rec(WNBA, 124, 0.7023, 0.7137, -0.0114, null),
  'wnba:threes': rec(WNBA, 177, 0.6692, 0.6846, -0.0154, null),
  'wnba:pra': rec(WNBA, 114, 0.6959, 0.6923, 0.0037, null),
  'mlb:strikeouts': rec(MLB, 2588, 0.7254, 0.6889, 0.0366, [0.0255, 0.0471]),
};

export interface ProjectionView {
  /** The projection's probability of the side, conditional on no push; null: the grade has none. */
  projectionProb: number | null;
  /** Its fair American price. */
  projectionOdds: number | null;
  /** EV of the locked price at projectionProb, percent of stake. */
  projectionEvPct: number | null;
  projectionRecord: ProjectionRecord | null;
}

/** The projection's view of one graded prop from its pModel and the price the grade was locked at. */
export function projectionView(sport: string, stat: string, pModel: number | null, lockedOdds: number | null): ProjectionView {
  const p = typeof pModel === 'number' && pModel > 0 && pModel < 1 ? pModel : null;
  const decimal = americanToDecimal(lockedOdds);
  return {
    projectionProb: p,
    projectionOdds: fairAmerican(p),
    projectionEvPct: p === null || decimal === null ? null : 100 * (p * decimal - 1),
    projectionRecord: p === null ? null : (PROJECTION_RECORDS[`${sport}:${stat}`] ?? null),
  };
}
