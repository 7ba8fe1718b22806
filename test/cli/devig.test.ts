import { describe, expect, it } from 'vitest';
import type { DevigReport } from '../../src/cli/devig.js';
import { runCli } from '../helpers/cli.js';
import { DEVIG_METHODS, devig, devigDecimal } from '../../src/domain/devig.js';
import { toWire } from '../../src/wire.js';

/** The real CLI in-process (main + registry). */
const run = (...argv: string[]) => runCli(argv);

async function runJson(...argv: string[]): Promise<DevigReport> {
  const r = await run('--json', ...argv);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as DevigReport;
}

const ESC = '\u001b[';

describe('propgrade devig', () => {
  it('takes negative American odds typed plainly: devig -110 +100', async () => {
    const r = await run('devig', '-110', '+100');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    // shin two-way = (1 + r1 - r2)/2 with r1 = 110/210, r2 = 0.5.
    expect(r.stdout).toContain('shin');
    expect(r.stdout).toContain('51.19%');
    expect(r.stdout).toContain('48.81%');
    expect(r.stdout).toMatch(/│ -105\s+│/);
    expect(r.stdout).toMatch(/│ \+105\s+│/);
    expect(r.stdout).toContain('overround 2.38%');
    expect(r.stdout).toContain('hold 2.33%');
    expect(r.stdout).not.toContain(ESC);
  });

  it('takes --method all -- -110 -110 and prints every method', async () => {
    const r = await run('devig', '--method', 'all', '--', '-110', '-110');
    expect(r.code, r.stderr).toBe(0);
    for (const m of DEVIG_METHODS) expect(r.stdout).toContain(m);
    expect(r.stdout).toContain('50.00%');
    expect(r.stdout).toContain('4.76%');
    expect(r.stdout).toContain('legs need not sum to 1');
  });

  it('--json prints the same data the table shows, equal to the domain de-vig', async () => {
    const report = await runJson('devig', '--method', 'all', '-250', '+190');
    expect(report.format).toBe('american');
    expect(report.legs.map((l) => l.price)).toEqual([-250, 190]);
    // The wire style (src/wire.ts): snake_case keys, probabilities to 4 places, odds whole, the rest to 6.
    expect(report.legs[0]?.decimal).toBe(1.4);
    expect(report.legs[1]?.implied).toBe(0.344828);
    expect(report.booksum).toBe(1.059113);
    expect(report.overround).toBe(0.059113);
    expect(report.results.map((x) => x.method)).toEqual([...DEVIG_METHODS]);
    for (const row of report.results) {
      const { fair_decimal: fairDecimal, ...wire } = row as unknown as Record<string, unknown>;
      const domain = devig([-250, 190], row.method);
      expect(wire).toEqual(toWire(domain));
      if (domain.ok) expect(fairDecimal).toEqual((toWire({ x: domain.probs.map((p) => 1 / p) }) as { x: number[] }).x);
    }
    // DEVIG.md §2 ordering table row -250/+190.
    const p1 = (m: string): number | undefined => {
      const row = report.results.find((x) => x.method === m);
      return row?.ok ? row.probs[0] : undefined;
    };
    expect(p1('multiplicative')?.toFixed(4)).toBe('0.6744');
    expect(p1('shin')?.toFixed(4)).toBe('0.6847');
    expect(p1('power')?.toFixed(4)).toBe('0.6904');
  });

  it('accepts --json after the odds too, defaults to shin and prints no colour', async () => {
    const r = await run('devig', '-110', '-110', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(ESC);
    const report = JSON.parse(r.stdout) as DevigReport;
    expect(report.results).toHaveLength(1);
    expect(report.results[0]).toMatchObject({ ok: true, method: 'shin', probs: [0.5, 0.5], fair_american: [-100, -100] });
    expect(report.overround).toBe(0.047619);
  });

  it('de-vigs decimal n-way books with --decimal (penaltyblog 2.7/2.3/4.4, power k 1.0309132393)', async () => {
    const report = await runJson('devig', '--decimal', '--method', 'power', '2.7', '2.3', '4.4');
    const row = report.results[0];
    expect(row?.ok).toBe(true);
    if (!row?.ok) return;
    // DEVIG.md's 1e-10 agreement is tested on the domain function; the CLI prints 6 decimals.
    expect(row.params?.k).toBe(1.030913);
    expect(row).toMatchObject(toWire(devigDecimal([2.7, 2.3, 4.4], 'power')) as object);
    expect(report.overround).toBe(0.032426);
  });

  it('defaults to shin for an n-way book as well', async () => {
    const report = await runJson('devig', '--decimal', '2.6', '2.4', '4.3');
    expect(report.results).toHaveLength(1);
    expect(report.results[0]).toMatchObject({ ok: true, method: 'shin' });
    const z = report.results[0]?.ok ? report.results[0].params?.z : undefined;
    expect(z).toBe(0.016943);
  });

  it('shows a method that has no answer with its reason and still exits 0 when another method prices the book', async () => {
    const report = await runJson('devig', '--decimal', '--method', 'all', '1.15', '5', '10', '25');
    const additive = report.results.find((x) => x.method === 'additive');
    expect(additive).toMatchObject({ ok: false, reason: expect.stringMatching(/additive gives leg 4 probability/) });
    expect(additive).not.toHaveProperty('probs');
    expect(report.results.find((x) => x.method === 'shin')?.ok).toBe(true);
    const table = await run('devig', '--decimal', '--method', 'all', '1.15', '5', '10', '25');
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('additive gives leg 4 probability');
  });

  it('an underround book (+110/+110, best prices across books) is de-vigged and flagged; jsd alone refuses it', async () => {
    const table = await run('devig', '+110', '+110');
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('booksum 95.24% · overround -4.76%');
    expect(table.stdout).toContain('underround: no margin, the legs are raised to sum to 1');
    const r = await run('--json', 'devig', '--method', 'all', '--decimal', '2', '3.4', '5.6');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { booksum: number; results: Array<{ method: string; ok: boolean; underround?: boolean; probs?: number[]; reason?: string }> };
    expect(report.booksum).toBeCloseTo(1 / 2 + 1 / 3.4 + 1 / 5.6, 6);
    for (const row of report.results) {
      if (row.method === 'jsd') expect(row).toMatchObject({ ok: false, reason: expect.stringContaining('jsd is not defined for an underround book') });
      else expect(row, row.method).toMatchObject({ ok: true, underround: true });
    }
    // multiplicative, checked against the raw prices: r / booksum.
    const mult = report.results.find((x) => x.method === 'multiplicative')!;
    const r0 = 1 / 2;
    expect(mult.probs![0]).toBeCloseTo(r0 / (1 / 2 + 1 / 3.4 + 1 / 5.6), 6);
  });

  it('has help with examples', async () => {
    const r = await run('devig', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('propgrade devig --method all -- -110 -110');
  });
});

describe('propgrade devig refuses bad input with exit 2, naming the bad value', () => {
  const cases: Array<[string[], RegExp]> = [
    [['devig', '-50', '+100'], /-50 is not a valid American price: it must be <= -100 or >= \+100/],
    [['devig', '+100', '99'], /99 is not a valid American price/],
    [['devig', 'abc', '-110'], /"abc" is not a price/],
    [['devig', '-110', ''], /"" is not a price/],
    [['devig', '-110', '1e3'], /"1e3" is not a price/],
    [['devig', '-110'], /at least 2 prices, one per leg; got 1: -110/],
    [['devig', '1.91', '1.91'], /1\.91 is not a valid American price.*add --decimal/],
    [['devig', '--decimal', '1', '2'], /1 is not a valid decimal price: it must be greater than 1/],
    [['devig', '--decimal', '-110', '2'], /-110 is not a valid decimal price/],
    [['devig', '--method', 'jsd', '+110', '+110'], /cannot de-vig \+110 \+110: jsd is not defined for an underround book \(booksum < 1\)/],
    [['devig', '--method', 'logarithmic', '-110', '-110'], /--method: "logarithmic" is not a method/],
  ];

  it.each(cases)('%j', async (argv, message) => {
    const r = await run(...argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a missing odds argument is a usage error (exit 2)', async () => {
    const r = await run('devig');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing required argument 'odds'/);
  });
});
