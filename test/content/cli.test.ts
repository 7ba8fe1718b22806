import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loopStore, type LoopStore } from './_loop.js';

describe('newsletter, desk and drafts commands on the replay loop', () => {
  let loop: LoopStore;
  let out: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    loop = await loopStore('settled');
    out = mkdtempSync(join(tmpdir(), 'pg-content-cli-'));
    env = { PROPGRADE_DB: loop.path };
  }, 120_000);
  afterAll(() => {
    loop?.cleanup();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('desk prints the pack (read as of the newest replayed snapshot) and --out writes the page and the JSON', async () => {
    const run = await runCli(['desk', '--out', join(out, 'desk')], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Desk pack for 2025-11-05: 6 of 7 templates ready');
    expect(run.stdout).toContain('== STREAK WATCH ==\nomitted: ');
    expect(run.stdout).toMatch(/\[1\] \d+\/280\nMORNING WIRE for Wed Nov 5/);
    expect(run.stderr).toContain('clock (desk): 2025-11-05T17:05:00.000Z');
    expect(readFileSync(join(out, 'desk', 'desk.html'), 'utf8')).toContain('data-template="line_dispatch"');
    const pack = JSON.parse(readFileSync(join(out, 'desk', 'pack.json'), 'utf8')) as { templates: unknown[] };
    expect(pack.templates).toHaveLength(7);
  });

  it('desk --json is the pack in the wire style', async () => {
    const run = await runCli(['desk', '--json', '--date', '2025-11-05'], env);
    const pack = JSON.parse(run.stdout) as { ready: number; generated_at: string; templates: Array<{ status: string }> };
    expect(pack.ready).toBe(6);
    expect(pack.generated_at).toBe('2025-11-05T17:05:00.000Z');
  });

  it('newsletter build writes report.html and report.txt and says where', async () => {
    const dir = join(out, 'report');
    const run = await runCli(['newsletter', 'build', '--out', dir], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`wrote ${join(dir, 'report.html')}`);
    expect(run.stdout).toContain(`wrote ${join(dir, 'report.txt')}`);
    expect(readFileSync(join(dir, 'report.txt'), 'utf8')).toContain('Unsubscribe: {{ UnsubscribeURL }}');
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('1-800-GAMBLER');
  });

  it('an empty report is refused with exit 1 and writes nothing', async () => {
    const dir = join(out, 'empty');
    const run = await runCli(['newsletter', 'build', '--date', '2025-12-25', '--out', dir], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('propgrade: refused: the daily report for 2025-12-25 would be empty');
    expect(existsSync(dir)).toBe(false);
  });

  it('send and drafts without their platform configured: say so, call nothing, exit 0', async () => {
    const send = await runCli(['newsletter', 'send'], env);
    expect(send.code).toBe(0);
    expect(send.stdout).toContain('Nothing sent: listmonk is not configured (LISTMONK_URL, LISTMONK_USER, LISTMONK_TOKEN, LISTMONK_LIST_ID unset)');
    const drafts = await runCli(['drafts', '--json'], env);
    expect(drafts.code).toBe(0);
    expect(JSON.parse(drafts.stdout)).toMatchObject({ status: 'not_configured', missing: ['GHOST_URL', 'GHOST_ADMIN_KEY'] });
  });

  it('a bad --date is bad usage (exit 2) naming the flag', async () => {
    const run = await runCli(['desk', '--date', '2025-13-01'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--date');
  });
});
