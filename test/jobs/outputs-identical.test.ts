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
 * Changed on purpose after issues 41-43 (compared part by part with the dumps of 4b4776e, OUTPUTS_DUMP):
 * the paid tier buys the projection's own view (55d8624: the slate, scan and parlay JSON and the API
 * tiers gain projection_prob/odds/ev_pct and projection_record; the market's letter, p_win, ev_pct
 * and value are free); ledger entries gain close_books and Pinnacle's yardstick columns (bcaa9ef,
 * 6aa8710; every old column of every row unchanged); the record prints beat close by lead band on both
 * yardsticks (99d33bc); the not_backtested cap's legend says MLB was back-tested and failed
 * (ac32fe2); MLB pitcher outs are a stat (player_game_stats gain pitcher_outs; the 15 MLB event-odds
 * requests ask for one more market, so credits_used is 15 higher: dd7e77f, f146b61).
 *
 * Changed on purpose for issue 42 (the bundled EPL matchday): data/replay now holds the six EPL
 * matches of 2025-08-30, so `snapshot all` grades soccer (6 events, 5,120 rows, 1,157 graded, 4
 * ledger entries) instead of reporting it not_recorded. Compared part by part with the dumps of
 * 8892dad (OUTPUTS_DUMP, both engines): only the `all` parts changed, and only by the soccer
 * additions: every non-soccer row of every table is the same bar its id (the soccer run takes id 4,
 * so the later snapshots, runs and the API's snapshot.id/snapshot_id move by one); `cli all fresh
 * --json` gains the soccer run and slate; `cli all warm` gains the soccer slate and its summary
 * table's columns narrow (no not_recorded note); the README loop's parts are unchanged.
 *
 * Changed on purpose for issue 41 item 5 (an entry is on the record from when it was entered):
 * ledger entries gain entered_at, the data clock of the run that wrote them. Compared part by part
 * with the dumps of 95a1649 (OUTPUTS_DUMP, both engines): only the two ledger_entries tables changed,
 * and only by the new last column; every other column of every row is the same. The loop's 448
 * entries: 445 entered when locked, 3 (NBA threes unders locked as rungs at 15:05) entered at 17:05;
 * the `all` store's 498 all entered when locked. No printed output changed.
 *
 * Changed on purpose for the close stamp (issue 43 follow-up): a replayed snapshot stamps each close
 * with the time its event's odds were recorded (jobs/close-due.ts recordedOddsClock), as the close
 * run does, not with the run's clock. Compared part by part with the dumps of a99a695 (OUTPUTS_DUMP,
 * both engines): only closing_captured_at / captured_at and the lead minutes changed. Loop: the 85
 * NBA closes 17:05 -> 17:00, lead +5 min each (ledger_entries, the two ledger listings); its 4,812
 * closing prices 5 min earlier (4 at 15:00, 4,808 at 17:00). `all`: closing_prices NBA 4,808 +5 min,
 * MLB 182 +6.7 min (16:25 -> 16:18:17), WNBA 208 by each game's recording (58 at 06:55:37 +244.4
 * min, 48 at 09:55:37 +64.4, 102 at 10:55:37 +4.4), EPL unchanged (its clock is its recording).
 * No verdict, beat-close count or record output changed (every NBA close is still over 3 h out).
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
  'cli snapshot 15:05 --json': '7b0db210ec845d723377d42e95e33d4d23a3163d2e7e646a3683cdf1d2aedbc5',
  'cli snapshot 17:05': '5ff48b68faafc3b2b427a5fa7aa51dc18eb4f98d3c668f383ab9fb7760441bfb',
  'cli slate': 'af2c5bf9d7599109120b4686ff5e87240a6a93c2e9ff808c07f521463f2d89eb',
  'cli slate --json': '02b3b4c583b14a69c8b364553bb0928b67b1b1346a1dc0ccc002885132a4875d',
  'cli slate --all --json': '16fa59ab7970b382a49735bbd38832905407af44c34fad4dd193ded4ff51b58f',
  'cli scan --json': 'a2f21f145ec2f1d0e2e754bba2594970401f56dc45f5bdd534992cb39058382a',
  'cli parlay --json': '599e0b3034edd7d0748c8cf52f32835354625f40286f8123d77ae9aa8c7279ff',
  'cli ticker --json': 'cef570521a5626477d7da6d2016d4a9e259f3a8747c3d447508d092b5b6a3808',
  'api presettle free': '8c29e5285706a16fecc7ad873ff3951fecb83197c500eecb11a4c44b65f87ea5',
  'api presettle analyst': '05041c80d73b8707e7e6b71c512af9d00d3ba473923466a78bc39a300df09e1f',
  'api presettle desk': '0047bf0bcbc5d02633e813216fed40dced8e0426bdf3d9ba932a2b9e3a50fa88',
  'cli settle': 'c51e1f48f80075752c7f65475a27331f0e7fa2d36be1c53c03053cf971271b9b',
  'cli record': 'db80aa489dd53a1aa9bb6c8b70362baf393f3e5e9f7122c26f40b443a5409f81',
  'cli record --json': '0f381f0113ca38cfe8978a982ce2943b7bc0f0aaaf957abbc43c16bf7d8146c4',
  'cli record --team NY --json': 'c6c9f42e1f98818d6973c80d49d8f125ff9640f50c8d71a3069be8c7072e5c07',
  'cli ledger --json': '0c4993f285571051961e27bc0352780d11c6ced8c8db0a052868cb364da7ca03',
  'cli ledger --team NY': '9004446e43fa2f9a6fbe4465c2daa3a9586cbb08b01663fc13df8739ecf78be5',
  'table loop graded_rows': 'e07c685a5669260fb587cfc074a1a1b5f3e02fb90a46643dd96a4b4fe38ffa1b',
  'table loop grade_locks': '040cf6662e793f82a87b129dee7f494931449caba6398f8a058e0ae1975943a1',
  'table loop ledger_entries': 'd5cdd65e6be568ca80b93bf56e8127bc6e090f0b04a5ad6e3e98515e2d24679c',
  'table loop closing_prices': 'd15021e48ccda06f1252b2d1c16f6c34ad6c3f5c7788e75edc095f973b7ad139',
  'table loop ticker_events': '3a22e64e2a51efc6e11f9cd2cc0c763cb08970646b0c3591d3678227d0648b5a',
  'table loop player_game_stats': 'db9ea22aabeea438ad78253fb3af6fd0a805d1408b34d0ea7e4b20d245614f50',
  'table loop snapshots': 'ea1684019911a77d3cd17e96d2925e9321340c9702fefb88e7c434eb5625e51a',
  'table loop pipeline_runs': 'f63c75c994785eb4e8d5fd4ff2a924bd68f0e5eb91c80fd1df42ed676c4af0c7',
  'table loop kv_cache': '2e72644c22582c7a23d939115e71f99b79c2e8a4a7b791a31db9d95c965dc8fb',
  'cli all fresh --json': '1ba8a8cf56a45fa30d8215449f1f9fc5713e8e57e05c380661a1f4cb753714d0',
  'cli all warm': '3a9d04621fd99cd283cb3813f1235966342142790b45a67b4b4adf3111157998',
  'table all graded_rows': 'bf7872c2aff4855a55c9606cbce771f7c5aa71275c86add9efc36f3fdc48f76f',
  'table all grade_locks': '78d6988836aa4c3cb9ccbe9a55c0483bb0a3a6161eb69ce17337be10514b612e',
  'table all ledger_entries': '691962b4be19e7899b6ee1a623493f60bfc63974ec02996081cf948640dcd77a',
  'table all closing_prices': 'a5dbdf04390328baf9a54063bd1dd5808a380ce7cb6c571f8e7994efc6a97b77',
  'table all ticker_events': '2ce5a944a6ecb71c21c4a0aa7d265c98c74cd83492293514da04ba3561242152',
  'table all player_game_stats': 'd90818a9ae1f56770706c194aa0a01f65880428759fde0686c28168a17180bfd',
  'table all snapshots': '487a42cc561a8cb31cdddb681e66e4f7979ebd392b0ebd6f1be0ffda1359901a',
  'table all pipeline_runs': '9cc13fa23e62f67d31a529013ace9a0ee57af6bf91bbea48d05051698b0a4b7b',
  'table all kv_cache': 'cfeb8d89df8d712fcb44293dcb24f164989f67dd8002fa1dc58e1f7d4158ac14',
  'api all free': '38a8efd383cd6b6fe12064037e6f9ca806541fe53cef5816753199cb4e7be252',
  'api all analyst': 'aba3623b8791d014de201c9199686c135f48a0b989a6bbdf25477255a3b974f4',
  'api all desk': 'e89885c41e43f2f5177702c40d1b5d0a476ff4107b152f34a294adc234c45bba',
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
