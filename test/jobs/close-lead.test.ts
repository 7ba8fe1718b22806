/**
 * Issue 33, problem 5 on the bundled day: every ledger close carries how long before the start it
 * was taken, checked against the raw recording (the odds event's own commence_time in
 * data/replay/odds-api and the time its 17:00 recording was made, which the 17:05 snapshot's closes
 * are stamped with: test/jobs/close-stamp.test.ts), not against the code's own fields; the
 * migration's backfill computes the same figure from the two stored times; and the record splits its
 * beat-close count by that lead band.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelRecord } from '../../src/reads/record.js';
import { runSettle } from '../../src/jobs/settle.js';
import { listLedger } from '../../src/store/repo/ledger.js';
import { collectingLogger, REPLAY_DIR, resultsAt, seededStore, snapshotAt } from '../helpers/replay-store.js';

const MORNING = '2025-11-05T15:05:00Z';
const EVENING = '2025-11-05T17:05:00Z';
/** When the odds the 17:05 snapshot reads were recorded (the raw files' names below). */
const RECORDED = '2025-11-05T17:00:00Z';
const NEXT_MORNING = '2025-11-06T12:00:00Z';

/** Each recorded NBA event's commence_time, straight from the raw Odds API payloads of 2025-11-05. */
function rawCommenceTimes(): Map<string, string> {
  const dir = join(REPLAY_DIR, 'odds-api');
  const out = new Map<string, string>();
  for (const f of readdirSync(dir).filter((n) => /^nba-event-odds-.*-2025-11-05T17-00-00Z\.json$/.test(n))) {
    const raw = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { id: string; commence_time: string };
    out.set(raw.id, raw.commence_time);
  }
  return out;
}

describe('a close says how close it was (bundled NBA day)', () => {
  let t: Awaited<ReturnType<typeof seededStore>>;
  beforeAll(async () => {
    t = await seededStore();
    await snapshotAt(t.store, 'nba', MORNING);
    await snapshotAt(t.store, 'nba', EVENING);
    const sources = await resultsAt(NEXT_MORNING);
    await runSettle('nba', { store: t.store, results: sources.results, now: new Date(NEXT_MORNING), log: collectingLogger() });
    await sources.close();
  }, 120_000);
  afterAll(() => t?.cleanup());

  it('every entry with a close carries minutes from its 17:00 UTC recording (read by the 17:05 snapshot) to its game’s recorded commence_time', async () => {
    const commence = rawCommenceTimes();
    const entries = await listLedger(t.store, { publicOnly: true }, 100_000);
    const closed = entries.filter((e) => e.closingCapturedAt !== null);
    expect(closed.length).toBeGreaterThan(50);
    for (const e of closed) {
      const start = commence.get(e.eventId);
      expect(start, e.eventId).toBeDefined();
      expect(e.closingCapturedAt).toBe(new Date(RECORDED).toISOString());
      expect(e.closeLeadMinutes).toBe((Date.parse(start as string) - Date.parse(RECORDED)) / 60_000);
    }
    // No close of this day is anywhere near the start: the earliest tip is hours after 17:00 UTC.
    expect(Math.min(...closed.map((e) => e.closeLeadMinutes as number))).toBeGreaterThan(180);
    for (const e of entries.filter((x) => x.closingCapturedAt === null)) expect(e.closeLeadMinutes).toBeNull();
  });

  it('closing_prices carry the same lead for each captured price', () => {
    const commence = rawCommenceTimes();
    const rows = t.store.sqlite.prepare('select event_id as eventId, captured_at as capturedAt, close_lead_minutes as lead from closing_prices').all() as Array<{ eventId: string; capturedAt: string; lead: number | null }>;
    expect(rows.length).toBeGreaterThan(100);
    for (const r of rows) expect(r.lead).toBe((Date.parse(commence.get(r.eventId) as string) - Date.parse(r.capturedAt)) / 60_000);
  });

  it('the migration’s backfill (0009) computes the same lead from the two stored times', () => {
    const before = t.store.sqlite.prepare('select id, close_lead_minutes as lead from ledger_entries order by id').all() as Array<{ id: number; lead: number | null }>;
    t.store.sqlite.exec('update ledger_entries set close_lead_minutes = null; update closing_prices set close_lead_minutes = null');
    const sql = readFileSync(join('migrations', '0009_close_lead_minutes.sql'), 'utf8');
    for (const stmt of sql.split('--> statement-breakpoint').map((s) => s.trim()).filter((s) => s.toUpperCase().includes('UPDATE'))) t.store.sqlite.exec(stmt);
    const after = t.store.sqlite.prepare('select id, close_lead_minutes as lead from ledger_entries order by id').all() as Array<{ id: number; lead: number | null }>;
    expect(after).toEqual(before);
  });

  it('the record counts each verdict in its close’s lead band: this day’s closes are all more than 3 h out', async () => {
    const record = await readModelRecord(t.store, { now: new Date(NEXT_MORNING), date: '2025-11-05' });
    const a = record.aggregate;
    expect(a.beatCloseByLead.map((b) => b.band)).toEqual(['within_30m', '30m_to_3h', 'over_3h']);
    const [within, near, far] = a.beatCloseByLead;
    expect(within).toMatchObject({ n: 0, pct: null });
    expect(near).toMatchObject({ n: 0, pct: null });
    expect(far).toMatchObject({ n: a.beatClose.n, beat: a.clv.beat, faded: a.clv.faded, flat: a.clv.flat });
    expect(far!.n).toBeGreaterThanOrEqual(20);
    expect(far!.pct).toBeCloseTo((100 * a.clv.beat) / a.beatClose.n, 10);
    for (const tier of record.tiers) expect(tier.beatCloseByLead.reduce((s, b) => s + b.n, 0)).toBe(tier.beatClose.n);
  });
});
