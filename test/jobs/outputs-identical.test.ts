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
 * Regenerated once more on purpose, for issue 33 (one letter, one truth, in every sport), after the
 * issue's branches were merged: graded rows, locks and ledger entries gained the uncapped letter and
 * the cap's reason, and closes their lead time (closing_prices, ledger_entries); WNBA rebounds went
 * back to the market and the printed EV decides its band (graded_rows, grade_locks and everything
 * that prints a letter); the slate orders by the claim as it stands and says why a row has no grade;
 * the record and ledger split beat-close by lead band, the ledger has a Sport column (and `--team NY`
 * needs `--sport`, and so does `record --team NY`, whose scope now names the sport), settle counts games (pipeline_runs details), `snapshot` prints a Next line per
 * sport, and kv_cache remembers the replay folder a store was made from. ticker, ticker_events,
 * player_game_stats and snapshots did not change.
 *
 * Changed on purpose for issue 41 (one record): `record` prints the ROI interval by resampling
 * games, the method `simulate` and the back-tests use (it was mean ± 1.96 SE per stake), and its JSON
 * names each sport's window (`windows`); only the three record outputs changed.
 *
 * Issue 35: the same loop runs on a fresh PostgreSQL database too (`--db postgres://...`, rows read
 * raw from PostgreSQL, test/jobs/_outputs-digest.ts) and must give the SAME digests: the engine is
 * not allowed to change a byte of any output.
 *
 * To see what changed on a failure: OUTPUTS_DUMP=/some/dir writes each part to a file (one folder
 * per engine), and OUTPUTS_PRINT=/some/file.json the digests (file.sqlite.json, file.postgres.json).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../helpers/engines.js';
import { collectParts } from './_outputs-digest.js';

const EXPECTED: Record<string, string> = {
  'cli snapshot 15:05 --json': 'b66b7fc504bea3059da032a2673fa0f78f7748639d88a3ff033eb02e9593e91d',
  'cli snapshot 17:05': '5ff48b68faafc3b2b427a5fa7aa51dc18eb4f98d3c668f383ab9fb7760441bfb',
  'cli slate': 'af2c5bf9d7599109120b4686ff5e87240a6a93c2e9ff808c07f521463f2d89eb',
  'cli slate --json': '3558272e0c24b897c40e713c4e6b0e2a9e102f4eff69a30b7df4d02760868d88',
  'cli slate --all --json': '900a91e8765d53198678ce7368885072650b0613c6d6faaa81bb7bd76c94a33d',
  'cli scan --json': '9828896c8d53c77a6120126eeaca9f0c549cabf97a98369b71a9258a91c2b881',
  'cli parlay --json': '59638dfa16dc7775c08fbd09f1c19b19e5654432a8e2d8fd7134d9c10da116ef',
  'cli ticker --json': 'cef570521a5626477d7da6d2016d4a9e259f3a8747c3d447508d092b5b6a3808',
  'api presettle free': '714a73d59def0ab4fcdd81ac45c4c5ebadfbcf33660bef1e8cdccdc671a95d33',
  'api presettle analyst': '017c731676d121262d33f2c2738cc186a75d2efd501b7048715d54d94ebf4cb8',
  'api presettle desk': 'c6f37f3f0cbd6dd5c33c24f7b54a60bbe27e92c183bc80a184f1cddbc841ec79',
  'cli settle': 'c51e1f48f80075752c7f65475a27331f0e7fa2d36be1c53c03053cf971271b9b',
  'cli record': 'de3d3a4bc29e649ca9d5cb983a8c82d8c1833d66bbbbf6ab8f37462fc4a7e81a',
  'cli record --json': 'bad973666d11b31f4647ab9aa6b71bc70164379a9d68ea1e63751c27e3aeeba8',
  'cli record --team NY --json': '8cb8fdea9e5b7955f2a7444ddb9f016e09a40619ff3b0e742ccbe8db93987dd0',
  'cli ledger --json': 'e65c120e8e1eb30b8eb188a152dd669011887ef75c693970c958281ecf123391',
  'cli ledger --team NY': '77067b47612bb20fb11116c5e5535da65794e01c141c8e80b001fcf18a0e6f6c',
  'table loop graded_rows': 'e07c685a5669260fb587cfc074a1a1b5f3e02fb90a46643dd96a4b4fe38ffa1b',
  'table loop grade_locks': '040cf6662e793f82a87b129dee7f494931449caba6398f8a058e0ae1975943a1',
  'table loop ledger_entries': '40fba7ecf607c99ba362af6b1e64cb23afba1244e6e3c646e22f707b75eb1623',
  'table loop closing_prices': '9dd0b5b41b5bdbdce4940c238b0b87daef340b67d9fa87455ca34434d3bbe66c',
  'table loop ticker_events': '3a22e64e2a51efc6e11f9cd2cc0c763cb08970646b0c3591d3678227d0648b5a',
  'table loop player_game_stats': 'db9ea22aabeea438ad78253fb3af6fd0a805d1408b34d0ea7e4b20d245614f50',
  'table loop snapshots': 'ea1684019911a77d3cd17e96d2925e9321340c9702fefb88e7c434eb5625e51a',
  'table loop pipeline_runs': 'f63c75c994785eb4e8d5fd4ff2a924bd68f0e5eb91c80fd1df42ed676c4af0c7',
  'table loop kv_cache': '2e72644c22582c7a23d939115e71f99b79c2e8a4a7b791a31db9d95c965dc8fb',
  'cli all fresh --json': 'c34a9767a99e07ecad2fa84d18f04030fbc713c05085b5765951b431629ad5d5',
  'cli all warm': '22e4a37f2efa09d5e7c68a12efba741f1c4c44b00187b048e761bcc9dcd9aad9',
  'table all graded_rows': '58e7e0262d43783decb6a67c5d5a772127190ed59fe49b40c6c19193c5ebea52',
  'table all grade_locks': '985c3960edbd54310aec15becff5d10c2516894021435cf51eef9dafcf471dda',
  'table all ledger_entries': 'f0d086d0d9baece9d4f32af8401ced3b306ac7c33af1a93f7f03c906fca57de8',
  'table all closing_prices': '1a25e2b95b798f1f2fe98e4c8f8639c3a413073bd8d00ae9a3231b7d936a8229',
  'table all ticker_events': '2ce5a944a6ecb71c21c4a0aa7d265c98c74cd83492293514da04ba3561242152',
  'table all player_game_stats': '71419fe22e6cdb49733c569ca985066e5cb9b6b6c13315ade64e50d19630075f',
  'table all snapshots': '2b5fc65e861fe865072c37ddf9195b766ef3e15a97966c53807d518675c10f4a',
  'table all pipeline_runs': '634a9d41d2be70a1eccc16ef5510fa8ef99e84f92a89873f939345aeb42326b4',
  'table all kv_cache': '6e25edc70989aef9f7fdd033fb1bc7ff2fb56bf88664028315862a51f14f2f93',
  'api all free': 'a7be43150b72627a598a0b7a008e2c784905fb0a414b9cbc73dcfe2b1ecfde06',
  'api all analyst': '0bcc9ec79226d91dea8df39cad8f78501e9c62f344b2c974e9ce582caba452f6',
  'api all desk': '56d04cec84e50bfb723ce46ae25675f8620dc0b427286efce9642e8de06de001',
};

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

describe.each(ENGINES)('outputs on the bundled replay are identical to the pre-optimisation code (%s)', (engine) => {
  const parts = new Map<string, string | Buffer>();
  let cleanup: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const run = await collectParts(engine);
    cleanup = run.cleanup;
    for (const [name, body] of run.parts) parts.set(name, body);
    const dump = process.env['OUTPUTS_DUMP'];
    if (dump) {
      mkdirSync(join(dump, engine), { recursive: true });
      for (const [name, body] of parts) writeFileSync(join(dump, engine, name.replace(/[^\w.-]+/g, '_')), body);
    }
  }, 300_000);
  afterAll(() => cleanup());

  it('every part digests as before', () => {
    const actual = Object.fromEntries([...parts].map(([name, body]) => [name, sha(body)]));
    const print = process.env['OUTPUTS_PRINT'];
    if (print) writeFileSync(print.replace(/(\.json)?$/, `.${engine}$1`), JSON.stringify(actual, null, 2));
    expect(actual).toEqual(EXPECTED);
  });
});
