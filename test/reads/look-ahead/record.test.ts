import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type SqliteStore } from '../../../src/store/db.js';
import { readLedgerListing } from '../../../src/reads/ledger-listing.js';
import { readAccuracy, readModelRecord } from '../../../src/reads/record.js';
import { loadConfig } from '../../../src/config.js';
import { runCli } from '../../helpers/cli.js';
import { replayLoopFiles } from '../../helpers/replay-store.js';
import { startServer } from '../../server/_harness.js';
import { wireOf } from './_stores.js';

/**
 * Issue 41 item 5 for the reads of outcomes: the record (`propgrade record`, GET /api/ledger/model
 * and /api/accuracy) and the ledger listing (`propgrade ledger`, the model route's entries) asked
 * as of 2025-11-05 17:05 (an explicit --now) on the README loop's store settled the next morning
 * (2025-11-06 12:00). An outcome known only after the as-of time reads pending then (docs/ledger.md
 * "As of a time"): the answer equals the answer on the store as it stood before the settle, and the
 * settled counts are exactly the raw rows settled at or before the clock, read with SQL.
 */

const AS_OF = new Date('2025-11-05T17:05:00Z');
const NEXT_MORNING = new Date('2025-11-06T12:00:00Z');

let dir: string;
let settledFile: string;
let before: SqliteStore;
let settled: SqliteStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propgrade-look-ahead-record-'));
  const files = await replayLoopFiles(dir);
  before = openStore(files.presettle);
  settled = openStore(files.settled);
  settledFile = files.settled;
}, 180_000);

afterAll(async () => {
  await before?.close();
  await settled?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Raw public rows of the NBA day by outcome, settled at or before `at` (null: whatever the time), read with SQL. */
function rawOutcomes(s: SqliteStore, at: Date | null): Record<string, number> {
  const rows = s.sqlite
    .prepare(
      `select case when outcome = 'pending' or (? is not null and settled_at > ?) then 'pending' else outcome end as o, count(*) as n
       from ledger_entries where user_id is null and sport = 'nba' and game_date = '2025-11-05' and locked_at <= ? group by o`,
    )
    .all(at?.toISOString() ?? null, at?.toISOString() ?? null, (at ?? NEXT_MORNING).toISOString()) as Array<{ o: string; n: number }>;
  return Object.fromEntries(rows.map((r) => [r.o, r.n]));
}

const record = (s: SqliteStore, asOf: Date | null) => readModelRecord(s, { now: AS_OF, sport: 'nba' }, () => AS_OF, asOf);
const listing = (s: SqliteStore, asOf: Date | null) => readLedgerListing(s, { sport: 'nba', date: '2025-11-05' }, 500, () => AS_OF, asOf);

describe('no read of outcomes counts a settle after its own as-of time (issue 41 item 5)', () => {
  it('the settled store really holds outcomes settled after the clock', () => {
    const raw = rawOutcomes(settled, null);
    expect((raw.hit ?? 0) + (raw.miss ?? 0)).toBeGreaterThan(300);
    expect(rawOutcomes(settled, AS_OF)).toEqual({ pending: Object.values(raw).reduce((a, b) => a + b, 0) });
  });

  it('record as of 17:05: every entry pending, the same answer as the store before the settle', async () => {
    const r = await record(settled, AS_OF);
    const raw = rawOutcomes(settled, AS_OF);
    expect(r.aggregate.counts).toMatchObject({ entries: raw.pending, hits: 0, misses: 0, pushes: 0, voids: 0, pending: raw.pending });
    expect(wireOf(r)).toEqual(wireOf(await record(before, AS_OF)));
  }, 60_000);

  it('accuracy as of 17:05 equals the accuracy before the settle', async () => {
    const at = (s: SqliteStore) => readAccuracy(s, AS_OF, 30, 'nba', () => AS_OF, AS_OF);
    expect(wireOf(await at(settled))).toEqual(wireOf(await at(before)));
  }, 60_000);

  it('ledger listing as of 17:05: the same entries, outcomes, CLV and statuses as before the settle', async () => {
    const after = await listing(settled, AS_OF);
    expect(after.entries.length).toBeGreaterThan(400);
    expect(after.entries.every((e) => e.outcome === 'pending' && e.settledAt === null && e.clvVerdict === null)).toBe(true);
    expect(wireOf(after)).toEqual(wireOf(await listing(before, AS_OF)));
    const pending = await readLedgerListing(settled, { sport: 'nba', date: '2025-11-05', pending: true }, 500, () => AS_OF, AS_OF);
    expect(pending.total).toBe(after.total);
  }, 60_000);

  it('the check sees the settle once the clock has passed it: at the next morning the record counts the raw outcomes', async () => {
    const raw = rawOutcomes(settled, NEXT_MORNING);
    const r = await readModelRecord(settled, { now: NEXT_MORNING, sport: 'nba', date: '2025-11-05' }, () => NEXT_MORNING, NEXT_MORNING);
    expect(r.aggregate.counts).toMatchObject({ hits: raw.hit, misses: raw.miss, pending: raw.pending ?? 0 });
    const l = await readLedgerListing(settled, { sport: 'nba', date: '2025-11-05' }, 500, () => NEXT_MORNING, NEXT_MORNING);
    expect(l.entries.filter((e) => e.outcome === 'hit').length).toBe(raw.hit);
  }, 60_000);

  it('the CLI (--now) and the API (an explicit clock) read the same as-of answer as the read model', async () => {
    const counts = (await record(settled, AS_OF)).aggregate.counts;
    const cli = async (argv: string[]) => JSON.parse((await runCli(['--db', settledFile, ...argv, '--now', AS_OF.toISOString(), '--json'], { NO_COLOR: '1' })).stdout);
    expect((await cli(['record', '--sport', 'nba'])).aggregate.counts).toMatchObject({ hits: counts.hits, misses: counts.misses, pending: counts.pending });
    const ledger = await cli(['ledger', '--date', '2025-11-05', '--sport', 'nba', '--limit', '500']);
    expect(ledger.entries.every((e: { outcome: string }) => e.outcome === 'pending')).toBe(true);
    const api = await startServer({ store: settled, config: loadConfig({}), now: () => AS_OF, runNow: () => AS_OF });
    try {
      const model = (await (await fetch(`${api.base}/api/ledger/model?sport=nba&limit=500`)).json()) as { aggregate: { counts: Record<string, number> }; entries: Array<{ outcome: string }> };
      expect(model.aggregate.counts).toMatchObject({ hits: 0, misses: 0, pending: counts.pending });
      expect(model.entries.every((e) => e.outcome === 'pending')).toBe(true);
    } finally {
      await api.close();
    }
  }, 60_000);
});
