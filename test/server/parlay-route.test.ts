import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestSnapshot, snapshotRows } from '../../src/store/repo/snapshots.js';
import { seedStore, startServer, type Running, type Seeded } from './_harness.js';

/**
 * POST /api/parlay/grade refuses legs that make no parlay with a 400 naming them (issue 41): the
 * same prop twice, both sides of one prop, two lines of one player's stat, or no leg on a line the
 * board prices. A real h3 server on loopback over the bundled 2025-11-05 NBA snapshot.
 */
let seeded: Seeded;
let api: Running;
let sga: { line: number; otherLine: number };

beforeAll(async () => {
  seeded = await seedStore();
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now });
  const rows = await snapshotRows(seeded.store, (await latestSnapshot(seeded.store, 'nba'))!.id);
  // Both sides of this line are on the board, and another line of the same stat.
  const mine = rows.filter((r) => r.player === 'Shai Gilgeous-Alexander' && r.statType === 'points' && r.fairOdds !== null);
  const line = mine.find((r) => r.side === 'over' && mine.some((u) => u.side === 'under' && u.line === r.line))!.line;
  sga = { line, otherLine: mine.find((r) => r.line !== line)!.line };
}, 120_000);
afterAll(async () => {
  await api?.close();
  seeded?.cleanup();
});

const post = async (legs: unknown[]) => {
  const reply = await fetch(`${api.base}/api/parlay/grade`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ legs }) });
  return { status: reply.status, json: (await reply.json()) as { error?: { code: string; message: string; details?: unknown } } & Record<string, unknown> };
};
const leg = (player: string, stat: string, line: number, side: string) => ({ player, stat, line, side });

describe('POST /api/parlay/grade: legs that make no parlay', () => {
  it('grades two legs of one player on different stats (a real parlay) with 200', async () => {
    const r = await post([leg('Shai Gilgeous-Alexander', 'points', sga.line, 'over'), leg('Chet Holmgren', 'rebounds', 8.5, 'over')]);
    expect(r.status).toBe(200);
    expect((r.json['legs'] as unknown[]).length).toBe(2);
  });

  it('both sides of one prop: 400 naming both legs, with the pair in details', async () => {
    const r = await post([leg('Shai Gilgeous-Alexander', 'points', sga.line, 'over'), leg('Shai Gilgeous-Alexander', 'points', sga.line, 'under')]);
    expect(r.status).toBe(400);
    expect(r.json.error).toEqual({
      code: 'BAD_INPUT',
      message: `not a parlay: legs 1 (Shai Gilgeous-Alexander points over ${sga.line}) and 2 (Shai Gilgeous-Alexander points under ${sga.line}) are both sides of one prop (they cannot both win)`,
      details: { conflicts: [{ a: 1, b: 2, kind: 'both_sides' }], unresolved: [] },
    });
  });

  it('the same prop twice and two lines of one stat: 400', async () => {
    const twice = await post([leg('Shai Gilgeous-Alexander', 'points', sga.line, 'over'), leg('Shai Gilgeous-Alexander', 'points', sga.line, 'over')]);
    expect(twice.status).toBe(400);
    expect(twice.json.error?.message).toMatch(/legs 1 .* and 2 .* are the same prop twice$/);
    const lines = await post([leg('Shai Gilgeous-Alexander', 'points', sga.line, 'over'), leg('Shai Gilgeous-Alexander', 'points', sga.otherLine, 'over')]);
    expect(lines.status).toBe(400);
    expect((lines.json.error?.details as { conflicts: unknown[] }).conflicts).toEqual([{ a: 1, b: 2, kind: 'same_market' }]);
  });

  it('no leg on a line the board prices: 400 with each leg and its reason', async () => {
    const r = await post([leg('Nobody Anyone', 'points', 10.5, 'over'), leg('Chet Holmgren', 'rebounds', 19.5, 'over')]);
    expect(r.status).toBe(400);
    expect(r.json.error?.message).toMatch(/^not a parlay: no leg resolves to a line the board prices: leg 1 \(Nobody Anyone points over 10\.5\): no player 'Nobody Anyone' in the store; leg 2 \(Chet Holmgren rebounds over 19\.5\): /);
    const details = r.json.error?.details as { unresolved: Array<{ leg: number; reason: string }> };
    expect(details.unresolved.map((u) => u.leg)).toEqual([1, 2]);
  });

  it('one leg: 400 from the body schema', async () => {
    const r = await post([leg('Shai Gilgeous-Alexander', 'points', sga.line, 'over')]);
    expect(r.status).toBe(400);
    expect(r.json.error?.message).toContain('2 to 6 legs');
  });
});
