import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const LOGS = 'test/fixtures/history/mlb-pitcher-gamelogs-ragans.csv';
const PROPS = 'test/fixtures/history/mlb-strikeouts-excerpt.csv';

describe('propgrade backtest --sport mlb (real excerpts)', () => {
  it('prints the report with the NBA keys in --json, fitted before 2025-06-03 by default', async () => {
    const run = await runCli(['backtest', '--sport', 'mlb', '--gamelogs', LOGS, '--mlb-strikeouts', PROPS, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout) as Record<string, unknown> & { window: Record<string, unknown>; counts: { ladders: number } };
    expect(r.window).toMatchObject({ from: '2025-06-03', to: '2025-09-28', fit_before: '2025-06-03', in_sample: false });
    for (const k of ['params', 'fit', 'rules', 'counts', 'log_loss', 'per_tier', 'calibration_slope', 'calibration', 'clv', 'sample_size']) expect(r).toHaveProperty(k);
    expect(r.counts.ladders).toBe(1);
  });

  it('renders the tables on a terminal', async () => {
    const run = await runCli(['backtest', '--sport', 'mlb', '--gamelogs', LOGS, '--mlb-strikeouts', PROPS]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Back-test 2025-06-03..2025-09-28 (parameters fitted before 2025-06-03)');
    expect(run.stdout).toContain('Claims per tier, main lines');
  });

  it('--at last grades the last pregame quotes and measures no CLV from them', async () => {
    const run = await runCli(['backtest', '--sport', 'mlb', '--at', 'last', '--gamelogs', LOGS, '--mlb-strikeouts', PROPS, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout) as { counts: { ladders: number }; clv: { mlb_strikeouts: { n: number } } };
    expect(r.counts.ladders).toBe(1);
    expect(r.clv.mlb_strikeouts.n).toBe(0);
  });

  it('needs the props file, and says so', async () => {
    const run = await runCli(['backtest', '--sport', 'mlb', '--gamelogs', LOGS]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--sport mlb needs --mlb-strikeouts');
  });
});
