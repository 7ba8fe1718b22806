import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { EDGE_PLAUSIBLE_MAX_PCT, edgePct, pickShowcase, SAME_TEAM_CORRELATION, shownEdge } from '../../src/domain/showcase.js';
import { ContextCache } from '../../src/store/cache.js';
import type { ContextDeps } from '../../src/feeds/context.js';
import { readShowcase } from '../../src/reads/showcase.js';
import { silentLogger } from '../../src/feeds/sources.js';
import type { Store } from '../../src/store/db.js';
import { latestSnapshot, snapshotRows, type GradedRowRecord } from '../../src/store/repo/snapshots.js';
import { toWire } from '../../src/wire.js';
import { seededStore, snapshotAt, tempStore } from '../helpers/replay-store.js';

/**
 * The desk showcase (spec: Other shapes) on the bundled replay's real 2025-11-05 17:05 board: its
 * alternate ladders (rows with is_main_line false for one player, stat, game and side).
 */

const NOW = new Date('2025-11-05T17:05:00Z');
let store: Store;
let cleanup: () => void;
let rows: GradedRowRecord[];

const deps = (s: Store = store): ContextDeps => ({
  store: s,
  config: loadConfig({}),
  cache: new ContextCache(s),
  providers: { source: 'replay', keyless: { kind: 'replay', fetch: async () => ({ ok: false, status: null, reason: 'no provider call expected' }) }, odds: null, close: async () => {} },
  now: NOW,
  log: silentLogger,
});

beforeAll(async () => {
  const seeded = await seededStore();
  store = seeded.store;
  cleanup = seeded.cleanup;
  await snapshotAt(store, 'nba', '2025-11-05T17:05:00Z');
  rows = await snapshotRows(store, (await latestSnapshot(store, 'nba'))!.id);
}, 120_000);
afterAll(() => cleanup());

describe('desk showcase on the real board', () => {
  it('picks the A/B prop whose rungs vary most: Pascal Siakam PRA under, A at the main line, 4 letters on 6 rungs', async () => {
    const v = await readShowcase(deps());
    if (!v.available) throw new Error(v.reason);
    expect(v).toMatchObject({ sport: 'nba', player: 'Pascal Siakam', team: 'IND', stat: 'pra', side: 'under', prop: { line: 39.5, grade: 'A', mainLine: true }, slateDate: '2025-11-05', latest: false });
    expect(v.variation).toEqual({ distinctGrades: 4, spread: 3, grades: [{ grade: 'A', rungs: 1 }, { grade: 'B', rungs: 1 }, { grade: 'C', rungs: 3 }, { grade: 'F', rungs: 1 }] });
    expect(v.rungs.map((r) => [r.line, r.mainLine, r.bookOdds, r.grade])).toEqual([
      [37.5, false, 112, 'F'],
      [38.5, false, 120, 'B'],
      [39.5, true, 105, 'A'],
      [40.5, false, -114, 'C'],
      [41.5, false, -130, 'C'],
      [42.5, false, -150, 'C'],
    ]);
    // Every rung is a stored row of the board, price for price.
    for (const r of v.rungs) {
      const row = rows.find((x) => x.player === 'Pascal Siakam' && x.statType === 'pra' && x.side === 'under' && x.line === r.line)!;
      expect([row.bookOdds, row.fairOdds, row.fairProb, row.grade, row.isMainLine]).toEqual([r.bookOdds, r.fairOdds, r.fairProb, r.grade, r.mainLine]);
      expect(r.edgePct).toBeCloseTo(edgePct(row.bookOdds, row.fairProb)!, 10);
    }
    expect(v.rungs.find((r) => r.line === 39.5)!.edgePct).toBeCloseTo(2.8, 1);
  });

  it('no other board ladder shows more variation (the pick is the maximum over every real ladder)', () => {
    const ladders = new Map<string, GradedRowRecord[]>();
    for (const r of rows) {
      if (r.bookOdds === null) continue;
      const k = `${r.eventId}|${r.playerKey}|${r.statType}|${r.side}`;
      ladders.set(k, [...(ladders.get(k) ?? []), r]);
    }
    const real = [...ladders.values()].filter((l) => l.length > 1 && l.some((r) => r.isMainLine === false) && l.some((r) => r.grade === 'A' || r.grade === 'B'));
    expect(real.length).toBeGreaterThan(50);
    const most = Math.max(...real.map((l) => new Set(l.map((r) => r.grade).filter((g) => g !== null)).size));
    expect(most).toBe(4);
  });

  it('a same-team correlation tile (0.34) with two real graded legs of the team in that game; no Kelly tile anywhere', async () => {
    const v = await readShowcase(deps());
    if (!v.available) throw new Error(v.reason);
    expect(v.correlation).toMatchObject({ coefficient: SAME_TEAM_CORRELATION, relationship: 'same_team' });
    const [a, b] = v.correlation!.legs;
    expect(a).toMatchObject({ player: 'Pascal Siakam', team: 'IND', line: 39.5, grade: 'A' });
    expect(b.team).toBe('IND');
    expect(b.player).not.toBe('Pascal Siakam');
    const second = rows.find((r) => r.player === b.player && r.statType === b.stat && r.line === b.line && r.side === b.side)!;
    expect(second).toMatchObject({ eventId: v.eventId, team: 'IND', isMainLine: true });
    expect(['A', 'B']).toContain(second.grade);
    expect(JSON.stringify(toWire(v))).not.toMatch(/kelly/i);
  });

  it('without a second same-team A/B leg the tile is absent, with the reason', () => {
    const ladder = rows.filter((r) => r.playerKey === 'pascal siakam' && r.statType === 'pra' && r.side === 'under');
    const s = pickShowcase(ladder)!;
    expect(s.correlation).toBeNull();
    expect(s.correlationNote).toMatch(/no second A or B main-line prop of IND/);
  });

  it('an edge outside ±10% is a dash (null with the reason), on a real rung: Terance Mann PRA over 18.5 at +117 vs fair +152', () => {
    const rung = rows.find((r) => r.player === 'Terance Mann' && r.statType === 'pra' && r.side === 'over' && r.line === 18.5)!;
    expect([rung.bookOdds, Math.round(rung.fairOdds!)]).toEqual([117, 152]);
    const raw = edgePct(rung.bookOdds, rung.fairProb)!;
    expect(raw).toBeLessThan(-EDGE_PLAUSIBLE_MAX_PCT);
    const shown = shownEdge(rung);
    expect(shown.edgePct).toBeNull();
    expect(shown.edgeNote).toMatch(/-13\.\d% is outside ±10%/);
    // His ladder shown on its own: that rung keeps its price, fair price and grade; only the edge is a dash.
    const ladder = pickShowcase(rows.filter((r) => r.playerKey === 'terance mann' && r.statType === 'pra' && r.side === 'over'))!;
    expect(ladder.rungs.find((r) => r.line === 18.5)).toMatchObject({ bookOdds: 117, fairOdds: rung.fairOdds, grade: 'F', edgePct: null });
    expect((toWire(ladder.rungs.find((r) => r.line === 18.5)) as Record<string, unknown>)['edge_pct']).toBeNull();
  });

  it('an outlier price shows no edge either', () => {
    expect(shownEdge({ bookOdds: 105, fairProb: 0.5, outlierPrice: true })).toMatchObject({ edgePct: null, edgeNote: expect.stringMatching(/outlier/) });
    expect(shownEdge({ bookOdds: 105, fairProb: null, outlierPrice: false })).toMatchObject({ edgePct: null, edgeNote: 'no fair price for this line' });
  });
});

describe('no real ladder: the whole showcase hides', () => {
  it('main lines only (no alternate rung) give no showcase', () => {
    expect(pickShowcase(rows.filter((r) => r.isMainLine === true))).toBeNull();
  });

  it('ladders without an A or B rung give no showcase', () => {
    expect(pickShowcase(rows.filter((r) => r.grade !== 'A' && r.grade !== 'B'))).toBeNull();
  });

  it('an empty store: {available: false} with the reason', async () => {
    const s = tempStore();
    try {
      expect(await readShowcase(deps(s.store))).toEqual({ available: false, reason: 'no graded board stored: run a snapshot first' });
    } finally {
      s.cleanup();
    }
  });
});

describe('a showcased grade travels with the price it was made on (issue 25)', () => {
  it('after the 15:05 and 17:05 snapshots, each rung\'s claim is its grade lock\'s price, book, fair and time, apart from the price now', async () => {
    const seeded = await seededStore();
    try {
      await snapshotAt(seeded.store, 'nba', '2025-11-05T15:05:00Z');
      await snapshotAt(seeded.store, 'nba', '2025-11-05T17:05:00Z');
      const noon = await snapshotRows(seeded.store, (await latestSnapshot(seeded.store, 'nba'))!.id);
      // Toumani Camara threes under: both rungs were graded at 15:05, and both prices have moved since.
      const ladder = pickShowcase(noon.filter((r) => r.player === 'Toumani Camara' && r.statType === 'threes' && r.side === 'under'))!;
      expect(ladder.rungs.length).toBe(2);
      let moved = 0;
      for (const r of ladder.rungs) {
        const lock = seeded.store.sqlite
          .prepare(`select l.locked_book, l.locked_odds, l.locked_fair_prob, l.graded_at, g.book, g.book_odds from grade_locks l join graded_rows g on g.snapshot_id = l.snapshot_id and g.event_id = l.event_id and g.player_key = l.player_key and g.stat_type = l.stat_type and g.line = l.line and g.side = l.side where l.player_key = 'toumani camara' and l.stat_type = 'threes' and l.side = 'under' and l.line = ?`)
          .get(r.line) as { locked_book: string; locked_odds: number; locked_fair_prob: number; graded_at: string; book: string; book_odds: number };
        // The lock's price is the one the 15:05 board showed for that rung.
        expect([lock.book, lock.book_odds, lock.graded_at]).toEqual([lock.locked_book, lock.locked_odds, '2025-11-05T15:05:00.000Z']);
        const p = lock.locked_fair_prob;
        expect(r.claim).toEqual({ book: lock.locked_book, odds: lock.locked_odds, fairOdds: p >= 0.5 ? (-100 * p) / (1 - p) : (100 * (1 - p)) / p, gradedAt: lock.graded_at });
        const now = noon.find((x) => x.player === 'Toumani Camara' && x.statType === 'threes' && x.side === 'under' && x.line === r.line)!;
        expect([r.book, r.bookOdds]).toEqual([now.book, now.bookOdds]);
        // The edge shown is the price now at the fair now, never the grade's price.
        if (r.edgePct !== null) expect(r.edgePct).toBeCloseTo(edgePct(now.bookOdds, now.fairProb)!, 10);
        if (r.claim?.odds !== r.bookOdds) moved++;
      }
      expect(moved).toBe(2);
      expect(ladder.prop.claim).toEqual(ladder.rungs.find((r) => r.line === ladder.prop.line)?.claim);
    } finally {
      seeded.cleanup();
    }
  }, 120_000);
});
