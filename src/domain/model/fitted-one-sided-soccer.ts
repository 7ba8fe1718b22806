import type { OneSidedFamily } from '../devig/one-sided.js';

/**
 * Output of `node scripts/research/epl-one-sided.mjs` (issue 42 part B) on
 * ../shared/history/epl_player_props_2024-08_to_2026-01.csv.gz, epl_matches_2024-25_2025-26.csv and
 * epl_player_match_stats_2024-25_2025-26.csv.gz (PROVENANCE.md Sources 5-6): per EPL market, the
 * one-sided de-vig family chosen inside 2024-25 (fitted on its first 70% of matches, the lowest
 * log loss on the last 30%), its margin parameter fitted per book on all of 2024-25 (books with
 * fewer than 200 training quotes, and books never seen, take the pooled value), and the held-out
 * 2025-26 test (results to 2025-12-13; 2,000 match-bootstrap resamples, seed 20250801). `passed`
 * = the calibration slope's 95% interval contains 1 AND log loss no worse than the plain implied
 * average over books. A market that fails caps its one-sided rows (cap_reason one_sided_market).
 * test/domain/model/fitted-one-sided-soccer.test.ts holds this table equal to the script's output.
 */
export interface OneSidedMarketFit {
  family: OneSidedFamily;
  /** The market's parameter fitted on every book's 2024-25 quotes together. */
  pooled: number;
  /** Per book (the shared file's book keys), fitted on that book's 2024-25 quotes. */
  books: Readonly<Record<string, number>>;
  /** Held out on 2025-26: the method's log loss and slope, the plain implied average's log loss. */
  heldOut: { n: number; logLoss: number; baselineLogLoss: number; slope: number; slopeLo: number; slopeHi: number; passed: boolean };
}

export type OneSidedMarket = 'anytime_goal' | 'goals_2plus' | 'shots' | 'shots_on_target' | 'assists' | 'tackles';

export const SOCCER_ONE_SIDED: Readonly<Record<OneSidedMarket, OneSidedMarketFit>> = {
  anytime_goal: {
    family: 'power',
    pooled: 1.4112,
    books: { neds: 1.411, pointsbet_au: 1.3484, sportsbet: 1.3827, tab: 1.5098 },
    heldOut: { n: 3943, logLoss: 0.2727, baselineLogLoss: 0.3035, slope: 0.8005, slopeLo: 0.6731, slopeHi: 0.9213, passed: false },
  },
  goals_2plus: {
    family: 'power',
    pooled: 1.4425,
    books: { neds: 1.4657, pointsbet_au: 1.3785, sportsbet: 1.4503, tab: 1.4824 },
    heldOut: { n: 7738, logLoss: 0.0215, baselineLogLoss: 0.0291, slope: 1.0537, slopeLo: 0.7594, slopeHi: 1.3298, passed: true },
  },
  shots: {
    family: 'odds_ratio',
    pooled: 1.3244,
    books: { bet365_au: 1.0302, neds: 1.5391, pointsbet_au: 1.198, sportsbet: 1.3628 },
    heldOut: { n: 16241, logLoss: 0.3461, baselineLogLoss: 0.4939, slope: 0.8643, slopeLo: 0.8281, slopeHi: 0.9, passed: false },
  },
  shots_on_target: {
    family: 'odds_ratio',
    pooled: 0.9137,
    books: { bet365_au: 0.8427, neds: 0.9192, pointsbet_au: 0.8262, sportsbet: 1.0443 },
    heldOut: { n: 12781, logLoss: 0.214, baselineLogLoss: 0.2724, slope: 1.0357, slopeLo: 0.9758, slopeHi: 1.0934, passed: true },
  },
  assists: {
    family: 'odds_ratio',
    pooled: 0.8393,
    books: { neds: 0.9512, pointsbet_au: 0.733 },
    heldOut: { n: 3337, logLoss: 0.2388, baselineLogLoss: 0.2854, slope: 0.8685, slopeLo: 0.6002, slopeHi: 1.1158, passed: true },
  },
  tackles: {
    family: 'multiplicative',
    pooled: 1.4714,
    books: { neds: 1.5659, pointsbet_au: 1.4377 },
    heldOut: { n: 6366, logLoss: 0.5151, baselineLogLoss: 0.6206, slope: 1.4275, slopeLo: 1.3473, slopeHi: 1.5127, passed: false },
  },
};

/** The Odds API's au-region keys for the same books (the fit used the shared file's keys). */
const BOOK_ALIASES: Readonly<Record<string, string>> = { pointsbetau: 'pointsbet_au' };

/** The one-sided market of a soccer stat at a line: goals 0.5 is the anytime scorer, higher goal lines are 2+/3+. */
export function oneSidedMarketOf(stat: string, line: number): OneSidedMarket | null {
  if (stat === 'goals') return line === 0.5 ? 'anytime_goal' : line > 0.5 ? 'goals_2plus' : null;
  return stat === 'shots' || stat === 'shots_on_target' || stat === 'assists' || stat === 'tackles' ? stat : null;
}

/** How market.ts de-vigs one book's lone over price in a one-sided soccer market, and whether its gate passed. */
export interface OneSidedRule {
  market: OneSidedMarket;
  family: OneSidedFamily;
  /** The book's fitted parameter, or the market's pooled one for a book the fit did not see. */
  paramFor: (book: string) => number;
  passed: boolean;
}

/** The rule for a (sport, stat, line); null outside soccer and for a stat the study did not fit. */
export function oneSidedRuleFor(sport: string, stat: string, line: number): OneSidedRule | null {
  if (sport !== 'soccer') return null;
  const market = oneSidedMarketOf(stat, line);
  if (market === null) return null;
  const fit = SOCCER_ONE_SIDED[market];
  return {
    market,
    family: fit.family,
    paramFor: (book) => fit.books[BOOK_ALIASES[book] ?? book] ?? fit.pooled,
    passed: fit.heldOut.passed,
  };
}
