import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/_io.js';
import { buildProgram, handleError } from '../../src/cli/main.js';
import { registerParlay, type ParlayDeps, type ParlayPrompts } from '../../src/cli/parlay.js';
import { americanToDecimal } from '../../src/domain/odds.js';
import { UPSELL } from '../../src/reads/parlay.js';
import { latestSnapshot, snapshotRows, type GradedRowRecord } from '../../src/store/repo/snapshots.js';
import { bundledStore, NOW, type BundledStore } from '../reads/scan-parlay-store.js';

let b: BundledStore;
let board: GradedRowRecord[];

beforeAll(async () => {
  b = await bundledStore();
  board = await snapshotRows(b.store, (await latestSnapshot(b.store, 'nba'))!.id);
}, 120_000);
afterAll(async () => b?.cleanup());

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(argv: string[], opts: { isTTY?: boolean; deps?: ParlayDeps } = {}): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), isTTY: opts.isTTY ?? false, env: { NO_COLOR: '1' } };
  const program = await buildProgram(io);
  const commands = program.commands as Command[];
  const at = commands.findIndex((c) => c.name() === 'parlay');
  if (at >= 0) commands.splice(at, 1);
  registerParlay(program, io, opts.deps);
  commands.find((c) => c.name() === 'parlay')!.exitOverride().configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });
  let code: number;
  try {
    await program.parseAsync(['--db', b.file, '--now', NOW.toISOString(), ...argv], { from: 'user' });
    code = io.exitCode ?? 0;
  } catch (error) {
    code = handleError(error, io, false);
  }
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const fairOf = (player: string, stat: string, line: number, side: string) =>
  board.find((r) => r.player === player && r.statType === stat && r.line === line && r.side === side)!.fairOdds;

const SGA = 'Shai Gilgeous-Alexander|points|31.5|over';
const CHET = 'Chet Holmgren|rebounds|8.5|over';

describe('propgrade parlay', () => {
  it('--json with two --leg flags on the analyst tier: correlation, combined grade and payout', async () => {
    const r = await run(['--json', 'parlay', '--leg', SGA, '--leg', CHET, '--tier', 'analyst']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.correlation.pairs).toEqual([{ a: 1, b: 2, relationship: 'same_team_same_game', score: 0.4 }]);
    expect(j.combined).toMatchObject({ legs_used: 2, legs_total: 2, provisional: false });
    const expected = americanToDecimal(fairOf('Shai Gilgeous-Alexander', 'points', 31.5, 'over'))! * americanToDecimal(fairOf('Chet Holmgren', 'rebounds', 8.5, 'over'))! * 0.6;
    // The wire prints 6 decimals at most (src/wire.ts).
    expect(j.payout.decimal).toBeCloseTo(expected, 6);
    expect(j.legs.map((l: { team: string; archetype: string | null }) => l.team)).toEqual(['OKC', 'OKC']);
  });

  it('the local owner gets the full read by default: payout shown, no upsell', async () => {
    const r = await run(['parlay', '--leg', SGA, '--leg', CHET, '--leg', 'Deni Avdija|points|24.5|over']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Estimated payout:');
    expect(r.stdout).toContain("At the projection's prices:");
    expect(r.stdout).not.toContain(UPSELL);
  });

  it("--tier free previews a free caller: tables, the market's payout, the projection's behind the upsell", async () => {
    const r = await run(['parlay', '--leg', SGA, '--leg', CHET, '--tier', 'free']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/│ 1 +│ Shai Gilgeous-Alexander │ OKC/);
    expect(r.stdout).toMatch(/│ 1\+2 +│ same team, same game │ 0\.4/);
    expect(r.stdout).toMatch(/Combined grade: [A-F+]+ — rests on 2 of 2 legs/);
    expect(r.stdout).toContain(UPSELL);
    expect(r.stdout).toContain('Estimated payout:');
    expect(r.stdout).not.toContain("At the projection's prices:");
    expect(r.stdout).toContain('warning: correlated legs: average correlation 0.40');
  });

  it('reads legs from a JSON file (array or {legs})', async () => {
    const file = path.join(b.dir, 'legs.json');
    fs.writeFileSync(file, JSON.stringify([{ player: 'Shai Gilgeous-Alexander', stat: 'pts', line: 31.5, side: 'over' }, { player: 'Donovan Mitchell', stat: 'points', line: '25.5', side: 'Over' }]));
    const r = await run(['--json', 'parlay', '--file', file, '--tier', 'desk']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.correlation.pairs[0].relationship).toBe('different_games');
    expect(j.legs[1]).toMatchObject({ player: 'Donovan Mitchell', stat: 'points', line: 25.5, side: 'over', team: 'CLE' });
    fs.writeFileSync(file, JSON.stringify({ legs: [{ player: 'Deni Avdija', stat: 'points', line: 24.5, side: 'over' }, { player: 'Chet Holmgren', stat: 'rebounds', line: 8.5, side: 'over' }] }));
    const two = JSON.parse((await run(['--json', 'parlay', '--file', file])).stdout);
    expect(two.combined.legs_total).toBe(2);
  });

  it.each([
    [['--leg', 'Shai Gilgeous-Alexander|dunks|31.5|over'], "propgrade: leg 1: unknown stat 'dunks'"],
    [['--leg', SGA, '--leg', 'Chet Holmgren|rebounds|abc|over'], "propgrade: leg 2: line must be a number, got 'abc'"],
    [['--leg', 'Shai Gilgeous-Alexander|points|31.5|sideways'], "propgrade: leg 1: side must be over or under, got 'sideways'"],
    [['--leg', 'Shai Gilgeous-Alexander points 31.5'], 'propgrade: leg 1: expected "Player|stat|line|over"'],
    [['--leg', SGA, '--leg', `${'Chet Holmgren'.repeat(8)}|rebounds|8.5|over`], 'propgrade: leg 2: a player name has at most 100 characters'],
    [['--leg', 'Shai Gilgeous-Alexander|points|501|over'], 'propgrade: leg 1: a line is at most 500, got 501'],
    [['--tier', 'free', '--leg', SGA, '--leg', CHET, '--leg', 'Deni Avdija|points|24.5|over'], 'propgrade: the free tier allows at most 2 legs per parlay, got 3'],
    [['--tier', 'desk', ...Array.from({ length: 7 }, () => ['--leg', SGA]).flat()], 'propgrade: a parlay takes 2 to 6 legs, got 7'],
    [['--leg', SGA], 'propgrade: a parlay takes 2 to 6 legs, got 1 (one prop alone: propgrade scan'],
    [['--leg', SGA, '--leg', 'Shai Gilgeous-Alexander|points|31.5|under'], 'propgrade: not a parlay: legs 1 (Shai Gilgeous-Alexander points over 31.5) and 2 (Shai Gilgeous-Alexander points under 31.5) are both sides of one prop'],
    [['--leg', SGA, '--leg', SGA], 'propgrade: not a parlay: legs 1 (Shai Gilgeous-Alexander points over 31.5) and 2 (Shai Gilgeous-Alexander points over 31.5) are the same prop twice'],
    [['--leg', 'Nobody Anyone|points|10.5|over', '--leg', 'Noone Else|points|10.5|over'], "propgrade: not a parlay: no leg resolves to a line the board prices: leg 1 (Nobody Anyone points over 10.5): no player 'Nobody Anyone' in the store; leg 2"],
    [['--leg', SGA, '--leg', 'Chet Holmgren|rebounds|8.5|over|'], 'propgrade: leg 2: expected "Player|stat|line|over"'],
  ])('bad input %j exits 2 with a one-line message', async (argv, message) => {
    const r = await run(['parlay', ...argv]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.startsWith(message)).toBe(true);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a legs file naming an unknown or ungraded sport exits 2 with the one sport schema\'s message', async () => {
    const file = path.join(b.dir, 'legs-sport.json');
    for (const sport of ['nfl', 'mma']) {
      fs.writeFileSync(file, JSON.stringify([{ player: 'Shai Gilgeous-Alexander', stat: 'points', line: 31.5, side: 'over', sport }, { player: 'Chet Holmgren', stat: 'rebounds', line: 8.5, side: 'over' }]));
      const r = await run(['parlay', '--file', file]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe(`propgrade: leg 1: sport: '${sport}' is not one of mlb, nba, wnba, soccer`);
    }
  });

  it('without legs and without a terminal exits 2 instead of prompting', async () => {
    const r = await run(['parlay']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('interactive entry needs a terminal');
  });

  it('on a terminal, picks legs from the cached slate: search a player, pick a stat, pick a line', async () => {
    const script: Array<{ search: string; stat: string; rung: string }> = [
      { search: 'gilgeous', stat: 'points', rung: '31.5|over' },
      { search: 'holmgren', stat: 'rebounds', rung: '8.5|over' },
    ];
    const seen: { statChoices: string[][]; rungNames: string[][] } = { statChoices: [], rungNames: [] };
    let i = 0;
    const prompts: ParlayPrompts = {
      search: async (config) => {
        const hits = await config.source(script[i]!.search);
        expect(hits.length).toBeGreaterThan(0);
        return hits[0]!.value;
      },
      select: async (config) => {
        if (config.message.endsWith('stat')) {
          seen.statChoices.push(config.choices.map((c) => c.value));
          return script[i]!.stat;
        }
        seen.rungNames.push(config.choices.map((c) => c.name));
        const pick = config.choices.find((c) => c.value === script[i]!.rung);
        expect(pick).toBeDefined();
        i += 1;
        return pick!.value;
      },
      confirm: async () => true,
    };
    const r = await run(['--json', 'parlay', '--tier', 'free'], { isTTY: true, deps: { prompts: async () => prompts } });
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    // The free tier's cap (2) ends the loop.
    expect(j.legs.map((l: { player: string; stat: string; line: number; side: string }) => `${l.player}|${l.stat}|${l.line}|${l.side}`)).toEqual([SGA, CHET]);
    const sgaStats = [...new Set(board.filter((x) => x.player === 'Shai Gilgeous-Alexander').map((x) => x.statType))];
    expect(seen.statChoices[0]!.sort()).toEqual(sgaStats.sort());
    const fair = Math.round(fairOf('Shai Gilgeous-Alexander', 'points', 31.5, 'over')!);
    expect(seen.rungNames[0]).toContain(`over 31.5  price -112  fair ${fair > 0 ? '+' : ''}${fair}`);
  });
});
