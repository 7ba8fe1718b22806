/**
 * A replayed snapshot stamps each close with the time its game's odds were recorded (issue 43
 * follow-up), as the close run does: the bundled NBA odds were recorded at 17:00 UTC and the README
 * loop's second snapshot runs at 17:05, so its closes are 17:00 closes (7 to 10 h before tip, not
 * 5 minutes fewer). Checked through the CLI (`snapshot --replay`) against the replay manifest and the
 * recorded bodies read here, never through the code under test; on both engines. Also: a lock made
 * by a snapshot is never its own close, and a later run reading the same recording again is no close
 * for it either; the bundled WNBA day's games were recorded at different times, and each game's
 * closing prices carry its own. The close run judges whether a snapshot already closed a game by the
 * same stamp: a snapshot 13 min before tip that read the game's morning odds is no close inside 15.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';
import { copyOn, ENGINES, type EngineName, type EngineStore } from '../helpers/engines.js';
import { REPLAY_DIR, seededStoreFile } from '../helpers/replay-store.js';

interface ManifestEntry {
  key: string;
  file: string;
  recordedAt?: string;
}
const MANIFEST = JSON.parse(readFileSync(join(REPLAY_DIR, 'manifest.json'), 'utf8')) as { entries: ManifestEntry[] };

/** The recording of an event's odds a replay at `at` answers with (the newest at or before it), and its body's commence_time. */
function recordingAt(eventId: string, at: string): { recordedAt: string; commence: string } {
  const candidates = MANIFEST.entries.filter((e) => e.key.startsWith('odds-api GET ') && e.key.includes(`/events/${eventId}/odds`) && e.recordedAt !== undefined && Date.parse(e.recordedAt) <= Date.parse(at));
  const newest = candidates.reduce<ManifestEntry | null>((best, e) => (best === null || Date.parse(e.recordedAt as string) > Date.parse(best.recordedAt as string) ? e : best), null);
  if (newest === null) throw new Error(`no recording of ${eventId} by ${at}`);
  const body = JSON.parse(readFileSync(join(REPLAY_DIR, newest.file), 'utf8')) as { id: string; commence_time: string };
  expect(body.id).toBe(eventId);
  return { recordedAt: new Date(newest.recordedAt as string).toISOString(), commence: body.commence_time };
}

const minutes = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 60_000;

interface EntryRow {
  id: number;
  sport: string;
  event_id: string;
  locked_at: string;
  closing_captured_at: string | null;
  close_lead_minutes: number | null;
  closing_fair_prob: number | null;
}
interface PriceRow {
  sport: string;
  event_id: string;
  captured_at: string;
  close_lead_minutes: number | null;
}

/** Rows read raw from the engine: SQLite's file, PostgreSQL's tables. */
async function raw<T>(engine: EngineName, target: string, sql: string): Promise<T[]> {
  if (engine === 'sqlite') {
    const store = openStore(target, { migrate: false, readonly: true });
    try {
      return store.sqlite.prepare(sql).all() as T[];
    } finally {
      await store.close();
    }
  }
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

const ENTRIES = `select id, sport, event_id, locked_at, closing_captured_at, close_lead_minutes, closing_fair_prob from ledger_entries where user_id is null order by id`;
const PRICES = `select sport, event_id, captured_at, close_lead_minutes from closing_prices order by id`;

describe.each(ENGINES)('a replayed close is stamped when its odds were recorded (%s)', (engine) => {
  let dir: string;
  let s: EngineStore;
  const snapshot = async (...args: string[]) => {
    const r = await runCli(['--db', s.target, 'snapshot', ...args, '--replay', REPLAY_DIR, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
  };
  let afterLoop: EntryRow[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-close-stamp-'));
    const seeded = join(dir, 'seeded.sqlite');
    await seededStoreFile(seeded);
    s = await copyOn(engine, seeded);
    // The README loop's NBA snapshots.
    await snapshot('nba', '--now', '2025-11-05T15:05:00Z');
    await snapshot('nba', '--now', '2025-11-05T17:05:00Z');
    afterLoop = await raw<EntryRow>(engine, s.target, ENTRIES);
  }, 300_000);
  afterAll(async () => {
    await s?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it("each NBA close's captured_at is the manifest's recordedAt of its game's odds, and its lead is commence - recordedAt", () => {
    const closed = afterLoop.filter((e) => e.closing_captured_at !== null);
    expect(closed.length).toBe(85);
    for (const e of closed) {
      const rec = recordingAt(e.event_id, '2025-11-05T17:05:00Z');
      expect(e.closing_captured_at, e.event_id).toBe(rec.recordedAt);
      expect(e.close_lead_minutes).toBe(minutes(rec.recordedAt, rec.commence));
      // The close is newer than the lock (15:05, graded on the 15:00 recording).
      expect(e.locked_at).toBe('2025-11-05T15:05:00.000Z');
    }
    // This day's odds were all recorded on the hour: every close is 17:00, 5 minutes before the run.
    expect(new Set(closed.map((e) => e.closing_captured_at))).toEqual(new Set(['2025-11-05T17:00:00.000Z']));
    const leads = closed.map((e) => e.close_lead_minutes as number);
    expect([Math.min(...leads), Math.max(...leads)]).toEqual([420, 610]);
  });

  it('the 17:05 snapshot is no close of its own locks, though its odds were recorded before them', () => {
    const own = afterLoop.filter((e) => e.locked_at === '2025-11-05T17:05:00.000Z');
    expect(own.length).toBeGreaterThan(300);
    for (const e of own) expect(e.closing_captured_at).toBeNull();
  });

  it("each closing price carries its own game's recording time and lead", async () => {
    const rows = await raw<PriceRow>(engine, s.target, PRICES);
    expect(rows.length).toBe(4812);
    for (const r of rows) {
      const at15 = recordingAt(r.event_id, '2025-11-05T15:05:00Z').recordedAt;
      const rec = recordingAt(r.event_id, '2025-11-05T17:05:00Z');
      expect([at15, rec.recordedAt]).toContain(r.captured_at);
      expect(r.close_lead_minutes).toBe(minutes(r.captured_at, rec.commence));
    }
  });

  it('a later run reading the same 17:00 recording is no close for the 17:05 locks and leaves the 17:00 closes as they were', async () => {
    await snapshot('nba', '--now', '2025-11-05T17:10:00Z');
    const after = await raw<EntryRow>(engine, s.target, ENTRIES);
    expect(after).toEqual(afterLoop);
  });

  it('the bundled WNBA day: games recorded at different times, each closing price stamped with its own', async () => {
    await snapshot('wnba');
    const rows = (await raw<PriceRow>(engine, s.target, PRICES)).filter((r) => r.sport === 'wnba');
    expect(rows.length).toBe(208);
    for (const r of rows) {
      const rec = recordingAt(r.event_id, '2024-06-02T11:00:00Z');
      expect(r.captured_at).toBe(rec.recordedAt);
      expect(r.close_lead_minutes).toBe(minutes(rec.recordedAt, rec.commence));
    }
    expect([...new Set(rows.map((r) => r.captured_at))].sort()).toEqual(['2024-06-02T06:55:37.000Z', '2024-06-02T09:55:37.000Z', '2024-06-02T10:55:37.000Z']);
  });
});

describe.each(ENGINES)('the close run reads a replayed snapshot’s close at its stamp, not at the snapshot’s clock (%s)', (engine) => {
  let dir: string;
  let s: EngineStore;
  const GAME_AT = '2024-06-02T19:00:00Z';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-close-stamp-run-'));
    const seeded = join(dir, 'seeded.sqlite');
    await seededStoreFile(seeded);
    s = await copyOn(engine, seeded);
  }, 300_000);
  afterAll(async () => {
    await s?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a WNBA snapshot at 18:47, 13 min before a 19:00 tip, read that game’s morning odds: the 18:52 close run takes its close from the 18:50:37 recording', async () => {
    const snap = await runCli(['--db', s.target, 'snapshot', 'wnba', '--replay', REPLAY_DIR, '--now', '2024-06-02T18:47:00Z', '--quiet']);
    expect(snap.code, snap.stderr).toBe(0);
    const games = await raw<{ event_id: string; commence_time: string }>(engine, s.target, `select distinct event_id, commence_time from graded_rows where sport = 'wnba' and commence_time = '${GAME_AT}'`);
    expect(games).toHaveLength(1);
    const id = games[0]!.event_id;
    // The snapshot's close of that game is its morning recording, hours before tip: not a close inside 15 min.
    const stamped = recordingAt(id, '2024-06-02T18:47:00Z').recordedAt;
    expect(minutes(stamped, GAME_AT)).toBeGreaterThan(15);
    const run = await runCli(['--db', s.target, '--replay', REPLAY_DIR, '--now', '2024-06-02T18:52:00Z', '--json', 'close', 'wnba']);
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout).runs[0];
    expect(summary).toMatchObject({ in_window: 1, already_closed: 0, fetched: 1 });
    const rec = recordingAt(id, '2024-06-02T18:52:00Z');
    expect(rec.recordedAt).toBe('2024-06-02T18:50:37.000Z');
    expect(summary.events).toEqual([expect.objectContaining({ event_id: id, status: 'captured', captured_at: rec.recordedAt })]);
    expect(summary.events[0].lead_minutes).toBeCloseTo(minutes(rec.recordedAt, rec.commence), 5);
    // The game's pending entries (locked at 18:47 on the morning odds) now close on the 18:50:37 recording.
    const closed = (await raw<EntryRow>(engine, s.target, ENTRIES)).filter((e) => e.event_id === id && e.closing_captured_at !== null);
    expect(closed).toHaveLength(summary.events[0].closings);
    expect(closed.length).toBeGreaterThan(0);
    for (const e of closed) expect([e.closing_captured_at, e.close_lead_minutes]).toEqual([rec.recordedAt, minutes(rec.recordedAt, rec.commence)]);
  });
});
