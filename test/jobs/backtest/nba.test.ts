import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerBacktest } from '../../../src/cli/backtest.js';
import { FITTED_PARAMS } from '../../../src/domain/model/index.js';
import { loadStrikeoutQuotesCsv } from '../../../src/feeds/history/mlb-strikeouts.js';
import { loadNbaGameLogsCsv } from '../../../src/feeds/history/nba-gamelogs.js';
import { loadHistoricalPropsCsv } from '../../../src/feeds/history/props.js';
import { HistoryIndex } from '../../../src/domain/backtest/history.js';
import { ladders } from '../../../src/domain/backtest/ladders.js';
import { runBacktest } from '../../../src/jobs/backtest/nba.js';

const FX = 'test/fixtures/history';
const props = loadHistoricalPropsCsv(readFileSync(`${FX}/all-markets-nop-excerpt.csv`, 'utf8')).rows;
const logs = loadNbaGameLogsCsv(readFileSync(`${FX}/gamelogs-nop-excerpt.csv`, 'utf8')).rows;
const strikeouts = loadStrikeoutQuotesCsv(readFileSync(`${FX}/mlb-strikeouts-excerpt.csv`, 'utf8')).rows;

/** Multiplicative no-vig P(over) of a pair and decimal odds, by hand. */
const imp = (a: number) => (a < 0 ? -a / (-a + 100) : 100 / (a + 100));
const mult = (o: number, u: number) => imp(o) / (imp(o) + imp(u));
const dec = (a: number) => (a > 0 ? 1 + a / 100 : 1 + 100 / -a);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('runBacktest on a real excerpt (NOP props 2025-10-22 and 2025-11-04)', () => {
  const report = runBacktest({ props, gamelogs: logs, fitBefore: '2025-10-21', from: '2025-10-22', to: '2025-11-04', params: FITTED_PARAMS, mlbStrikeouts: strikeouts });

  it('groups quotes into ladders per game, player and stat, every line with its books', () => {
    const l = ladders(props);
    expect(l.map((x) => [x.date, x.player, x.stat, x.lines.map((y) => `${y.line}:${y.quotes.length}`).join(' ')])).toEqual([
      ['2025-10-22', 'Herb Jones', 'assists', '2.5:6 3.5:1'],
      ['2025-10-22', 'Herb Jones', 'rebounds', '3.5:7 4.5:2'],
      ['2025-10-22', 'Jose Alvarado', 'assists', '3.5:5'],
      ['2025-10-22', 'Jose Alvarado', 'rebounds', '2.5:2'],
      ['2025-11-04', 'Herb Jones', 'assists', '2.5:5'],
      ['2025-11-04', 'Herb Jones', 'rebounds', '3.5:6 4.5:1'],
    ]);
  });

  it('counts: Herb Jones refused on 2025-10-22 (no game in 240 days), Alvarado void (no game-log row)', () => {
    expect(report.counts).toMatchObject({ propRows: 35, ladders: 6, mainLines: 6, graded: 4, refused: 2, void: 2 });
    expect(report.counts.refusalReasons).toEqual({
      'only N played game(s) with assists in the last N days (need N)': 1,
      'only N played game(s) with rebounds in the last N days (need N)': 1,
    });
    expect(report.window).toEqual({ from: '2025-10-22', to: '2025-11-04', fitBefore: '2025-10-21', inSample: false });
  });

  it('prices each row by the live rule and settles it against the 2025-11-04 box score (5 reb, 1 ast)', () => {
    expect(report.rows.map((x) => [x.stat, x.line, x.side, x.book, x.bookOdds, x.fairSource, x.actual, x.result])).toEqual([
      ['assists', 2.5, 'over', 'betmgm', -105, 'consensus', 1, 'loss'],
      ['assists', 2.5, 'under', 'draftkings', -113, 'consensus', 1, 'win'],
      ['rebounds', 3.5, 'over', 'betrivers', -127, 'consensus', 5, 'win'],
      ['rebounds', 3.5, 'under', 'betonlineag', 115, 'consensus', 5, 'loss'],
      ['rebounds', 4.5, 'over', 'draftkings', 123, 'market_implied', 5, 'win'],
      ['rebounds', 4.5, 'under', 'draftkings', -160, 'market_implied', 5, 'loss'],
    ]);
    // The rebounds over at betrivers is judged against the five other books at 3.5.
    const reb = report.rows[2]!;
    const others = mean([mult(-152, 114), mult(-150, 115), mult(-150, 110), mult(-149, 115), mult(-135, 100)]);
    expect(reb.pFair).toBeCloseTo(others, 12);
    expect(reb.consensusBooks).toBe(5);
    expect(reb.evPct).toBeCloseTo(100 * (others * dec(-127) - 1), 10);
    expect(reb.profit).toBeCloseTo(100 / 127, 12);
    expect(new HistoryIndex(logs).before('herbert jones', '2025-11-04').at(-1)?.date).toBe('2025-11-02');
  });

  it('aggregates claims, ROI and scoring as computed by hand; one game gives no interval', () => {
    const all = report.perTier.allRows.all!;
    expect(all.n).toBe(6);
    expect(all.claimedEvPct).toBeCloseTo(mean(report.rows.map((r) => r.evPct)), 10);
    expect(all.roiPct.value).toBeCloseTo((100 * report.rows.reduce((s, r) => s + r.profit, 0)) / 6, 10);
    expect(all.roiPct.ci95).toBeNull();
    expect(all.claimInside).toBeNull();
    expect(report.perTier.mainLines.all!.n).toBe(4);
    expect(report.perTier.marketImpliedRungs.all!.n).toBe(2);

    // Prop level: one P(over) per main line, final = consensus (no nudge weight fitted for these markets).
    const ll = report.logLoss.all!;
    const cA = mean([mult(-110, -120), mult(-115, -113), mult(-114, -118), mult(-111, -116), mult(-105, -130)]);
    const cR = mean([mult(-152, 114), mult(-150, 115), mult(-150, 110), mult(-149, 115), mult(-135, 100), mult(-127, -105)]);
    expect(ll.n).toBe(2);
    expect(ll.logLoss.consensus).toBeCloseTo(mean([-Math.log(1 - cA), -Math.log(cR)]), 12);
    expect(ll.logLoss.final).toBe(ll.logLoss.consensus);
    expect(ll.finalMinusConsensus.value).toBe(0);
    expect(report.calibration.final.reduce((s, b) => s + b.n, 0)).toBe(2);
  });

  it('MLB closing-line value: an early A/A+ price against the last pregame consensus at the same line', () => {
    const clv = report.clv.mlbStrikeouts!;
    // Cole Ragans 5.5 under at Fanatics -110 (first snapshot): the other five books' fair makes it an A;
    // by the last snapshot the market had moved to the under (-145 at Fanatics), so -110 beat the close.
    // BetRivers' +117 over was seen once only (no later price of its own), so it is not matched.
    const firstOthers = mean([mult(-114, -114), mult(117, -157), mult(110, -145), mult(115, -150), mult(-108, -122)]);
    expect(100 * ((1 - firstOthers) * dec(-110) - 1)).toBeGreaterThan(2);
    // The close on the grade's yardstick: the last snapshot's other books (Fanatics' own -145 left out).
    const lastOthers = mean([mult(113, -147), mult(117, -157), mult(110, -145), mult(115, -150), mult(106, -136)]);
    expect(clv).toMatchObject({ n: 1, beat: 1, marketOnly: 1, withProjection: 0, beatShare: 1 });
    expect(clv.meanClvPts).toBeCloseTo(100 * (1 - lastOthers - 1 / dec(-110)), 10);
    // clv_pct, by the ledger's own function: the locked -110 at the closing fair.
    expect(clv.meanClvPct).toBeCloseTo(100 * ((1 - lastOthers) * dec(-110) - 1), 10);
    expect(report.clv.nbaThrees).toBeNull();
  });

  it('states the bets an ROI claim needs at +/-4%', () => {
    expect(report.sampleSize.roiHalfWidthPct).toBe(4);
    expect(report.sampleSize.note).toMatch(/consistent with it, not proven/);
  });
});

describe('propgrade backtest (CLI)', () => {
  it('fits on the excerpt, grades the window and prints one key per table', async () => {
    const out: string[] = [];
    const io = { stdout: (t: string) => void out.push(t), stderr: () => undefined, isTTY: false, env: {} };
    const program = new Command().option('--json').exitOverride();
    registerBacktest(program, io);
    await program.parseAsync(
      ['--json', 'backtest', '--props', `${FX}/all-markets-nop-excerpt.csv`, '--gamelogs', `${FX}/gamelogs-nop-excerpt.csv`, '--mlb-strikeouts', `${FX}/mlb-strikeouts-excerpt.csv`, '--from', '2025-10-22', '--to', '2025-11-04'],
      { from: 'user' },
    );
    const json = JSON.parse(out.join(''));
    expect(json.counts).toMatchObject({ prop_rows: 35, main_lines: 6, refused: 2, void: 2 });
    expect(json.rows).toBeUndefined();
    for (const key of ['per_tier', 'calibration_slope', 'log_loss', 'clv', 'calibration', 'sample_size']) expect(json).toHaveProperty(key);
    expect(json.clv.mlb_strikeouts.n).toBe(1);
    // Fitted on the excerpt's 2024-25 games only; no training props, so no nudge and no market dispersion.
    expect(json.params.fit_before).toBe('2025-10-21');
    expect(json.params.nudge_weights).toEqual({});
    expect(json.params.market_dispersion_scale).toBeNull();
    expect(json.fit.exposure_half_life.n).toBeGreaterThan(0);
    expect(typeof json.wall_time_ms).toBe('number');
  });
});
