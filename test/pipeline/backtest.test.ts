import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerBacktest } from '../../src/cli/backtest.js';
import { FITTED_PARAMS } from '../../src/domain/model/index.js';
import { loadNbaGameLogsCsv } from '../../src/feeds/history/nba-gamelogs.js';
import { loadHistoricalPropsCsv } from '../../src/feeds/history/props.js';
import { HistoryIndex, mainLines, runBacktest } from '../../src/pipeline/backtest.js';

const FX = 'test/fixtures/history';
const props = loadHistoricalPropsCsv(readFileSync(`${FX}/all-markets-nop-excerpt.csv`, 'utf8')).rows;
const logs = loadNbaGameLogsCsv(readFileSync(`${FX}/gamelogs-nop-excerpt.csv`, 'utf8')).rows;

/** Multiplicative de-vig P(over) and the shin (= additive for two legs) probability of a side, by hand. */
const r = (a: number) => (a < 0 ? -a / (-a + 100) : 100 / (a + 100));
const mult = (o: number, u: number) => r(o) / (r(o) + r(u));
const shinSide = (mine: number, other: number) => (1 + r(mine) - r(other)) / 2;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('runBacktest on a real excerpt (NOP props 2025-10-22 and 2025-11-04)', () => {
  const report = runBacktest({ props, gamelogs: logs, fitBefore: '2025-10-21', from: '2025-10-22', to: '2025-11-04', params: FITTED_PARAMS });

  it('main line = most books; best price per side with that book pair', () => {
    const ml = mainLines(props);
    expect(ml.map((m) => [m.date, m.player, m.stat, m.line, m.books])).toEqual([
      ['2025-10-22', 'Herb Jones', 'assists', 2.5, 6],
      ['2025-10-22', 'Herb Jones', 'rebounds', 3.5, 7],
      ['2025-10-22', 'Jose Alvarado', 'assists', 3.5, 5],
      ['2025-10-22', 'Jose Alvarado', 'rebounds', 2.5, 2],
      ['2025-11-04', 'Herb Jones', 'assists', 2.5, 5],
      ['2025-11-04', 'Herb Jones', 'rebounds', 3.5, 6],
    ]);
    const reb = ml[5];
    expect(reb?.best.over).toEqual({ book: 'betrivers', overOdds: -127, underOdds: -105, price: -127 });
    // +115 at betonlineag and fanatics: the tie goes to the first name.
    expect(reb?.best.under).toEqual({ book: 'betonlineag', overOdds: -149, underOdds: 115, price: 115 });
    expect(reb?.consensusOver).toBeCloseTo(mean([mult(-135, 100), mult(-149, 115), mult(-127, -105), mult(-150, 115), mult(-152, 114), mult(-150, 110)]), 12);
  });

  it('counts: Herb Jones refused on 2025-10-22 (no game in 240 days), Alvarado void (no game-log row)', () => {
    expect(report.counts).toEqual({
      propRows: 35,
      mainLines: 6,
      graded: 4,
      refused: 2,
      refusalReasons: { 'only N played game(s) with assists in the last N days (need N)': 1, 'only N played game(s) with rebounds in the last N days (need N)': 1 },
      void: 2,
      scoredProps: 2,
    });
    expect(report.window).toEqual({ from: '2025-10-22', to: '2025-11-04', fitBefore: '2025-10-21', inSample: false });
  });

  it('settles against the 2025-11-04 box score (5 reb, 1 ast) and uses only earlier games', () => {
    expect(report.rows.map((x) => [x.stat, x.side, x.book, x.bookOdds, x.actual, x.result])).toEqual([
      ['assists', 'over', 'betmgm', -105, 1, 'loss'],
      ['assists', 'under', 'draftkings', -113, 1, 'win'],
      ['rebounds', 'over', 'betrivers', -127, 5, 'win'],
      ['rebounds', 'under', 'betonlineag', 115, 5, 'loss'],
    ]);
    const past = new HistoryIndex(logs).before('herbert jones', '2025-11-04');
    expect(past.at(-1)?.date).toBe('2025-11-02');
  });

  it('aggregates record, ROI and market scoring as computed by hand', () => {
    const all = report.tiers.all?.all;
    expect(all?.n).toBe(4);
    expect(all?.wins).toBe(2);
    expect(all?.hitRate).toBe(0.5);
    expect(all?.ci95).toBeNull(); // n < 20: no interval, as the record gate says
    expect(all?.roiPct).toBeCloseTo((100 * (-1 + 100 / 113 + 100 / 127 - 1)) / 4, 10);
    const marketLl = mean([
      -Math.log(1 - shinSide(-105, -130)), // assists over lost
      -Math.log(shinSide(-113, -115)), // assists under won
      -Math.log(shinSide(-127, -105)), // rebounds over won
      -Math.log(1 - shinSide(115, -149)), // rebounds under lost
    ]);
    expect(all?.logLoss.market).toBeCloseTo(marketLl, 12);
    expect(report.tiers.assists?.all?.roiPct).toBeCloseTo((100 * (-1 + 100 / 113)) / 2, 10);

    const cA = mean([mult(-105, -130), mult(-111, -116), mult(-115, -113), mult(-110, -120), mult(-114, -118)]);
    const cR = report.rows[2]?.consensusOver as number;
    const pl = report.propLevel.all;
    expect(pl?.n).toBe(2);
    expect(pl?.overHitRate).toBe(0.5);
    expect(pl?.logLoss.marketConsensus).toBeCloseTo(mean([-Math.log(1 - cA), -Math.log(cR)]), 12);
    const rows = report.rows.filter((x) => x.side === 'over');
    expect(pl?.logLoss.model).toBeCloseTo(mean([-Math.log(1 - (rows[0]?.pModel as number)), -Math.log(rows[1]?.pModel as number)]), 12);
    // Two props: the calibration table holds both over rows somewhere.
    expect(report.calibration.market.reduce((s, b) => s + b.n, 0)).toBe(2);
  });
});

describe('propgrade backtest (CLI)', () => {
  it('fits on the excerpt, grades the window and prints JSON', async () => {
    const out: string[] = [];
    const io = { stdout: (t: string) => void out.push(t), stderr: () => undefined, isTTY: false, env: {} };
    const program = new Command().option('--json').exitOverride();
    registerBacktest(program, io);
    await program.parseAsync(
      ['--json', 'backtest', '--props', `${FX}/all-markets-nop-excerpt.csv`, '--gamelogs', `${FX}/gamelogs-nop-excerpt.csv`, '--from', '2025-10-22', '--to', '2025-11-04'],
      { from: 'user' },
    );
    const json = JSON.parse(out.join(''));
    expect(json.counts).toMatchObject({ propRows: 35, mainLines: 6, refused: 2, void: 2 });
    expect(json.rows).toBeUndefined();
    // Fitted on the excerpt's 2024-25 games only; no training props, so no blend weight.
    expect(json.params.fitBefore).toBe('2025-10-21');
    expect(json.params.blendWeight).toBeNull();
    expect(json.fit.exposureHalfLife.n).toBeGreaterThan(0);
    expect(typeof json.wallTimeMs).toBe('number');
  });
});
