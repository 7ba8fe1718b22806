import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { seededStoreFile } from '../helpers/replay-store.js';

/**
 * Bad CLI input (issue 19, suite 6): wrong types, missing files, an empty image, a 20 MB random
 * file as an image, an unwritable --db. Each exits 2 (bad usage) or 1 (a failure it could not
 * avoid) with one line naming the bad value, and never a stack trace without --verbose.
 */

const STACK = /\n\s+at .+:\d+:\d+/;

describe('bad CLI input: one line naming the value, the right exit code, no stack trace', () => {
  let dir: string;
  let db: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-badinput-'));
    db = join(dir, 'pg.sqlite');
    await seededStoreFile(db);
    writeFileSync(join(dir, 'empty.png'), Buffer.alloc(0));
    writeFileSync(join(dir, 'random.png'), randomBytes(64 * 1024));
    writeFileSync(join(dir, 'huge.png'), randomBytes(20 * 1024 * 1024));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const cases: Array<[string, () => string[], 1 | 2, RegExp]> = [
    ['a sport that is not one', () => ['snapshot', 'nfl'], 2, /'nfl'/],
    ['settle of a sport that is not one', () => ['settle', 'nfl'], 2, /'nfl'/],
    ['--limit abc', () => ['ledger', '--limit', 'abc'], 2, /--limit: .*'abc'/],
    ['--days abc', () => ['record', '--days', 'abc'], 2, /--days: .*'abc'/],
    ['--port abc', () => ['serve', '--port', 'abc'], 2, /--port: .*'abc'/],
    ['--now yesterday', () => ['slate', 'nba', '--now', 'yesterday'], 2, /--now/],
    ['a line that is not a number', () => ['scan', '--player', 'Jalen Brunson', '--stat', 'points', '--line', 'abc', '--direction', 'over'], 2, /'abc'/],
    ['a malformed parlay leg', () => ['parlay', '--leg', 'Jalen Brunson points 27.5'], 2, /leg 1/],
    ['a price that is not one', () => ['devig', '-50', '+100'], 2, /-50/],
    ['an email that is not one', () => ['users', 'add', '--email', 'not-an-email', '--tier', 'free'], 2, /not-an-email|email/],
    ['a missing props file', () => ['backtest', '--props', join(dir, 'nope.csv'), '--gamelogs', join(dir, 'nope.csv')], 2, /nope\.csv/],
    ['a missing game-log file', () => ['import', 'gamelogs', join(dir, 'nope.csv')], 2, /nope\.csv/],
    ['a missing slip image', () => ['parse-slip', join(dir, 'nope.png')], 2, /nope\.png/],
    ['an empty image', () => ['parse-slip', join(dir, 'empty.png')], 2, /empty\.png|empty|image/],
    ['random bytes as an image', () => ['parse-slip', join(dir, 'random.png')], 2, /image/],
    ['a 20 MB random file as an image', () => ['parse-slip', join(dir, 'huge.png')], 2, /4 MB/],
    ['a replay folder that does not exist', () => ['snapshot', 'nba', '--replay', join(dir, 'no-such-replay')], 2, /no-such-replay/],
  ];

  it.each(cases)('%s', async (_what, argv, code, names) => {
    const r = await runCli(['--db', db, ...argv()]);
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).not.toMatch(STACK);
    expect(r.stderr.startsWith('propgrade: '), r.stderr).toBe(true);
    expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
    expect(r.stderr).toMatch(names);
  }, 60_000);

  it('an unwritable --db is named, with no stack trace (a file where its folder should be)', async () => {
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, 'not a folder');
    for (const argv of [['db', 'migrate'], ['slate', 'nba'], ['snapshot', 'nba', '--replay', 'data/replay']]) {
      const r = await runCli(['--db', join(blocked, 'pg.sqlite'), ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).not.toMatch(STACK);
      // Progress lines may come first (a replay run says which clock it uses); the failure is one line.
      // A read command makes no store, so it finds none there; the commands that make one say why they cannot.
      const reason = argv[0] === 'slate' ? `no store at ${join(blocked, 'pg.sqlite')}: check --db / PROPGRADE_DB, or make one with \`propgrade snapshot\`, \`propgrade import\` or \`propgrade db migrate\`` : `cannot open the store at ${join(blocked, 'pg.sqlite')} (EEXIST)`;
      expect(r.stderr.trim().split('\n').at(-1)).toBe(`propgrade: ${reason}`);
    }
    // --verbose adds the stack.
    const verbose = await runCli(['--verbose', '--db', join(blocked, 'pg.sqlite'), 'db', 'migrate']);
    expect(verbose.stderr).toMatch(STACK);
  });
});
