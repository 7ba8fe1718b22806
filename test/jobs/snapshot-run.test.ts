import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { normalizeName } from '../../src/domain/names.js';
import { parseEventPropQuotes } from '../../src/feeds/odds-api/parse.js';
import { runSnapshot } from '../../src/jobs/snapshot-run.js';
import type { OddsSource } from '../../src/feeds/sources.js';
import { listLedger } from '../../src/store/repo/ledger.js';
import { acquireRunLock } from '../../src/store/repo/run-lock.js';
import { lastRun } from '../../src/store/repo/runs.js';
import { latestSnapshot, recentSnapshots, snapshotRows } from '../../src/store/repo/snapshots.js';
import { activeTickerEvents } from '../../src/store/repo/ticker.js';
import { collectingLogger, seededStore, snapshotAt } from '../helpers/replay-store.js';

const EVENING = '2025-11-05T17:05:00Z';

const imp = (a: number) => (a < 0 ? -a / (-a + 100) : 100 / (a + 100));
const mult = (o: number, u: number) => imp(o) / (imp(o) + imp(u));
const dec = (a: number) => (a > 0 ? 1 + a / 100 : 1 + 100 / -a);

/** Every book's pair per (event, player key, stat, line) in the recorded event-odds payloads of one snapshot time. */
function recordedBooks(stamp: string): Map<string, { book: string; over: number | null; under: number | null }[]> {
  const out = new Map<string, { book: string; over: number | null; under: number | null }[]>();
  const log = { warn: () => undefined, info: () => undefined };
  for (const f of readdirSync('data/replay/odds-api').filter((n) => n.startsWith('nba-event-odds-') && n.endsWith(`${stamp}.json`))) {
    for (const q of parseEventPropQuotes(JSON.parse(readFileSync(`data/replay/odds-api/${f}`, 'utf8')), { log })) {
      if (q.line === null) continue;
      const k = `${q.eventId}|${normalizeName(q.player).key}|${q.stat}|${q.line}`;
      const list = out.get(k) ?? [];
      let pair = list.find((x) => x.book === q.book);
      if (!pair) list.push((pair = { book: q.book, over: null, under: null }));
      if (q.side === 'over') pair.over = q.price;
      else pair.under = q.price;
      out.set(k, list);
    }
  }
  return out;
}
const MORNING = '2025-11-05T15:05:00Z';

describe('snapshot run on the bundled real replay', () => {
  let t: Awaited<ReturnType<typeof seededStore>>;
  afterEach(() => t?.cleanup());

  it('grades the 2025-11-05 slate with prices that trace to the recorded pair', async () => {
    t = await seededStore();
    const summary = await snapshotAt(t.store, 'nba', EVENING);
    expect(summary.status).toBe('ok');
    expect(summary.events).toBe(11);
    expect(summary.graded).toBeGreaterThan(1000);
    const snap = (await latestSnapshot(t.store, 'nba'))!;
    const rows = await snapshotRows(t.store, snap.id);
    expect(rows.length).toBe(summary.rows);

    // A recorded quote (data/replay, DraftKings, 17:00): Jalen Brunson points 27.5, -118 / -108.
    const brunson = rows.filter((r) => r.player === 'Jalen Brunson' && r.statType === 'points' && r.line === 27.5);
    expect(brunson).toHaveLength(2);
    // Every priced row traces to the recorded quotes: the graded book's own pair, and a fair
    // probability recomputed here from the other books at the same line (consensus rows).
    const books = recordedBooks('2025-11-05T17-00-00Z');
    for (const r of rows) {
      if (r.fairProb === null) {
        // One-legged market: the whole price triplet hides.
        expect(r.bookOdds).toBeNull();
        expect(r.fairOdds).toBeNull();
        expect(r.fairSource).toBeNull();
        continue;
      }
      const quotes = books.get(`${r.eventId}|${r.playerKey}|${r.statType}|${r.line}`) ?? [];
      const own = quotes.find((q) => q.book === r.book);
      expect(own).toEqual({ book: r.book, over: r.overOdds, under: r.underOdds });
      expect(r.bookOdds).toBe(r.side === 'over' ? r.overOdds : r.underOdds);
      expect(r.devigMethod).toBe('multiplicative');
      if (r.fairSource === 'consensus' && !r.thinConsensus) {
        const others = quotes.filter((q) => q.book !== r.book && q.over !== null && q.under !== null);
        expect(others.length).toBe(r.consensusBooks);
        const pOver = others.reduce((sum, q) => sum + mult(q.over as number, q.under as number), 0) / others.length;
        expect(r.fairProb).toBeCloseTo(r.side === 'over' ? pOver : 1 - pOver, 12);
      }
    }
    // Issue 12's promise on this slate: every A/A+ rests on a full consensus of other books, beats
    // it (positive EV at the graded price, recomputed by hand), and never on an outlier price.
    const top = rows.filter((r) => r.grade === 'A+' || r.grade === 'A');
    expect(top.length).toBeGreaterThan(10);
    const evs = top.map((r) => {
      expect(r).toMatchObject({ fairSource: 'consensus', thinConsensus: false });
      expect(r.consensusBooks).toBeGreaterThanOrEqual(3);
      expect(r.outlierPrice === true && r.outlierBook === r.book).toBe(false);
      const quotes = books.get(`${r.eventId}|${r.playerKey}|${r.statType}|${r.line}`) ?? [];
      const others = quotes.filter((q) => q.book !== r.book && q.over !== null && q.under !== null);
      const pOver = others.reduce((sum, q) => sum + mult(q.over as number, q.under as number), 0) / others.length;
      return (r.side === 'over' ? pOver : 1 - pOver) * dec(r.bookOdds as number) - 1;
    });
    expect(evs.reduce((a, b) => a + b, 0) / evs.length).toBeGreaterThan(0);
    expect(evs.filter((e) => e < 0).length).toBeLessThanOrEqual(Math.floor(evs.length / 10));
    // Every graded row names where its fair price came from.
    for (const r of rows.filter((x) => x.grade !== null)) expect(['consensus', 'market_implied', 'book']).toContain(r.fairSource);
    // Refusals carry no model fields and say why.
    for (const r of rows.filter((x) => x.grade === null)) {
      expect(r.insufficientData).toBe(true);
      expect(r.pWin).toBeNull();
      expect(r.modelOdds).toBeNull();
      expect(r.refusalReason).toBeTruthy();
    }
    // Join invariant: a known team is always one of the game's teams.
    for (const r of rows.filter((x) => x.team !== null)) {
      expect(r.opponent).not.toBeNull();
      expect(r.opponent).not.toBe(r.team);
    }
  });

  it('is idempotent: a second run adds no ledger rows and keeps every locked grade', async () => {
    t = await seededStore();
    const first = await snapshotAt(t.store, 'nba', EVENING);
    const firstRows = await snapshotRows(t.store, first.snapshotId!);
    const ledgerBefore = await listLedger(t.store, { publicOnly: true }, 100_000);
    const second = await snapshotAt(t.store, 'nba', '2025-11-05T17:35:00Z');
    expect(second.status).toBe('ok');
    expect(second.ledgerInserted).toBe(0);
    expect(second.newLocks).toBe(0);
    expect(await listLedger(t.store, { publicOnly: true }, 100_000)).toHaveLength(ledgerBefore.length);
    const secondRows = await snapshotRows(t.store, second.snapshotId!);
    const key = (r: (typeof firstRows)[number]) => `${r.eventId}|${r.playerKey}|${r.statType}|${r.line}|${r.side}`;
    const before = new Map(firstRows.map((r) => [key(r), r]));
    // Locked grades are identical; refusals are not locked (history may arrive) and are re-read.
    for (const r of secondRows.filter((x) => x.grade !== null)) {
      const b = before.get(key(r));
      expect(b).toBeDefined();
      expect(r.grade).toBe(b!.grade);
      expect(r.gradedAt).toBe(b!.gradedAt);
      expect(r.pWin).toBe(b!.pWin);
    }
  });

  it('a later run on the next recorded snapshot produces line deltas, MOVE events and closing prices', async () => {
    t = await seededStore();
    const morning = await snapshotAt(t.store, 'nba', MORNING);
    expect(morning.status).toBe('ok');
    const evening = await snapshotAt(t.store, 'nba', EVENING);
    expect(evening.moves).toBeGreaterThan(0);
    const rows = await snapshotRows(t.store, evening.snapshotId!);
    const moved = rows.filter((r) => r.lineDelta !== null && r.lineDelta !== 0);
    expect(moved.length).toBeGreaterThan(0);
    for (const r of moved) expect(r.line - (r.previousLine as number)).toBeCloseTo(r.lineDelta as number, 9);
    const moves = (await activeTickerEvents(t.store, new Date(EVENING))).filter((e) => e.kind === 'MOVE');
    expect(moves).toHaveLength(evening.moves);
    // Entries locked in the morning got a real later close; entries locked at 17:05 have none yet.
    const entries = await listLedger(t.store, { publicOnly: true }, 100_000);
    const morningEntries = entries.filter((e) => e.lockedAt === new Date(MORNING).toISOString());
    expect(morningEntries.length).toBeGreaterThan(0);
    // A close is the market at the locked line on the lock's yardstick; the locked book's own
    // price is kept beside it while that book still quotes the line.
    const closed = morningEntries.filter((e) => e.closingCapturedAt !== null);
    expect(closed.length).toBeGreaterThan(morningEntries.length / 2);
    for (const e of closed) {
      // Stamped when the odds the 17:05 run read were recorded (17:00), not with the run's clock.
      expect(e.closingCapturedAt).toBe('2025-11-05T17:00:00.000Z');
      expect(e.closeMethod).toBe('one_yardstick');
      if (e.closingLine === e.line) {
        expect(e.closingFairProb).not.toBeNull();
        expect(e.closingFairSource).not.toBeNull();
        expect(e.closingBook === null || e.closingBook === e.book).toBe(true);
        expect(e.closingBook === null).toBe(e.closingPrice === null);
      } else {
        expect(e.closingBook).toBe(e.book);
      }
    }
    for (const e of morningEntries.filter((x) => x.closingCapturedAt === null)) expect(e.closingPrice).toBeNull();
    for (const e of entries.filter((x) => x.lockedAt === new Date(EVENING).toISOString())) expect(e.closingCapturedAt).toBeNull();
  });

  it('a run whose clock is earlier than a stored snapshot measures no movement against the later one', async () => {
    t = await seededStore();
    await snapshotAt(t.store, 'nba', EVENING);
    const earlier = await snapshotAt(t.store, 'nba', MORNING);
    expect(earlier.status).toBe('ok');
    expect(earlier.moves).toBe(0);
    expect((await snapshotRows(t.store, earlier.snapshotId!)).every((r) => r.lineDelta === null)).toBe(true);
    // Reads still show the newest snapshot by time.
    expect((await latestSnapshot(t.store, 'nba'))!.takenAt).toBe(new Date(EVENING).toISOString());
  });

  it('keeps the last good snapshot when the odds feed fails, and records the failure', async () => {
    t = await seededStore();
    const good = await snapshotAt(t.store, 'nba', EVENING);
    const failing: OddsSource = { events: async () => null, propQuotes: async () => null, credits: () => null };
    const log = collectingLogger();
    const failed = await runSnapshot('nba', { store: t.store, odds: failing, now: new Date('2025-11-05T18:00:00Z'), allowedBooks: null, log });
    expect(failed.status).toBe('failed');
    expect((await latestSnapshot(t.store, 'nba'))!.id).toBe(good.snapshotId);
    expect((await lastRun(t.store, 'snapshot', 'nba'))!.status).toBe('failed');
    expect(log.warnings.join('\n')).toMatch(/keeping the last snapshot/);
  });

  it('an empty slate (no events that day) never replaces a good snapshot', async () => {
    t = await seededStore();
    await snapshotAt(t.store, 'nba', EVENING);
    const noGames: OddsSource = { events: async () => [], propQuotes: async () => [], credits: () => null };
    const empty = await runSnapshot('nba', { store: t.store, odds: noGames, now: new Date('2025-11-05T18:00:00Z'), allowedBooks: null, log: collectingLogger() });
    expect(empty.status).toBe('empty');
    expect(await recentSnapshots(t.store, 'nba', 5)).toHaveLength(1);
  });

  it('one run per sport at a time: a held lock makes the second run report it', async () => {
    t = await seededStore();
    const held = await acquireRunLock(t.store, 'snapshot:nba', 'other-process', () => new Date());
    expect('release' in held).toBe(true);
    const summary = await snapshotAt(t.store, 'nba', EVENING);
    expect(summary.status).toBe('locked');
    expect(summary.message).toMatch(/holds the lock/);
    expect(await latestSnapshot(t.store, 'nba')).toBeNull();
  });
});

describe('allowed books', () => {
  let t: Awaited<ReturnType<typeof seededStore>>;
  beforeAll(() => {});
  afterEach(() => t?.cleanup());

  it('prices only from the allowed books', async () => {
    t = await seededStore();
    const { buildOddsSource } = await import('../../src/feeds/factory.js');
    const { loadConfig } = await import('../../src/config.js');
    const { ensureReplaySeed } = await import('../../src/jobs/import-history.js');
    const now = new Date(EVENING);
    const log = collectingLogger();
    const sources = await buildOddsSource(loadConfig({}), { replayDir: 'data/replay', recordDir: null, now, log });
    await ensureReplaySeed(t.store, 'data/replay', sources.seed, now, log);
    const summary = await runSnapshot('nba', { store: t.store, odds: sources.odds, now, allowedBooks: ['draftkings', 'fanduel'], log });
    const books = new Set((await snapshotRows(t.store, summary.snapshotId!)).map((r) => r.book).filter(Boolean));
    expect([...books].sort()).toEqual(['draftkings', 'fanduel']);
  });
});
