/**
 * readLedgerListing, the one composition `propgrade ledger` and GET /api/ledger/model print, on real
 * recorded data in an SQLite file in a temp dir: the bundled replay's NBA 2025-11-04 slate (one
 * snapshot, left pending), its 2025-11-05 slate (two snapshots, settled) and MLB 2025-08-16 (two
 * snapshots, pending). Every figure is checked against the raw rows: which entries in which order,
 * the total past the limit, each filter, the close lead band, and the CLV status (the stored verdict
 * once settled; "so far" before the start; why there is no close, from the raw snapshots and graded
 * rows), each entry on its own sport's clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSettle } from '../../src/jobs/settle.js';
import { readLedgerListing, type LedgerListingQuery } from '../../src/reads/ledger-listing.js';
import type { SqliteStore } from '../../src/store/db.js';
import { collectingLogger, resultsAt, seededStore, snapshotAt } from '../helpers/replay-store.js';

interface Raw {
  id: number;
  userId: number | null;
  sport: string;
  eventId: string;
  gameDate: string;
  commenceTime: string;
  player: string;
  playerKey: string;
  team: string | null;
  outcome: string;
  book: string | null;
  lockedAt: string;
  closingCapturedAt: string | null;
  clv: number | null;
  clvPct: number | null;
  clvLine: number | null;
  clvVerdict: string | null;
}

// The store's listing order: newest game date first, then player (bytes), then id.
const RAW_SQL = `select id, user_id as userId, sport, event_id as eventId, game_date as gameDate, commence_time as commenceTime, player, player_key as playerKey, team, outcome, book,
  locked_at as lockedAt, closing_captured_at as closingCapturedAt, clv, clv_pct as clvPct, clv_line as clvLine, clv_verdict as clvVerdict
  from ledger_entries order by game_date desc, player, id`;

/** After every recorded game of both sports. */
const AFTER = () => new Date('2025-11-06T12:00:00Z');
/** Each sport on its own day: NBA after its games, MLB on the morning of its slate (before any start). */
const MLB_MORNING = new Date('2025-08-16T10:00:00Z');
const perSport = (asked: Set<string>) => (sport: string) => (asked.add(sport), sport === 'mlb' ? MLB_MORNING : AFTER());

describe('readLedgerListing on recorded NBA and MLB slates, against the raw rows', () => {
  let t: Awaited<ReturnType<typeof seededStore>>;
  let store: SqliteStore;
  let raw: Raw[];
  let pub: Raw[];
  let userId: number;
  beforeAll(async () => {
    t = await seededStore();
    store = t.store;
    for (const [sport, at] of [['nba', '2025-11-04T17:05:00Z'], ['nba', '2025-11-05T15:05:00Z'], ['nba', '2025-11-05T17:05:00Z'], ['mlb', '2025-08-16T18:25:00Z'], ['mlb', '2025-08-16T22:20:00Z']] as const) {
      await snapshotAt(store, sport, at);
    }
    const sources = await resultsAt('2025-11-06T12:00:00Z');
    await runSettle('nba', { store, results: sources.results, now: AFTER(), date: '2025-11-05', log: collectingLogger() });
    await sources.close();
    // One user who scanned two real props: their entries are theirs, never the public record's.
    const s = store.sqlite;
    userId = Number(s.prepare(`insert into users (email, tier, created_at) values ('desk@example.invalid', 'desk', '2025-11-01T00:00:00Z')`).run().lastInsertRowid);
    const cols = (s.prepare('pragma table_info(ledger_entries)').all() as Array<{ name: string }>).map((c) => c.name).filter((c) => c !== 'id' && c !== 'user_id');
    const copy = s.prepare(`insert into ledger_entries (user_id, ${cols.join(', ')}) select ?, ${cols.join(', ')} from ledger_entries where id = ?`);
    for (const { id } of s.prepare('select id from ledger_entries where user_id is null order by id limit 2').all() as Array<{ id: number }>) copy.run(userId, id);
    raw = s.prepare(RAW_SQL).all() as Raw[];
    pub = raw.filter((r) => r.userId === null);
  }, 300_000);
  afterAll(() => t.cleanup());

  const ids = (rows: ReadonlyArray<{ id: number }>) => rows.map((r) => r.id);

  it('the recording gives what the cases below need', () => {
    const kinds = new Set(pub.map((r) => `${r.sport} ${r.gameDate} ${r.outcome === 'pending' ? 'pending' : 'settled'}`));
    expect([...kinds].sort()).toEqual(['mlb 2025-08-16 pending', 'nba 2025-11-04 pending', 'nba 2025-11-05 settled']);
    expect(pub.length).toBeGreaterThan(500);
  });

  it('the public record: every entry in the store order, the total, shown and limit', async () => {
    const all = await readLedgerListing(store, {}, 100_000, AFTER);
    expect(ids(all.entries)).toEqual(ids(pub));
    expect(all).toMatchObject({ total: pub.length, shown: pub.length, limit: 100_000 });
    // A full page counts every match past it, a page exactly as long as the match too; a short one is the match.
    const cut = await readLedgerListing(store, {}, 25, AFTER);
    expect(ids(cut.entries)).toEqual(ids(pub.slice(0, 25)));
    expect(cut).toMatchObject({ total: pub.length, shown: 25, limit: 25 });
    const exact = await readLedgerListing(store, {}, pub.length, AFTER);
    expect([exact.total, exact.shown]).toEqual([pub.length, pub.length]);
  });

  it('a user names their own entries; without one, theirs are never listed', async () => {
    const own = await readLedgerListing(store, { userId }, 100, AFTER);
    const rawOwn = raw.filter((r) => r.userId === userId);
    expect(rawOwn).toHaveLength(2);
    expect(ids(own.entries)).toEqual(ids(rawOwn));
    expect(own.total).toBe(2);
    expect((await readLedgerListing(store, {}, 100_000, AFTER)).entries.every((e) => e.userId === null)).toBe(true);
  });

  it('each filter matches the raw rows: date, window, team (any case), player by key, sport, pending', async () => {
    const byPlayer = new Map<string, Raw[]>();
    for (const r of pub) byPlayer.set(r.playerKey, [...(byPlayer.get(r.playerKey) ?? []), r]);
    const [key, rows] = [...byPlayer].sort((a, b) => b[1].length - a[1].length)[0]!;
    const cases: Array<[string, LedgerListingQuery, (r: Raw) => boolean]> = [
      ['date', { date: '2025-11-04' }, (r) => r.gameDate === '2025-11-04'],
      ['window', { from: '2025-11-01', to: '2025-11-04' }, (r) => r.gameDate >= '2025-11-01' && r.gameDate <= '2025-11-04'],
      ['team', { team: ' ny ', sport: 'nba' }, (r) => r.team === 'NY' && r.sport === 'nba'],
      ['player', { player: `  ${rows[0]!.player.toUpperCase()} ` }, (r) => r.playerKey === key],
      ['sport', { sport: 'mlb' }, (r) => r.sport === 'mlb'],
      ['pending', { pending: true }, (r) => r.outcome === 'pending'],
      ['pending nba', { pending: true, sport: 'nba' }, (r) => r.outcome === 'pending' && r.sport === 'nba'],
    ];
    for (const [what, query, keep] of cases) {
      const want = pub.filter(keep);
      // Each case narrows: some entries match and some do not.
      expect(want.length, what).toBeGreaterThan(0);
      expect(want.length, what).toBeLessThan(pub.length);
      const got = await readLedgerListing(store, query, 100_000, AFTER);
      expect(ids(got.entries), what).toEqual(ids(want));
      expect(got.total, what).toBe(want.length);
    }
    expect(await readLedgerListing(store, { date: '2025-10-01' }, 10, AFTER)).toEqual({ entries: [], total: 0, shown: 0, limit: 10 });
  });

  it('the close lead band from the raw capture and start times; a settled entry carries its stored CLV as final', async () => {
    const { entries } = await readLedgerListing(store, {}, 100_000, AFTER);
    const byId = new Map(pub.map((r) => [r.id, r]));
    let closed = 0;
    let verdicts = 0;
    for (const e of entries) {
      const r = byId.get(e.id)!;
      if (r.closingCapturedAt === null) expect(e.closeLeadBand).toBeNull();
      else {
        closed++;
        const lead = (Date.parse(r.commenceTime) - Date.parse(r.closingCapturedAt)) / 60_000;
        expect(e.closeLeadBand).toBe(lead <= 30 ? 'within_30m' : lead <= 180 ? '30m_to_3h' : 'over_3h');
      }
      if (r.outcome !== 'pending' && r.clvVerdict !== null) {
        verdicts++;
        expect(e.clvStatus).toEqual({ clv: r.clv, clvPct: r.clvPct, clvLine: r.clvLine, verdict: r.clvVerdict, final: true, noCloseReason: null, note: null });
      }
    }
    expect(closed).toBeGreaterThan(0);
    expect(verdicts).toBeGreaterThan(0);
  });

  it('each entry on its own sport clock: MLB before its games reads "so far" or "not captured yet", NBA after its games says why there is no close', async () => {
    const asked = new Set<string>();
    const { entries } = await readLedgerListing(store, {}, 100_000, perSport(asked));
    expect([...asked].sort()).toEqual(['mlb', 'nba']);
    const byId = new Map(pub.map((r) => [r.id, r]));
    const snaps = store.sqlite.prepare('select id, sport, taken_at as takenAt from snapshots').all() as Array<{ id: number; sport: string; takenAt: string }>;
    const carries = store.sqlite.prepare('select 1 from graded_rows where snapshot_id = ? and event_id = ? limit 1');
    const seen = new Set<string>();
    for (const e of entries) {
      const r = byId.get(e.id)!;
      if (r.sport === 'mlb') {
        expect(e.clvStatus.final, `mlb ${e.id}`).toBe(false);
        if (r.closingCapturedAt === null) expect(e.clvStatus.noCloseReason).toBe('not_captured_yet');
        else expect(e.clvStatus.verdict).not.toBeNull();
        seen.add(r.closingCapturedAt === null ? 'mlb not captured' : 'mlb so far');
        continue;
      }
      expect(e.clvStatus.final, `nba ${e.id}`).toBe(true);
      if (r.closingCapturedAt !== null || r.clvVerdict !== null) continue;
      const later = snaps.filter((s) => s.sport === r.sport && Date.parse(s.takenAt) > Date.parse(r.lockedAt) && Date.parse(s.takenAt) < Date.parse(r.commenceTime));
      const reason =
        r.book === null ? 'no_book' : later.length === 0 ? 'no_snapshot_after_lock' : later.some((s) => carries.get(s.id, r.eventId) !== undefined) ? 'market_stopped_pricing' : 'game_not_in_later_snapshots';
      expect(e.clvStatus, `entry ${e.id}`).toMatchObject({ verdict: null, noCloseReason: reason });
      seen.add(`nba ${r.outcome === 'pending' ? 'pending' : 'settled'} ${reason}`);
    }
    // Both sports' cases, and no-close reasons on NBA's pending slate and its settled one.
    expect([...seen].sort()).toEqual(['mlb not captured', 'mlb so far', 'nba pending no_snapshot_after_lock', 'nba settled no_snapshot_after_lock']);
    // Read after MLB's games too, its entries are final.
    const later = await readLedgerListing(store, { sport: 'mlb' }, 100_000, AFTER);
    expect(later.entries.every((e) => e.clvStatus.final)).toBe(true);
  });
});
