/**
 * Before/after guard for the performance work of issue 18: the README loop on the bundled replay
 * must produce byte-identical results. The digests below were computed by this test from the code
 * as it stood BEFORE any optimisation (commit "Outputs-identical guard…"), and are never to be
 * regenerated to make a change pass: a differing digest means the change altered an output.
 *
 * What is digested (sha256 of the exact bytes):
 * - the stdout of every command of the README loop, tables and --json (snapshot 15:05 and 17:05 on
 *   a fresh store, so the first one also imports the seed history; slate, slate --all, scan,
 *   parlay, ticker, settle, record, record --team, ledger);
 * - `snapshot all` on a second fresh store and its warm re-run at the same clock (every grade read
 *   from its lock);
 * - every row of every table the runs write (graded_rows, grade_locks, ledger_entries,
 *   closing_prices, ticker_events, player_game_stats, snapshots, pipeline_runs, kv_cache), ids
 *   included, in id order, floats as JSON prints them (shortest round-trip: any bit differs, so
 *   does the digest);
 * - the GET /api/snapshot/nba body of each tier, as the snapshot cache serializes it.
 *
 * Regenerated once on purpose, for issue 25 (a claim travels with its price; CLV on one yardstick):
 * graded rows, locks and ledger entries gained the locked price, the EV now and the one-yardstick
 * close, so every digest of those tables and of the outputs that print them changed; scan, parlay,
 * ticker, closing_prices, ticker_events, player_game_stats, snapshots and kv_cache did not.
 *
 * To see what changed on a failure: OUTPUTS_DUMP=/some/dir writes each part to a file, and
 * OUTPUTS_PRINT=/some/file.json the digests.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSnapshotCache } from '../../src/server/snapshot-cache.js';
import { openStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';

const TABLES = ['graded_rows', 'grade_locks', 'ledger_entries', 'closing_prices', 'ticker_events', 'player_game_stats', 'snapshots', 'pipeline_runs', 'kv_cache'] as const;

const EXPECTED: Record<string, string> = {
  'cli snapshot 15:05 --json': 'a40d3f593d16426f2ba3b9be27341c1a8c2c882af6c75819e69948849f26c1da',
  'cli snapshot 17:05': '8947c43dec94226d90cc12c5806d3796ca73e9adddcab5631476beb3c7379cd0',
  'cli slate': '86d1b0061f42aee0082a74f051c74462b0ac6b3b527f50c248e9cfe047437dd0',
  'cli slate --json': '1a22037e0b1746a57c3b0baac5f7e58ad6f8d61b16a4efec6aba768ef6206e2c',
  'cli slate --all --json': '2e2e67aeb642a5a80d990f6ba50c874ad2ce733d838e9a4dd24b87fe646b2755',
  'cli scan --json': '2e66d7332c89aa48711f734bbca7fe3757c85e1c1f62d46e86ffc53d6a689a52',
  'cli parlay --json': 'f2a4c4d96fcbcf012788ae3624d68326c5c0f0fad479c8f17afe7342e8967163',
  'cli ticker --json': 'cef570521a5626477d7da6d2016d4a9e259f3a8747c3d447508d092b5b6a3808',
  'api presettle free': '66c6628ff18d02dec732e8a6cb920edcc934c06c1bef2ea267354ecd8394adad',
  'api presettle analyst': '741b23370390f7ffc42151d8532c7709273f779a07b8f0e6f3e3dfc5e35e2059',
  'api presettle desk': '359b5350c12783f44cd97d3032b5a1157e0aefd84d16184dfb3fa6a38253fc35',
  'cli settle': 'c189f588674f01469f3a50160b36d00b7a910a8f850ee9fa0d6f42938c6c29c4',
  'cli record': '08b15d9e872c88292ad49c0fabaf8c493ed6379da85a4cd90749f40bbcbf5fcd',
  'cli record --json': '017c9838f59898164247ac2e0a3c10aebfb2ffd2b51528bb67146f4766ad7376',
  'cli record --team NY --json': 'fc1172b23fb3bd148fb084127446e4d191a2a8e93dff78abd0619e8c718504b1',
  'cli ledger --json': '4b705eb9e306ae24d8f7480fc0f6b05922fbc375b370e94180a058a32fdc059f',
  'cli ledger --team NY': '1ccb798159f38f6a194c8bd1d8a451963dc0dae861dba2a0c15b2bf52bc2f971',
  'table loop graded_rows': '324a7020682aa9f74974d3cce6cfe0c83e3d15fff24bea802b3fe72c01c69795',
  'table loop grade_locks': 'f473f3bd57f5a6e07588d92e2a30df9efa46b891b9dcb7a57288370ad344dc0c',
  'table loop ledger_entries': '4386a63918a5ee4a8dd2a9d26a50e5647c21c9ac8f101c427cc72633f606ba95',
  'table loop closing_prices': '70a10949a286c6647fbc30202feece95f63acc4bb7abc9edacd795cfc20b8df4',
  'table loop ticker_events': '3a22e64e2a51efc6e11f9cd2cc0c763cb08970646b0c3591d3678227d0648b5a',
  'table loop player_game_stats': 'db9ea22aabeea438ad78253fb3af6fd0a805d1408b34d0ea7e4b20d245614f50',
  'table loop snapshots': 'ea1684019911a77d3cd17e96d2925e9321340c9702fefb88e7c434eb5625e51a',
  'table loop pipeline_runs': 'fbcfdd4da9d1f96e8df6fe93d24ef16a1597edc3c95e188847ceddd25ac96df0',
  'table loop kv_cache': 'd7345404ca538e39b605b8d17213f0563e9621ffd7443ea6c94a5e9a3c95b88a',
  'cli all fresh --json': '46844d83a795eca48a15493b99171fe17fff614d7a1c210ed19ea4dc9df1c075',
  'cli all warm': '491d3d992f49f2db8a27ca634ea55f99545e75d2c11bb8ecf2373cdab0a0efe6',
  'table all graded_rows': 'dfe70bacbe9e6254646ffcadcda0145a27b48b95ca0f05513613c16d88fb3054',
  'table all grade_locks': '25a2897e53921a80c20251f97fa81875521cd086306f3bec6bcacd405c826a0b',
  'table all ledger_entries': '26025c16417e89ad7df2cb38b6a3970c5c488f6829fcdd9267a0fce6035f8bf5',
  'table all closing_prices': '869f970e29bbf4295b7c7c0f01554b2ccb74a07296c4fb1c42ec2dfed018fbe4',
  'table all ticker_events': '2ce5a944a6ecb71c21c4a0aa7d265c98c74cd83492293514da04ba3561242152',
  'table all player_game_stats': '71419fe22e6cdb49733c569ca985066e5cb9b6b6c13315ade64e50d19630075f',
  'table all snapshots': '2b5fc65e861fe865072c37ddf9195b766ef3e15a97966c53807d518675c10f4a',
  'table all pipeline_runs': 'ec25065cb9013572302755374b64038ad0d23eddf73f840989b19db3fdb4bb60',
  'table all kv_cache': '07a97057757d3f6b8bbee21a7edb07c48f16587dddb22869283aa9ee145c527b',
  'api all free': 'e21e1c17d3613caa31260b95961d83ae3a3230c104efe48f6161a95a992a6ea8',
  'api all analyst': '48f68f22c9e4b6c288c821ef66ac4e40df9fee1029d750c0432be9a6ac34beed',
  'api all desk': '21588a6bf539478d73e392a8f06fbd4f1518587b0a29ba3cd8e077465afee5b0',
};

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

function tableDump(path: string, table: string): string {
  const store = openStore(path, { migrate: false, readonly: true });
  try {
    const order = table === 'kv_cache' ? 'key' : 'id';
    const rows = store.sqlite.prepare(`select * from ${table} order by ${order}`).raw(true).all() as unknown[][];
    const columns = (store.sqlite.prepare(`select * from ${table} limit 0`).columns() as Array<{ name: string }>).map((c) => c.name);
    // The import marker names the history file by its absolute path: digest it relative to the
    // checkout, so the digest is the same in any clone (CI's included).
    return [JSON.stringify(columns), ...rows.map((r) => JSON.stringify(r).split(process.cwd()).join('.'))].join('\n');
  } finally {
    store.close();
  }
}

function apiBodies(path: string): Record<string, Buffer> {
  const store = openStore(path, { migrate: false });
  try {
    const cache = createSnapshotCache(store);
    const out: Record<string, Buffer> = {};
    for (const tier of ['free', 'analyst', 'desk'] as const) {
      const entry = cache.get('nba', tier);
      if (!entry) throw new Error(`no nba snapshot for ${tier}`);
      out[tier] = entry.identity.bytes;
    }
    return out;
  } finally {
    store.close();
  }
}

describe('outputs on the bundled replay are identical to the pre-optimisation code', () => {
  let dir: string;
  const parts = new Map<string, string | Buffer>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-identical-'));
    const loop = join(dir, 'loop.sqlite');
    const all = join(dir, 'all.sqlite');
    const cli = async (name: string, db: string, argv: string[]) => {
      const r = await runCli(['--db', db, ...argv]);
      if (r.code !== 0) throw new Error(`${name} exited ${r.code}: ${r.stderr}`);
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
    for (const [name, body] of Object.entries(apiBodies(loop))) parts.set(`api presettle ${name}`, body);
    await cli('settle', loop, ['settle', 'nba', ...replay, '--now', '2025-11-06T12:00:00Z']);
    await cli('record', loop, ['record']);
    await cli('record --json', loop, ['record', '--json']);
    await cli('record --team NY --json', loop, ['record', '--team', 'NY', '--json']);
    await cli('ledger --json', loop, ['ledger', '--date', '2025-11-05', '--json']);
    await cli('ledger --team NY', loop, ['ledger', '--date', '2025-11-05', '--team', 'NY', '--sport', 'nba']);
    for (const t of TABLES) parts.set(`table loop ${t}`, tableDump(loop, t));
    // The quick start: `snapshot all` on a fresh store, then the warm re-run (every grade from its lock).
    await cli('all fresh --json', all, ['snapshot', 'all', ...replay, '--json']);
    await cli('all warm', all, ['snapshot', 'all', ...replay]);
    for (const t of TABLES) parts.set(`table all ${t}`, tableDump(all, t));
    for (const [name, body] of Object.entries(apiBodies(all))) parts.set(`api all ${name}`, body);

    const dump = process.env['OUTPUTS_DUMP'];
    if (dump) {
      mkdirSync(dump, { recursive: true });
      for (const [name, body] of parts) writeFileSync(join(dump, name.replace(/[^\w.-]+/g, '_')), body);
    }
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('every part digests as before', () => {
    const actual = Object.fromEntries([...parts].map(([name, body]) => [name, sha(body)]));
    const print = process.env['OUTPUTS_PRINT'];
    if (print) writeFileSync(print, JSON.stringify(actual, null, 2));
    expect(actual).toEqual(EXPECTED);
  });
});
