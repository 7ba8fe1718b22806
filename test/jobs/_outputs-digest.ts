import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createSnapshotCache } from '../../src/server/snapshot-cache.js';
import { openStore, openStoreAt } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';
import type { EngineName } from '../helpers/engines.js';
import { freshPgDatabase } from '../helpers/pg.js';

/**
 * The parts outputs-identical.test.ts digests, collected on either engine: the README loop and the
 * quick start run through the real CLI (`--db <file or postgres:// URL>`) on fresh stores, every row
 * of the tables they write read raw from the engine, and the snapshot cache's bytes of each tier.
 */

export const TABLES = ['graded_rows', 'grade_locks', 'ledger_entries', 'closing_prices', 'ticker_events', 'player_game_stats', 'snapshots', 'pipeline_runs', 'kv_cache'] as const;

/** The import marker names the history file by its absolute path: digest it relative to the checkout. */
const relative = (line: string) => line.split(process.cwd()).join('.');

function sqliteTableDump(path: string, table: string): string {
  const store = openStore(path, { migrate: false, readonly: true });
  try {
    const order = table === 'kv_cache' ? 'key' : 'id';
    const rows = store.sqlite.prepare(`select * from ${table} order by ${order}`).raw(true).all() as unknown[][];
    const columns = (store.sqlite.prepare(`select * from ${table} limit 0`).columns() as Array<{ name: string }>).map((c) => c.name);
    return [JSON.stringify(columns), ...rows.map((r) => relative(JSON.stringify(r)))].join('\n');
  } finally {
    void store.close();
  }
}

/** Each table's columns in SQLite's order (a migrated in-memory store), the order the digests were taken in. */
function sqliteColumns(): Record<string, string[]> {
  const store = openStore(':memory:');
  try {
    return Object.fromEntries(TABLES.map((t) => [t, (store.sqlite.prepare(`select * from ${t} limit 0`).columns() as Array<{ name: string }>).map((c) => c.name)]));
  } finally {
    void store.close();
  }
}

/**
 * The same dump read raw from PostgreSQL, each value as SQLite stores it: a boolean as 0/1, JSON as
 * the text stored (json keeps it verbatim), a bigint as a number; float8 arrives as PostgreSQL's
 * shortest round-trip text (extra_float_digits 1), so any bit differs in the digest as it would on
 * SQLite. Text keys sort bytewise (collate "C"), as SQLite's binary collation does. Columns are
 * selected by name in SQLite's order: PostgreSQL's physical order differs where SQLite's migrations
 * appended columns (graded_rows, grade_locks, ledger_entries), and a column's position is no output;
 * a column one engine has and the other lacks fails the dump.
 */
async function pgTableDump(client: pg.Client, table: string, order: string[]): Promise<string> {
  const { rows } = await client.query<{ name: string; type: string }>(
    `select column_name as name, data_type as type from information_schema.columns where table_schema = current_schema() and table_name = $1`,
    [table],
  );
  const types = new Map(rows.map((c) => [c.name, c.type]));
  if (types.size !== order.length || order.some((c) => !types.has(c))) throw new Error(`${table}: PostgreSQL columns [${[...types.keys()].sort().join(', ')}] are not SQLite's [${[...order].sort().join(', ')}]`);
  const select = order.map((c) => (types.get(c) === 'boolean' ? `"${c}"::int` : types.get(c) === 'json' || types.get(c) === 'jsonb' ? `"${c}"::text` : `"${c}"`)).join(', ');
  const by = table === 'kv_cache' ? 'key collate "C"' : 'id';
  const res = await client.query({ text: `select ${select} from "${table}" order by ${by}`, rowMode: 'array' });
  const bigints = order.map((c) => types.get(c) === 'bigint');
  const values = (res.rows as unknown[][]).map((r) => r.map((v, i) => (bigints[i] && v !== null ? Number(v) : v)));
  return [JSON.stringify(order), ...values.map((r) => relative(JSON.stringify(r)))].join('\n');
}

async function tableDumps(engine: EngineName, target: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (engine === 'sqlite') {
    for (const t of TABLES) out[t] = sqliteTableDump(target, t);
    return out;
  }
  const columns = sqliteColumns();
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    for (const t of TABLES) out[t] = await pgTableDump(client, t, columns[t]!);
  } finally {
    await client.end();
  }
  return out;
}

async function apiBodies(target: string): Promise<Record<string, Buffer>> {
  const store = await openStoreAt(target, { migrate: false });
  try {
    const cache = createSnapshotCache(store);
    const out: Record<string, Buffer> = {};
    for (const tier of ['free', 'analyst', 'desk'] as const) {
      const entry = await cache.get('nba', tier);
      if (!entry) throw new Error(`no nba snapshot for ${tier}`);
      out[tier] = entry.identity.bytes;
    }
    return out;
  } finally {
    await store.close();
  }
}

/** A store target nothing has touched yet: a path to no file, or a new empty PostgreSQL database. */
async function freshTarget(engine: EngineName, dir: string, name: string): Promise<{ target: string; drop(): Promise<void> }> {
  if (engine === 'sqlite') return { target: join(dir, `${name}.sqlite`), drop: async () => {} };
  const db = await freshPgDatabase();
  return { target: db.url, drop: db.drop };
}

/** Runs the README loop and the quick start on `engine` and returns every digested part by name. */
export async function collectParts(engine: EngineName): Promise<{ parts: Map<string, string | Buffer>; cleanup(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), `propgrade-identical-${engine}-`));
  const parts = new Map<string, string | Buffer>();
  const targets: Array<{ drop(): Promise<void> }> = [];
  const cleanup = async () => {
    for (const t of targets) await t.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const loopDb = await freshTarget(engine, dir, 'loop');
    targets.push(loopDb);
    const allDb = await freshTarget(engine, dir, 'all');
    targets.push(allDb);
    const loop = loopDb.target;
    const all = allDb.target;
    const cli = async (name: string, db: string, argv: string[]) => {
      const r = await runCli(['--db', db, ...argv]);
      if (r.code !== 0) throw new Error(`${engine}: ${name} exited ${r.code}: ${r.stderr}`);
      parts.set(`cli ${name}`, r.stdout);
    };
    const replay = ['--replay', 'data/replay'];
    // The README loop, in its order.
    await cli('snapshot 15:05 --json', loop, ['snapshot', 'nba', ...replay, '--now', '2025-11-05T15:05:00Z', '--json']);
    await cli('snapshot 17:05', loop, ['snapshot', 'nba', ...replay, '--now', '2025-11-05T17:05:00Z']);
    await cli('slate', loop, ['slate', 'nba']);
    await cli('slate --json', loop, ['slate', 'nba', '--json']);
    await cli('slate --all --json', loop, ['slate', 'nba', '--all', '--json']);
    await cli('scan --json', loop, ['scan', '--player', 'Jalen Brunson', '--stat', 'points', '--line', '27.5', '--direction', 'over', '--json']);
    await cli('parlay --json', loop, ['parlay', '--leg', 'Jalen Brunson|points|27.5|over', '--leg', 'Karl-Anthony Towns|rebounds|11.5|over', '--json']);
    await cli('ticker --json', loop, ['ticker', '--json']);
    for (const [name, body] of Object.entries(await apiBodies(loop))) parts.set(`api presettle ${name}`, body);
    await cli('settle', loop, ['settle', 'nba', ...replay, '--now', '2025-11-06T12:00:00Z']);
    await cli('record', loop, ['record']);
    await cli('record --json', loop, ['record', '--json']);
    await cli('record --team NY --json', loop, ['record', '--team', 'NY', '--sport', 'nba', '--json']);
    await cli('ledger --json', loop, ['ledger', '--date', '2025-11-05', '--json']);
    await cli('ledger --team NY', loop, ['ledger', '--date', '2025-11-05', '--team', 'NY', '--sport', 'nba']);
    for (const [t, dump] of Object.entries(await tableDumps(engine, loop))) parts.set(`table loop ${t}`, dump);
    // The quick start: `snapshot all` on a fresh store, then the warm re-run (every grade from its lock).
    await cli('all fresh --json', all, ['snapshot', 'all', ...replay, '--json']);
    await cli('all warm', all, ['snapshot', 'all', ...replay]);
    for (const [t, dump] of Object.entries(await tableDumps(engine, all))) parts.set(`table all ${t}`, dump);
    for (const [name, body] of Object.entries(await apiBodies(all))) parts.set(`api all ${name}`, body);
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { parts, cleanup };
}
