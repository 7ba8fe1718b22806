/**
 * A soccer slate graded on the one-sided fair (issue 42 part B, docs/model.md §4b): Fulham v
 * Manchester United of 2025-08-24 as the 2025-08-23T08:33:50Z scrape priced it (real Neds,
 * PointsBet, Sportsbet, TAB and bet365 prices; fixtures and provenance in
 * test/fixtures/soccer-epl-fulham-manutd-2025-08-24.PROVENANCE.md), built into a replay folder by
 * the EPL season builder, imported, snapshotted and read back through the CLI. The fair of a
 * one-sided line is recomputed here from the fixture's raw decimal prices and the fitted
 * parameters as docs/model.md §4b prints them, not read from the code.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeFor } from '../../src/domain/model/grading.js';
import { americanToDecimal } from '../../src/domain/odds.js';
import { storedMarketPricing } from '../../src/domain/slate.js';
import { openStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';

const FIX = 'test/fixtures';
const PROPS = `${FIX}/soccer-epl-props-2025-08-23-fulham-manutd.csv.gz`;
const NOW = '2025-08-24T08:00:00Z';
type Row = Record<string, unknown>;

/** docs/model.md §4b's fit table (odds ratio: logit p = logit r - m), per the props file's book keys. */
const ODDS_RATIO_M: Record<string, Record<string, number>> = {
  shots_on_target: { bet365_au: 0.8427, neds: 0.9192, pointsbet_au: 0.8262, sportsbet: 1.0443 },
  shots: { bet365_au: 1.0302, neds: 1.5391, pointsbet_au: 1.198, sportsbet: 1.3628 },
};
const MARKET: Record<string, string> = { shots_on_target: 'player_shots_on_target', shots: 'player_shots' };

/**
 * The fair P(over) the consensus rule gives `graded`'s price, from the raw decimal overs: each
 * book's first row (the builder keeps the first of a repeat), de-vigged one-sided; the mean of the
 * other books with 3+ of them, else of every book (thin).
 */
function expectedFair(player: string, stat: 'shots' | 'shots_on_target', line: number, graded: string): { fair: number; books: number } {
  const text = gunzipSync(readFileSync(PROPS)).toString('utf8').trim().split('\n');
  const cols = (text[0] as string).split(',');
  const at = (f: string[], c: string) => f[cols.indexOf(c)] as string;
  const over = new Map<string, number>();
  for (const l of text.slice(1)) {
    const f = l.split(',');
    if (at(f, 'player_name') !== player || at(f, 'market') !== MARKET[stat] || Number(at(f, 'line')) !== line || at(f, 'book_key') === 'dabble') continue;
    if (!over.has(at(f, 'book_key')) && at(f, 'over_price') !== '') over.set(at(f, 'book_key'), Number(at(f, 'over_price')));
  }
  const fairs = [...over].map(([book, d]) => {
    const r = 1 / d;
    return { book, p: 1 / (1 + Math.exp(ODDS_RATIO_M[stat]?.[book] as number) * ((1 - r) / r)) };
  });
  const key = graded === 'pointsbetau' ? 'pointsbet_au' : graded;
  const others = fairs.filter((x) => x.book !== key);
  const use = others.length >= 3 ? others : fairs;
  return { fair: use.reduce((s, x) => s + x.p, 0) / use.length, books: use.length };
}

describe('a soccer slate grades one-sided lines on the fitted fair', () => {
  let dir: string;
  let db: string;
  let rows: Row[];
  const row = (player: string, stat: string, line: number): Row =>
    rows.find((r) => r['player'] === player && r['stat_type'] === stat && r['line'] === line && r['side'] === 'over') as Row;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-one-sided-'));
    const shared = join(dir, 'shared', 'history');
    mkdirSync(shared, { recursive: true });
    copyFileSync(PROPS, join(shared, 'epl_player_props_2024-08_to_2026-01.csv.gz'));
    copyFileSync(`${FIX}/soccer-epl-matches-fulham-manutd-2025-08-24.csv`, join(shared, 'epl_matches_2024-25_2025-26.csv'));
    copyFileSync(`${FIX}/soccer-epl-player-match-stats-fulham-manutd-to-2025-08-24.csv.gz`, join(shared, 'epl_player_match_stats_2024-25_2025-26.csv.gz'));
    const replay = join(dir, 'replay');
    execFileSync(process.execPath, ['scripts/build-season-replay.mjs', 'soccer', replay, '--shared', join(dir, 'shared'), '--from', '2025-08-23', '--to', '2025-08-24'], { encoding: 'utf8' });
    db = join(dir, 'store.sqlite');
    const imported = await runCli(['--db', db, 'import', 'gamelogs', '--sport', 'soccer', join(replay, 'history', 'epl-player-match-stats-before-2025-08-23.csv')]);
    expect(imported.code, imported.stderr).toBe(0);
    const snap = await runCli(['--db', db, '--replay', replay, '--now', NOW, 'snapshot', 'soccer', '--quiet'], { ODDS_API_REGIONS: 'au' });
    expect(snap.code, snap.stderr).toBe(0);
    const store = openStore(db);
    try {
      rows = store.sqlite.prepare("SELECT * FROM graded_rows WHERE sport = 'soccer'").all() as Row[];
    } finally {
      await store.close();
    }
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a shots-on-target line only overs are quoted at grades on the one-sided consensus (a market that passed: no one-sided cap)', () => {
    const mount = row('Mason Mount', 'shots_on_target', 1.5);
    expect(mount).toMatchObject({ book: 'bet365_au', book_odds: 1400, under_odds: null, devig_method: 'one_sided_odds_ratio', fair_source: 'consensus', consensus_books: 3, thin_consensus: 0 });
    const want = expectedFair('Mason Mount', 'shots_on_target', 1.5, 'bet365_au');
    expect(want.books).toBe(3);
    expect(mount['fair_prob'] as number).toBeCloseTo(want.fair, 12);
    // EV 100 x (0.1033 x 15 - 1) = +54.9% earns A+; soccer's structural model caps it at B, not the one-sided gate.
    expect(mount).toMatchObject({ grade: 'B', grade_uncapped: 'A+', cap_reason: 'not_backtested' });
  });

  it('a shots line (the market failed its held-out test) is capped at C with one_sided_market, and keeps it when re-graded from the stored row', () => {
    const cairney = row('Tom Cairney', 'shots', 2.5);
    expect(cairney).toMatchObject({ book: 'bet365_au', book_odds: 1400, devig_method: 'one_sided_odds_ratio_gate_failed', fair_source: 'consensus', thin_consensus: 1 });
    const want = expectedFair('Tom Cairney', 'shots', 2.5, 'bet365_au');
    expect(cairney['fair_prob'] as number).toBeCloseTo(want.fair, 12);
    const ev = 100 * (want.fair * 15 - 1);
    expect(ev).toBeGreaterThan(2); // an A by the bands
    expect(cairney).toMatchObject({ grade: 'C', grade_uncapped: 'A', cap_reason: 'one_sided_market' });
    const stored = storedMarketPricing({
      bookOdds: cairney['book_odds'] as number, fairProb: cairney['fair_prob'] as number, fairSource: 'consensus', consensusBooks: cairney['consensus_books'] as number,
      thinConsensus: true, outlierPrice: Boolean(cairney['outlier_price']), book: cairney['book'] as string, outlierBook: cairney['outlier_book'] as string | null, devigMethod: cairney['devig_method'] as string,
    });
    expect(stored?.oneSidedPassed).toBe(false);
    const again = gradeFor({ evPct: 100 * ((stored?.fairProb as number) * (americanToDecimal(stored?.bookOdds) as number) - 1), fairSource: 'consensus', thinConsensus: true, gradedAtOutlier: false, fitted: false, oneSidedPassed: stored?.oneSidedPassed ?? null });
    expect(again).toEqual({ grade: 'C', gradeUncapped: 'A', capReason: 'one_sided_market' });
  });

  it('a line a book quotes on both sides keeps the ordinary de-vig', () => {
    // bet365 quotes Mason Mount's shots 1.5 at 2.62 / 1.44 (the fixture's first row of that key).
    expect(row('Mason Mount', 'shots', 1.5)).toMatchObject({ book: 'bet365_au', devig_method: 'multiplicative', fair_source: 'book' });
    const under = rows.find((r) => r['player'] === 'Mason Mount' && r['stat_type'] === 'shots' && r['line'] === 1.5 && r['side'] === 'under');
    expect(under?.['fair_prob'] as number).toBeCloseTo((1 / 1.44) / (1 / 2.62 + 1 / 1.44), 4);
  });

  it('the slate prints the capped letter with its legend line', async () => {
    const slate = await runCli(['--db', db, '--now', NOW, 'slate', 'soccer'], {});
    expect(slate.code, slate.stderr).toBe(0);
    const cairney = slate.stdout.split('\n').find((l) => l.includes('Tom Cairney') && l.includes('Shots ') && l.includes('2.5'));
    expect(cairney).toMatch(/│ C\* +│ Tom Cairney/);
    expect(slate.stdout).toContain("C* = capped: the EV would earn A; one-sided market (books price only the over, so its fair is each book's margin-removed over, and for this market that fair failed its held-out test)");
  });
});
