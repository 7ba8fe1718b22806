import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/accounts/users.js';
import { openStore } from '../src/store/db.js';
import { runCli } from './helpers/cli.js';
import { seededStoreFile } from './helpers/replay-store.js';
import { quiet, startServer, type Running } from './server/_harness.js';

/**
 * One JSON style everywhere (issue 13): every CLI --json output and every HTTP JSON body uses
 * snake_case keys (the seed's gradedAt aside) and no number carries more than 6 decimals.
 */

const CAMEL = /^[a-z][a-z0-9]*[A-Z]/;
const decimals = (x: number): number => {
  if (Number.isInteger(x)) return 0;
  const [mantissa, exp] = x.toExponential().split('e') as [string, string];
  const frac = (mantissa.split('.')[1] ?? '').length;
  return Math.max(0, frac - Number(exp));
};

/** Every camelCase key and every over-precise number in a JSON value, with its path. */
function offences(value: unknown, path = '$'): string[] {
  if (typeof value === 'number') return decimals(value) > 6 ? [`${path} = ${value}`] : [];
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => offences(v, `${path}[${i}]`));
  const out: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (CAMEL.test(k) && k !== 'gradedAt') out.push(`${path}.${k} (key)`);
    out.push(...offences(v, `${path}.${k}`));
  }
  return out;
}

describe('one JSON style on every --json output and HTTP body', () => {
  let dir: string;
  let db: string;
  let api: Running;
  let token: string;
  const SGA = 'Shai Gilgeous-Alexander|points|31.5|over';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-wire-'));
    db = join(dir, 'pg.sqlite');
    await seededStoreFile(db);
    for (const now of ['2025-11-05T15:05:00Z', '2025-11-05T17:05:00Z']) {
      const r = await runCli(['--db', db, '--json', 'snapshot', 'nba', '--replay', 'data/replay', '--now', now, '--quiet']);
      expect(r.code, r.stderr).toBe(0);
    }
    expect((await runCli(['--db', db, '--json', 'settle', 'nba', '--replay', 'data/replay', '--now', '2025-11-06T12:00:00Z'])).code).toBe(0);
    const store = openStore(db);
    token = (await createUser(store, { email: 'wire@example.test', tier: 'desk' }, new Date('2025-11-05T17:05:00Z'))).token;
    api = await startServer({ store, config: { ...(await import('../src/config.js')).loadConfig({ INTERNAL_API_KEY: 'k'.repeat(24) }) }, now: () => new Date('2025-11-05T17:10:00Z'), log: quiet });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every CLI --json output', async () => {
    const slip = join(dir, 'slip.txt');
    writeFileSync(slip, 'Jalen Brunson over 27.5 points\n');
    const commands: string[][] = [
      ['snapshot', 'nba', '--replay', 'data/replay', '--now', '2025-11-05T17:20:00Z'],
      ['slate', 'nba', '--all'],
      ['scan', '--player', 'Shai Gilgeous-Alexander', '--stat', 'points', '--line', '31.5', '--direction', 'over'],
      ['scan', '--player', 'Shai Gilgeous-Alexander', '--stat', 'points', '--line', '45.5', '--direction', 'over'],
      ['parlay', '--leg', SGA, '--leg', 'Chet Holmgren|rebounds|8.5|over'],
      ['record', '--now', '2025-11-06T12:00:00Z'],
      ['ledger', '--date', '2025-11-05'],
      ['ticker'],
      ['settle', 'nba', '--replay', 'data/replay', '--now', '2025-11-06T12:00:00Z'],
      ['db', 'status'],
      ['users', 'list'],
      ['devig', '--method', 'all', '--', '-110', '+105'],
      ['parse-slip', '--text', slip],
      ['backtest', '--props', 'test/fixtures/history/all-markets-nop-excerpt.csv', '--gamelogs', 'test/fixtures/history/gamelogs-nop-excerpt.csv', '--mlb-strikeouts', 'test/fixtures/history/mlb-strikeouts-excerpt.csv', '--from', '2025-10-22', '--to', '2025-11-04'],
    ];
    for (const argv of commands) {
      const r = await runCli(['--db', db, '--json', ...argv]);
      expect(r.stdout.trim().length, argv.join(' ')).toBeGreaterThan(0);
      expect(offences(JSON.parse(r.stdout)), argv.join(' ')).toEqual([]);
    }
  }, 120_000);

  it('every HTTP route in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${api.base}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const fill = (p: string) => p.replace('{sport}', 'nba').replace('{abbr}', 'IND');
    const bodies: Record<string, unknown> = {
      '/api/scan': { player: 'Shai Gilgeous-Alexander', stat: 'points', line: 31.5, direction: 'over' },
      '/api/analyze': { player: 'Shai Gilgeous-Alexander', stat: 'points', line: 31.5, direction: 'over' },
      '/api/parlay/grade': { legs: [{ player: 'Shai Gilgeous-Alexander', stat: 'points', line: 31.5, side: 'over' }, { player: 'Chet Holmgren', stat: 'rebounds', line: 8.5, side: 'over' }] },
      '/api/slips/parse': { text: 'Jalen Brunson over 27.5 points' },
    };
    let checked = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (path.startsWith('/api/internal')) continue; // runs the pipeline; its body is a run summary covered by the CLI walk
      if (path === '/openapi.json') continue; // the OpenAPI standard's own key names (requestBody, minLength)
      for (const method of Object.keys(methods)) {
        const url = `${api.base}${fill(path)}${path === '/api/players/search' ? '?q=brunson' : ''}`;
        const init: RequestInit = { method: method.toUpperCase(), headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } };
        if (method === 'post') init.body = JSON.stringify(bodies[path] ?? {});
        const res = await fetch(url, init);
        const text = await res.text();
        if (!(res.headers.get('content-type') ?? '').includes('json')) continue;
        expect(offences(JSON.parse(text)), `${method} ${path}`).toEqual([]);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(12);
  }, 60_000);
});
