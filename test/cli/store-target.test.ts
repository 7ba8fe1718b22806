/**
 * A mistyped store is not a new store (issue 41 item 6): a read command on a store that does not
 * exist exits 2 naming it and creates nothing; only the commands that fill a store (snapshot,
 * import, backfill, db migrate, users add) make one.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'propgrade-store-target-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the store a command names', () => {
  it.each([
    ['slate', ['slate', 'nba']],
    ['record', ['record']],
    ['ledger', ['ledger']],
    ['users list', ['users', 'list']],
    ['news', ['news', 'mlb', '--replay', 'data/replay']],
  ])('%s on a store that does not exist exits 2 naming it and creates nothing', async (_name, args) => {
    const target = join(dir, 'some', 'typo', 'x.sqlite');
    const run = await runCli(['--db', target, ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`no store at ${target}`);
    expect(existsSync(join(dir, 'some'))).toBe(false);
  });

  it('a PostgreSQL URL with its "://" mistyped is refused before it can become folders', async () => {
    for (const target of ['postgres//broken/propgrade', 'postgresql:/db.internal/propgrade']) {
      const run = await runCli(['--db', target, 'slate', 'nba']);
      expect(run.code, target).toBe(2);
      expect(run.stderr).toContain('looks like a PostgreSQL URL');
    }
    expect(existsSync(resolve('postgres'))).toBe(false);
    expect(existsSync(resolve('postgresql:'))).toBe(false);
  });

  it('a file that is not a store is named (exit 2), not reported as a driver error', async () => {
    const run = await runCli(['--db', 'README.md', 'slate', 'nba']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${resolve('README.md')} is not a propgrade store`);
  });

  it('users add makes the store it names', async () => {
    const target = join(dir, 'new', 'accounts.sqlite');
    const run = await runCli(['--db', target, 'users', 'add', '--email', 'new@example.com']);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(target)).toBe(true);
    const list = await runCli(['--db', target, '--json', 'users', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('new@example.com');
  });
});
