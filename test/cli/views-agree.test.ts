import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boutStatusAt } from '../../src/domain/combat-card.js';
import { runCli } from '../helpers/cli.js';
import { seededStoreFile } from '../helpers/replay-store.js';

/**
 * Issue 41 item 8: views over the bundled replay agree with the data clock. The UFC card of
 * 2025-09-27 was recorded before fight night (ESPN says 'scheduled'); read on the replay's
 * default clock (2025-11-05) the bout is past, so it is not shown as scheduled.
 */

let dir: string;
let db: string;
const env = () => ({ PROPGRADE_DB: db, NO_COLOR: '1' });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propgrade-views-agree-'));
  db = join(dir, 'pg.sqlite');
  await seededStoreFile(db);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a past bout is not scheduled', () => {
  it('the rule: scheduled only before the start; after it, with no recorded result, unknown', () => {
    const start = '2025-09-28T02:00:00Z';
    expect(boutStatusAt('scheduled', start, new Date('2025-09-27T12:00:00Z'))).toBe('scheduled');
    expect(boutStatusAt('scheduled', start, new Date('2025-11-05T17:05:00Z'))).toBe('unknown');
    expect(boutStatusAt('final', start, new Date('2025-11-05T17:05:00Z'))).toBe('final');
    expect(boutStatusAt('scheduled', null, new Date('2025-11-05T17:05:00Z'))).toBe('scheduled');
  });

  it('fight 401801745 on the replay clock (2025-11-05) says the result is not in the data; on 2025-09-26 it is scheduled', async () => {
    const after = await runCli(['fight', '401801745', '--replay', 'data/replay'], env());
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout.split('\n')[0]).toBe('Carlos Ulberg vs Dominick Reyes — Light Heavyweight, 5 rounds, result not in the data (recorded before the bout)');
    const json = JSON.parse((await runCli(['--json', 'combat', '2025-09-27', '--replay', 'data/replay'], env())).stdout);
    const statuses = new Set(json.cards.flatMap((c: { bouts: Array<{ status: string }> }) => c.bouts.map((b) => b.status)));
    expect([...statuses]).toEqual(['unknown']);
    const before = await runCli(['fight', '401801745', '--replay', 'data/replay', '--now', '2025-09-26T12:00:00Z'], env());
    expect(before.stdout.split('\n')[0]).toBe('Carlos Ulberg vs Dominick Reyes — Light Heavyweight, 5 rounds, scheduled');
  });
});
