import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/_io.js';
import { buildProgram, handleError } from '../../src/cli/main.js';
import { registerServe } from '../../src/cli/serve.js';
import { registerUsers } from '../../src/cli/users.js';
import { resolveBearer } from '../../src/accounts/users.js';
import { openStore } from '../../src/store/db.js';

let dir: string;
let db: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pg-cli-users-'));
  db = join(dir, 'pg.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The real program in-process, with users/serve registered if the registry lacks them. */
async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), isTTY: false, env: {} };
  const program = await buildProgram(io);
  if (!program.commands.some((c) => c.name() === 'users')) registerUsers(program, io);
  if (!program.commands.some((c) => c.name() === 'serve')) registerServe(program, io);
  for (const cmd of program.commands) cmd.exitOverride().configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });
  let code: number;
  try {
    await program.parseAsync(['--db', db, '--now', '2025-11-05T17:05:00Z', ...argv], { from: 'user' });
    code = io.exitCode ?? 0;
  } catch (error) {
    code = handleError(error, io, false);
  }
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('propgrade users', () => {
  it('add prints the token once (--json gives it as token); it resolves to the tier', async () => {
    const r = await run('--json', 'users', 'add', '--email', 'ana@example.com', '--tier', 'analyst');
    expect(r.code, r.stderr).toBe(0);
    const data = JSON.parse(r.stdout) as { token: string; email: string; tier: string };
    expect(data).toMatchObject({ email: 'ana@example.com', tier: 'analyst' });
    const store = openStore(db);
    expect(await resolveBearer(store, `Bearer ${data.token}`)).toMatchObject({ tier: 'analyst', authenticated: true });
    await store.close();
    const human = await run('users', 'add', '--email', 'bo@example.com');
    expect(human.stdout).toMatch(/Token \(shown once; store it now\): pg_[A-Za-z0-9_-]{43}\n/);
    const list = await run('users', 'list');
    expect(list.stdout).toContain('ana@example.com');
    expect(list.stdout).not.toContain(data.token);
  });

  it('set-tier and revoke change what the token resolves to', async () => {
    const { token } = JSON.parse((await run('--json', 'users', 'add', '--email', 'ana@example.com', '--tier', 'free')).stdout) as { token: string };
    expect((await run('--json', 'users', 'set-tier', 'ana@example.com', 'desk')).stdout).toContain('"previous_tier": "free"');
    let store = openStore(db);
    expect((await resolveBearer(store, `Bearer ${token}`)).tier).toBe('desk');
    await store.close();
    const revoke = await run('users', 'revoke', 'ana@example.com');
    expect(revoke.stdout).toBe('Revoked 1 token of ana@example.com.\n');
    store = openStore(db);
    expect(await resolveBearer(store, `Bearer ${token}`)).toMatchObject({ tier: 'free', authenticated: false });
    await store.close();
    const list = JSON.parse((await run('--json', 'users', 'list')).stdout) as Array<{ active_tokens: number; revoked_tokens: number; tier: string }>;
    expect(list).toEqual([expect.objectContaining({ tier: 'desk', active_tokens: 0, revoked_tokens: 1 })]);
  });

  it('bad input exits 2 and names the problem; unknown users exit 1', async () => {
    const badTier = await run('users', 'add', '--email', 'ana@example.com', '--tier', 'gold');
    expect(badTier.code).toBe(2);
    expect(badTier.stderr).toContain('--tier');
    const badEmail = await run('users', 'add', '--email', 'nope', '--tier', 'free');
    expect(badEmail.code).toBe(2);
    expect(badEmail.stderr).toContain('expected an email address');
    const missing = await run('users', 'revoke', 'nobody@example.com');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no user with email nobody@example.com');
    const twice = await run('users', 'add', '--email', 'x@example.com');
    expect(twice.code).toBe(0);
    expect((await run('users', 'add', '--email', 'x@example.com')).stderr).toContain('already exists');
  });
});

describe('propgrade serve', () => {
  it('documents the cron and rejects a bad port before opening anything', async () => {
    const help = await run('serve', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('SNAPSHOT_CRON=1');
    const bad = await run('serve', '--port', '99999');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--port');
  });
});
