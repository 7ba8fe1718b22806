import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/_io.js';
import { registerFeeds, type FeedsCommandOptions } from '../../src/cli/feeds.js';
import { buildProgram, handleError } from '../../src/cli/main.js';
import { startLocalServer, type LocalServer } from '../feeds/transport/local-server.js';

const root = (rel: string) => fileURLToPath(new URL(`../../${rel}`, import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real program in-process, with `feeds` registered fresh (replacing a registry copy if any). */
async function run(argv: string[], options: FeedsCommandOptions = {}, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), isTTY: false, env };
  const program = await buildProgram(io);
  const commands = program.commands as Command[];
  const at = commands.findIndex((c) => c.name() === 'feeds');
  if (at >= 0) commands.splice(at, 1);
  registerFeeds(program, io, options);
  let code: number;
  try {
    await program.parseAsync(argv, { from: 'user' });
    code = io.exitCode ?? 0;
  } catch (error) {
    code = handleError(error, io, false);
  }
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('propgrade feeds check --replay', () => {
  it('the bundled replay (NBA and the WNBA day): every entry parsed, exit 0', async () => {
    const r = await run(['--json', '--replay', root('data/replay'), 'feeds', 'check']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.mode).toBe('replay');
    // 75 NBA / context / stats entries + the WNBA day's 19 + the MLB day's 104 + the EPL matchday's 24 (data/README.md).
    expect(j.entries).toHaveLength(75 + 19 + 104 + 24);
    expect(j.entries.every((e: { outcome: string }) => e.outcome === 'parsed')).toBe(true);
    const espn = j.providers.find((p: { provider: string }) => p.provider === 'espn');
    expect(espn.kinds.map((k: { kind: string; entries: number; records: number }) => [k.kind, k.entries])).toEqual([
      ['fight cards', 4],
      ['news', 4],
      ['scoreboard', 3 + 1],
      ['summary', 21 + 6],
      ['team roster', 2],
    ]);
  });

  it('human output: a table per provider, warnings on stdout, nothing on stderr', async () => {
    const r = await run(['--replay', root('test/fixtures'), 'feeds', 'check']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`feeds check: replay folder ${root('test/fixtures')}`);
    expect(r.stdout).toContain('espn: reachable, 36 of 36 parsed');
    expect(r.stdout).toMatch(/│ injuries\s+│ 1\s+│ 104 injuries\s+│ 0\s+│ 0\s+│/);
    expect(r.stdout).toMatch(/│ pitch arsenal stats\s+│ 2\s+│ 1525 pitchers\s+│ 0\s+│ 0\s+│/);
    expect(r.stdout).toContain('credits: remaining 497, used 3, last call -');
    expect(r.stdout).toContain('  ! odds-api/ncaab-odds-h2h-spreads-totals-2026-03-03.json: odds-api mma odds: dropped 5: not an mma event: basketball_ncaab (5)');
    expect(r.stdout.trimEnd().endsWith('OK: every checked provider answered and parsed')).toBe(true);
  });

  it('a folder without a manifest is a clear configuration error', async () => {
    const r = await run(['--replay', root('test/fixtures/espn'), 'feeds', 'check']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('replay folder has no readable manifest.json');
  });

  it('rejects a malformed --date', async () => {
    const r = await run(['--replay', root('data/replay'), 'feeds', 'check', '--date', '2025-13-40']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('expected yyyy-mm-dd');
  });
});

describe('propgrade feeds check (live, loopback)', () => {
  let server: LocalServer;
  const fixture = (rel: string) => readFileSync(root(`test/fixtures/${rel}`), 'utf8');
  beforeAll(async () => {
    const json = (file: string) => (_req: unknown, res: import('node:http').ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(fixture(file));
    server = await startLocalServer({
      '/apis/site/v2/sports/basketball/nba/scoreboard': json('espn/nba-scoreboard-2024-12-15.json'),
      '/apis/site/v2/sports/basketball/wnba/scoreboard': json('espn/wnba-scoreboard-2025-06-03-final.json'),
      '/apis/site/v2/sports/baseball/mlb/scoreboard': json('espn/mlb-scoreboard-2025-06-05.json'),
      '/apis/site/v2/sports/soccer/eng.1/scoreboard': json('espn/soccer-eng1-scoreboard-2025-05-25.json'),
      '/apis/site/v2/sports/mma/ufc/scoreboard': json('espn/mma-ufc-scoreboard-2025-09-02.json'),
      '/api/v1/schedule': json('mlb-statsapi/mlb-schedule-2023-08-22.json'),
      // Savant is not routed: the server answers 404.
    });
  });
  afterAll(() => server.close());

  it('no key: Odds API skipped with the reason; a 404 provider fails the run (exit 1)', async () => {
    const bases = { espn: server.base, 'mlb-statsapi': server.base, savant: server.base };
    const r = await run(['--json', 'feeds', 'check', '--date', '2025-06-05'], { probeBases: bases, live: { retries: 0, timeoutMs: 3_000 } });
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(j.mode).toBe('live');
    expect(j.date).toBe('2025-06-05');
    const p = Object.fromEntries(j.providers.map((x: { provider: string }) => [x.provider, x]));
    expect(p['odds-api'].skipped).toContain('ODDS_API_KEY is not set');
    expect(p['espn']).toMatchObject({ reachable: true, ok: true, parsed: 5 });
    expect(p['mlb-statsapi']).toMatchObject({ reachable: true, ok: true });
    expect(p['savant']).toMatchObject({ reachable: false, ok: false });
    const savant = j.entries.filter((e: { provider: string }) => e.provider === 'savant');
    expect(savant.map((e: { outcome: string; status: number }) => [e.outcome, e.status])).toEqual([
      ['unreachable', 404],
      ['unreachable', 404],
    ]);
    expect(server.seen).toContain('/apis/site/v2/sports/baseball/mlb/scoreboard?dates=20250605');
    expect(j.entries.find((e: { url: string }) => e.url.includes('/baseball/mlb/scoreboard')).records).toBe(13);
  });
});
