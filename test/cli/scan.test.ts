import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listLedger } from '../../src/store/repo/ledger.js';
import { latestSnapshot, snapshotRows, type GradedRowRecord } from '../../src/store/repo/snapshots.js';
import { users } from '../../src/store/schema.js';
import { bundledStore, NOW, type BundledStore } from '../reads/scan-parlay-store.js';
import { runCli } from '../helpers/cli.js';

let b: BundledStore;
let sga: GradedRowRecord;

beforeAll(async () => {
  b = await bundledStore();
  const rows = await snapshotRows(b.store, (await latestSnapshot(b.store, 'nba'))!.id);
  sga = rows.find((r) => r.player === 'Shai Gilgeous-Alexander' && r.statType === 'points' && r.line === 31.5 && r.side === 'over')!;
}, 120_000);
afterAll(async () => b?.cleanup());

/** The real CLI in-process (main + registry), over the bundled store at its clock. */
const run = (...argv: string[]) => runCli(['--db', b.file, '--now', NOW.toISOString(), ...argv]);

const SGA = ['scan', '--player', 'Shai Gilgeous-Alexander', '--stat', 'points', '--line', '31.5', '--direction', 'over'];

describe('propgrade scan', () => {
  it('marks a capped letter and says why, with a legend line for every label', async () => {
    const rows = await snapshotRows(b.store, (await latestSnapshot(b.store, 'nba'))!.id);
    const capped = rows.find((r) => r.capReason !== null && r.grade !== null && r.isMainLine && r.commenceTime > NOW.toISOString());
    expect(capped, 'the bundled NBA day holds a capped main-line row').toBeDefined();
    const c = capped!;
    const r = await run('scan', '--player', c.player, '--stat', c.statType, '--line', String(c.line), '--direction', c.side);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse((await run('--json', 'scan', '--player', c.player, '--stat', c.statType, '--line', String(c.line), '--direction', c.side)).stdout);
    expect(j).toMatchObject({ grade: c.grade, grade_uncapped: c.gradeUncapped, cap_reason: c.capReason });
    expect(r.stdout).toMatch(new RegExp(`│ ${c.grade!.replace('+', '\\+')}\\* +│`));
    expect(r.stdout).toContain(`${c.grade}* = capped: the EV would earn ${c.gradeUncapped}`);
    // The market's fair is named Fair, the nudge carries its unit, and each label has its legend line.
    for (const label of ['Fair P(win)', 'Nudge', 'Projection', 'Overround', 'Season avg / Form (last 5)']) expect(r.stdout).toContain(`${label} =`);
    expect(r.stdout).not.toMatch(/│ Model +│/);
    expect(r.stdout).toMatch(/[+-]\d+\.\d pp/);
    // The same row as a parlay leg: marked, with its legend line.
    const leg = `${c.player}|${c.statType}|${c.line}|${c.side}`;
    const p = await run('parlay', '--leg', leg, '--leg', 'Shai Gilgeous-Alexander|points|31.5|over');
    expect(p.code, p.stderr).toBe(0);
    expect(p.stdout).toMatch(new RegExp(`│ ${c.grade!.replace('+', '\\+')}\\* +│`));
    expect(p.stdout).toContain(`${c.grade}* = capped: the EV would earn ${c.gradeUncapped}`);
    expect(p.stdout).toContain('Grade = EV of the leg');
  });

  it("the local owner sees the projection's view by default", async () => {
    const j = JSON.parse((await run('--json', ...SGA)).stdout);
    expect(j.model_price_locked).toBe(false);
    expect(typeof j.projection_prob).toBe('number');
  });

  it("--json --tier free: the grade and the market's side, the projection's view withheld", async () => {
    const r = await run('--json', ...SGA, '--tier', 'free');
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.status).toBe('graded');
    expect(j.grade).toBe(sga.grade);
    // The wire rounds at the edge: projections to 2 places, probabilities to 4, odds whole.
    expect(j.projection).toBe(Math.round(sga.projection! * 100) / 100);
    expect(j.model_price_locked).toBe(true);
    for (const f of ['projection_prob', 'projection_odds', 'projection_ev_pct', 'projection_record']) expect(j).not.toHaveProperty(f);
    expect(j.p_win).toBe(Math.round(sga.pWin! * 1e4) / 1e4);
    expect(j.prices).toMatchObject({ book: 'draftkings', book_odds: -112, fair_odds: Math.round(sga.fairOdds!), devig_method: 'multiplicative', fair_source: sga.fairSource });
    expect(j.intel).toMatchObject({ games: 7, season_avg: 33.57, form: 29 });
    expect(j.ledger.written).toBe(false);
  });

  it("--tier analyst shows the projection's view beside the market's", async () => {
    const r = await run('--json', ...SGA, '--tier', 'analyst');
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.model_price_locked).toBe(false);
    expect(j.p_win).toBe(Math.round(sga.pWin! * 1e4) / 1e4);
    expect(j.model_odds).toBe(Math.round(sga.modelOdds!));
    expect(typeof j.projection_prob).toBe('number');
  });

  it('prints tables: grade, intel and the recovered prices', async () => {
    const r = await run(...SGA);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Shai Gilgeous-Alexander (OKC) — points over 31.5');
    expect(r.stdout).toContain('Oklahoma City Thunder @ Portland Trail Blazers');
    expect(r.stdout).toMatch(new RegExp(`│ ${sga.grade}\\s+│ ${sga.projection!.toFixed(1)}`));
    expect(r.stdout).toContain('33.57');
    expect(r.stdout).toMatch(/│ draftkings │ -112\s+│/);
    // The owner's own read shows the projection's view; a free preview the line saying it is paid.
    expect(r.stdout).toContain("Projection's view (not the letter's): P(win)");
    expect(r.stdout).toContain('anonymous scans never touch the ledger');
    const free = (await run(...SGA, '--tier', 'free')).stdout;
    expect(free).not.toContain("Projection's view");
    expect(free).toContain('are for the analyst and desk tiers');
  });

  it('writes to the ledger with --user, once', async () => {
    const id = b.store.db.insert(users).values({ email: 'cli-scan@example.com', tier: 'free', createdAt: NOW.toISOString() }).returning({ id: users.id }).get().id;
    const first = JSON.parse((await run('--json', ...SGA, '--user', String(id))).stdout);
    expect(first.ledger).toEqual({ written: true });
    const second = JSON.parse((await run('--json', ...SGA, '--user', String(id))).stdout);
    expect(second.ledger.written).toBe(false);
    const mine = await listLedger(b.store, { userId: id });
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ source: 'scan', playerKey: 'shai gilgeous alexander', line: 31.5, side: 'over', lockedPrice: -112 });
  });

  it('shows a refusal as a refusal', async () => {
    const r = await run('scan', '--player', 'VJ Edgecombe', '--stat', 'points', '--line', '12.5', '--direction', 'over');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Refused (insufficient_data): only 0 played game');
    expect(r.stdout).toContain('a refused read is never written');
  });

  it('names the candidates of an ambiguous name', async () => {
    const r = await run('scan', '--player', 'Williams', '--stat', 'points', '--line', '8.5', '--direction', 'over');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("'Williams' is ambiguous; nothing graded.");
    expect(r.stdout).toContain('Jalen Williams (nba)');
  });

  it('a misspelt name gets did-you-mean names and a non-zero exit, never a guessed grade', async () => {
    const r = await run('scan', '--player', 'Shai Gilgeous-Alexandr', '--stat', 'points', '--line', '31.5', '--direction', 'over');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("No player matching 'Shai Gilgeous-Alexandr'");
    expect(r.stdout).toMatch(/Did you mean: Shai Gilgeous-Alexander/);
    const j = JSON.parse((await run('--json', 'scan', '--player', 'Shai Gilgeous-Alexandr', '--stat', 'points', '--line', '31.5', '--direction', 'over')).stdout);
    expect(j).toMatchObject({ status: 'unknown_player', grade: null });
    expect(j.suggestions[0].name).toBe('Shai Gilgeous-Alexander');
  });

  it.each([
    [['--stat', 'dunks'], "propgrade: --stat: unknown stat 'dunks'"],
    [['--line', 'abc'], "propgrade: --line: line must be a number, got 'abc'"],
    [['--direction', 'sideways'], "propgrade: --direction: side must be over or under, got 'sideways'"],
    [['--tier', 'gold'], "propgrade: --tier: tier must be free, analyst or desk, got 'gold'"],
    [['--sport', 'mlb'], 'propgrade: points is not a mlb stat'],
    [['--player', 'Shai Gilgeous-Alexander'.repeat(5)], 'propgrade: --player: a player name has at most 100 characters'],
    [['--line', '600'], 'propgrade: --line: a line is at most 500'],
  ])('bad input %j exits 2 with a one-line message', async (override, message) => {
    const argv = [...SGA];
    for (let i = 0; i < override.length; i += 2) {
      const at = argv.indexOf(override[i]!);
      if (at >= 0) argv[at + 1] = override[i + 1]!;
      else argv.push(override[i]!, override[i + 1]!);
    }
    const r = await run(...argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.startsWith(message)).toBe(true);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a missing required option is bad usage (exit 2)', async () => {
    const r = await run('scan', '--stat', 'points', '--line', '31.5', '--direction', 'over');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("required option '--player <name>' not specified");
  });
});
