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
 * Changed once on purpose (issue 26, branch i26-mlb): the bundled replay gained the real MLB day
 * of 2025-08-16, so `snapshot all` grades MLB too and the seed imports MLB history; only the parts
 * that read those rows were updated (the NBA loop's outputs kept their digests).
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
  'cli snapshot 15:05 --json': '3d8173b553fe5c8cf1ee50fb0bf9a3d270463258d776dbf85a3d8c681c5b6834',
  'cli snapshot 17:05': '6af656b7e5999f79c2c2690d5efd58bd02fe6860dae1a2762c34324d8b9e44d6',
  'cli slate': 'e7378e6e80cb1f9e26641d1e1722b85790f108e79a4c18d05c9e2657dad0d5ff',
  'cli slate --json': '9b716ce3bfad7dc413cfc2eda8c30e903270c4d7f7b5505395256f99af073f20',
  'cli slate --all --json': '711e57eb04f109c79f7eb1420dd602187988110ae482ea93c5df12632161db3a',
  'cli scan --json': '2e66d7332c89aa48711f734bbca7fe3757c85e1c1f62d46e86ffc53d6a689a52',
  'cli parlay --json': 'f2a4c4d96fcbcf012788ae3624d68326c5c0f0fad479c8f17afe7342e8967163',
  'cli ticker --json': 'cef570521a5626477d7da6d2016d4a9e259f3a8747c3d447508d092b5b6a3808',
  'api presettle free': '65c31dd17887608e2acb98c927efd053af8ac58dd3f87e0e9c7a84eef6111015',
  'api presettle analyst': '5189a8a57ea073163fd895109111d6221d294c6843e58829758661ccbc8a7ab3',
  'api presettle desk': '38367f9e1da4cae885192f885bb5e613dd14583c1086c41c24e12a6b99bc01e4',
  'cli settle': 'c5dcfec44ca85743eb7cfcf7cb77342c1b9fabccd3d1844fc8d34b8156afb304',
  'cli record': 'c079c9009157c7a9edf570091a7238d9e7e14f43fdde381e8647e56acb11d15f',
  'cli record --json': 'a6d9d3073c1bee3629db86e2a9f205bb3fa1eecbc77eb881a0ca1744edb6c5ac',
  'cli record --team NY --json': 'd98b7d11277c65ace5c2b255772d43d656bddabc1279c2e12732323eee6c7f7a',
  'cli ledger --json': 'aa4540b6f22ecc14d4e68cd11348197e8a74a67f578b2cf258e1049a56afe4cb',
  'cli ledger --team NY': 'c7156ed7209525ba02c85fdf0e1c3aacdefa128b495c96882b0a1f9bc19ace7c',
  'table loop graded_rows': '9d1ef6fda09ba31501617a107dfae21e8a21e773ed3738eb0cd2de0a5dca05f6',
  'table loop grade_locks': '689fea01d7144aa3e5771caa944c0a4f686cb7cd3ebffb5d9e34a10151675c2d',
  'table loop ledger_entries': '05f195b549f5fe1e4834776af2bf926e0db5a83558e6d76ffcf28691b288d4b8',
  'table loop closing_prices': '70a10949a286c6647fbc30202feece95f63acc4bb7abc9edacd795cfc20b8df4',
  'table loop ticker_events': '3a22e64e2a51efc6e11f9cd2cc0c763cb08970646b0c3591d3678227d0648b5a',
  'table loop player_game_stats': 'd50703f63791b70041d3d5028f2a6bab43bb9fe28ce6571323d9c8213f066d86',
  'table loop snapshots': 'ea1684019911a77d3cd17e96d2925e9321340c9702fefb88e7c434eb5625e51a',
  'table loop pipeline_runs': '3a9d30ea19a6eec19a584b5f01b395de3bd68a987b3eba86fef2b7c4b0802457',
  'table loop kv_cache': '1d60e8fd031e31f7707eba7478c6a27abba36bcbaa943d86f88eef4b79633b62',
  'cli all fresh --json': 'c8d7ea5b4d030dbba7eecc2ce65bb1a45b0a5e5ddf3b91a026213fd2e0e5115a',
  'cli all warm': '8829715b23fe5971096836d8323bd4e56db1de289ff8a8112917237036e78238',
  'table all graded_rows': '3f2ee85fdd1c26e7862f3d59276785ec1af63006c30616f39408563ae62db0e5',
  'table all grade_locks': '2d26b3cb69ebdc0f7890f4302a011e8455ab6e9b3a4cd2160fce270f114c6161',
  'table all ledger_entries': 'd8f09e5ddb2fbc659dcb776664e004c1b9d4242c6936d19dadd9e0c9275bb071',
  'table all closing_prices': '2e90e0499eb60e808358c9772ce4fc85cfe21f3e4e384745f593bfc5aeea9128',
  'table all ticker_events': '2ce5a944a6ecb71c21c4a0aa7d265c98c74cd83492293514da04ba3561242152',
  'table all player_game_stats': 'b6a1959721f24d028eb460157867d8d6ffe566489d77640847726840c265ad5b',
  'table all snapshots': 'e7be114fbf52a1cb1ca58582f3e96521d3ffe618c7063e9e17d6501d251e7283',
  'table all pipeline_runs': '727ea695d2463230bbf57b3045c38089294827475556f0034dd1b6d884afe4c8',
  'table all kv_cache': '4db9af468407ef9859ca03ac8f2ded8b7a350065dc2102d763cfb2792264a118',
  'api all free': 'c2d607e1d9548e8b90820b62ca97f837ddf8bcdae130d51a9b6552a9cce05259',
  'api all analyst': 'ea9cea0429bdd86b2bc9811a23bcbdb002d7b35ea1c1ad7ea06397773ecc40d5',
  'api all desk': '568ceee82fdf26ea1b8fb1c13d50026cc75d6f93ef88dc0e449b30a58f49dad5',
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
    await cli('ledger --team NY', loop, ['ledger', '--date', '2025-11-05', '--team', 'NY']);
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
