import { describe, expect, it } from 'vitest';
import { oneSidedRuleFor } from '../../../src/domain/model/fitted-one-sided-soccer.js';
import { capLegendLines, gradeFor } from '../../../src/domain/model/grading.js';
import { fairOverForBook, priceLadder, type LadderLine, type OneSidedRuleFor } from '../../../src/domain/model/market.js';
import { decimalToAmerican } from '../../../src/domain/odds.js';

const am = (d: number) => decimalToAmerican(d) as number;
const soccer = (stat: string): OneSidedRuleFor => (line) => oneSidedRuleFor('soccer', stat, line);

// Real prices from ../shared/history/epl_player_props_2024-08_to_2026-01.csv.gz, snapshot 2025-12-20T07:33:17Z,
// Wolverhampton Wanderers v Brentford, Rico Henry tackles over 2.5: bet365 4.00, Neds 1.78 (over only).
const henryTackles: LadderLine[] = [{ line: 2.5, quotes: [{ book: 'bet365_au', over: am(4), under: null }, { book: 'neds', over: am(1.78), under: null }] }];
// Snapshot 2025-11-01T07:33:42Z, Burnley v Arsenal, Bukayo Saka shots on target over 1.5: Neds 2.00, Pointsbet 2.15.
const sakaSot: LadderLine[] = [{ line: 1.5, quotes: [{ book: 'neds', over: am(2), under: null }, { book: 'pointsbet_au', over: am(2.15), under: null }] }];

describe('one-sided soccer lines in fair formation', () => {
  it('prices the over of a line no book quotes both sides of, from each book de-vigged with its fitted margin', () => {
    const rows = priceLadder(henryTackles, null, soccer('tackles'));
    expect(rows).toHaveLength(1);
    const [row] = rows;
    // Tackles: multiplicative, Neds 1.5659, bet365 unseen in training -> pooled 1.4714; thin (one other book): mean of both.
    const fair = (1 / 1.78 / 1.5659 + 1 / 4 / 1.4714) / 2;
    expect(row).toMatchObject({ side: 'over', book: 'bet365_au', underOdds: null, overround: null, fairSource: 'consensus', thinConsensus: true, consensusBooks: 2, isMainLine: true, oneSided: { market: 'tackles', passed: false } });
    expect(row?.fairProb).toBeCloseTo(fair, 12);
    // The close is read by the same rule.
    expect(fairOverForBook(henryTackles, 2.5, 'bet365_au', null, soccer('tackles'))?.pOver).toBeCloseTo(fair, 12);
  });

  it('leaves a one-sided line unpriced without a rule (as before) and a two-sided line to the ordinary de-vig', () => {
    expect(priceLadder(henryTackles, null)).toEqual([]);
    const twoSided: LadderLine[] = [{ line: 2.5, quotes: [{ book: 'bet365_au', over: am(4), under: am(1.2) }, { book: 'neds', over: am(1.78), under: null }] }];
    const rows = priceLadder(twoSided, null, soccer('tackles'));
    expect(rows.map((r) => r.side)).toEqual(['over', 'under']);
    expect(rows.every((r) => r.oneSided === undefined && r.fairSource === 'book')).toBe(true);
    expect(rows[0]?.fairProb).toBeCloseTo(1 / 4 / (1 / 4 + 1 / 1.2), 12);
  });

  it('caps a one-sided row of a market that failed its held-out test: one_sided_market, and says why', () => {
    const row = priceLadder(henryTackles, null, soccer('tackles'))[0];
    if (!row) throw new Error('no row');
    const evPct = 100 * (row.fairProb * 4 - 1);
    expect(evPct).toBeGreaterThan(5);
    const verdict = gradeFor({ evPct, fairSource: row.fairSource, thinConsensus: row.thinConsensus, gradedAtOutlier: row.gradedAtOutlier, fitted: false, oneSidedPassed: row.oneSided?.passed ?? null });
    expect(verdict).toEqual({ grade: 'C', gradeUncapped: 'A+', capReason: 'one_sided_market' });
    expect(capLegendLines([{ grade: verdict.grade, gradeUncapped: verdict.gradeUncapped, capReason: verdict.capReason }])).toEqual([
      "C* = capped: the EV would earn A+; one-sided market (books price only the over, so its fair is each book's margin-removed over, and for this market that fair failed its held-out test)",
    ]);
  });

  it('grades a one-sided row of a market that passed without that cap', () => {
    const row = priceLadder(sakaSot, null, soccer('shots_on_target'))[0];
    expect(row?.oneSided).toEqual({ market: 'shots_on_target', family: 'odds_ratio', passed: true });
    const verdict = gradeFor({ evPct: 9, fairSource: 'consensus', thinConsensus: false, gradedAtOutlier: false, fitted: true, oneSidedPassed: row?.oneSided?.passed ?? null });
    expect(verdict).toEqual({ grade: 'A+', gradeUncapped: 'A+', capReason: null });
  });

  it('has no one-sided rule outside soccer or for a stat the study did not fit', () => {
    expect(oneSidedRuleFor('nba', 'assists', 0.5)).toBeNull();
    expect(oneSidedRuleFor('soccer', 'passes', 30.5)).toBeNull();
    expect(oneSidedRuleFor('soccer', 'goals', 0.5)?.market).toBe('anytime_goal');
    expect(oneSidedRuleFor('soccer', 'goals', 1.5)?.market).toBe('goals_2plus');
    // The Odds API's au key for Pointsbet reads the fitted Pointsbet margin.
    expect(oneSidedRuleFor('soccer', 'shots', 2.5)?.paramFor('pointsbetau')).toBe(1.198);
  });
});
