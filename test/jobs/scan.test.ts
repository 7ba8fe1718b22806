import fs from 'node:fs';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyPlayer } from '../../src/domain/archetypes/index.js';
import { devigTwoWay } from '../../src/domain/devig.js';
import { fairAmerican } from '../../src/domain/odds.js';
import { AppError } from '../../src/errors.js';
import { runScan, scanRequestSchema, type ScanRequest } from '../../src/jobs/scan.js';
import { evaluateProp } from '../../src/reads/evaluate-prop.js';
import { listLedger } from '../../src/store/repo/ledger.js';
import { latestSnapshot, snapshotRows, type GradedRowRecord } from '../../src/store/repo/snapshots.js';
import { ledgerEntries, users } from '../../src/store/schema.js';
import { boardRow, bundledStore, NOW, OKC_POR, REPLAY_DIR, type BundledStore } from '../reads/scan-parlay-store.js';

let b: BundledStore;
let board: GradedRowRecord[];

beforeAll(async () => {
  b = await bundledStore();
  board = await snapshotRows(b.store, (await latestSnapshot(b.store, 'nba'))!.id);
}, 120_000);
afterAll(() => b?.cleanup());

const req = (player: string, stat: string, line: number, direction: string): ScanRequest => scanRequestSchema.parse({ player, stat, line, direction });
const boardLine = (player: string, stat: string, line: number, side: string) => boardRow(board, player, stat, line, side);
function addUser(email: string): number {
  return b.store.db.insert(users).values({ email, tier: 'analyst', createdAt: NOW.toISOString() }).returning({ id: users.id }).get().id;
}

/** The 17:00Z recording of the OKC @ POR event odds in the bundled replay (the one served at 17:05Z). */
function payloadPrice(book: string, market: string, player: string, point: number, name: 'Over' | 'Under'): number {
  const file = path.join(REPLAY_DIR, 'odds-api', `nba-event-odds-${OKC_POR}-2025-11-05T17-00-00Z.json`);
  const body = JSON.parse(fs.readFileSync(file, 'utf8')) as { bookmakers: Array<{ key: string; markets: Array<{ key: string; outcomes: Array<{ name: string; description: string; price: number; point: number }> }> }> };
  const o = body.bookmakers
    .find((bk) => bk.key === book)
    ?.markets.find((m) => m.key === market)
    ?.outcomes.find((x) => x.description === player && x.point === point && x.name === name);
  expect(o, `${book} ${market} ${player} ${name} ${point} in the payload`).toBeDefined();
  return o!.price;
}

describe('bundled store', () => {
  it('holds a real snapshot of the two kept 2025-11-05 games', () => {
    expect(b.snapshot.status).toBe('ok');
    expect(b.snapshot.events).toBe(2);
    expect(board.length).toBe(b.snapshot.rows);
  });
});

describe('runScan on a line the board graded', () => {
  it('grades with the snapshot engine: same grade, projection and model numbers as the board row', async () => {
    const row = boardLine('Shai Gilgeous-Alexander', 'points', 31.5, 'over');
    const r = await runScan(b.store, req('Shai Gilgeous-Alexander', 'points', 31.5, 'over'), { now: NOW, userId: null, evaluate: evaluateProp });
    expect(r.status).toBe('graded');
    expect(r.grade).toBe(row.grade);
    expect(r.flags).toEqual([]);
    expect(r.projection).toBe(row.projection);
    expect(r.pWin).toBe(row.pWin);
    expect(r.modelOdds).toBe(row.modelOdds);
    expect(r.evPct).toBe(row.evPct);
    expect(r.player).toEqual({ name: 'Shai Gilgeous-Alexander', key: 'shai gilgeous alexander', team: 'OKC' });
    expect(r.game).toEqual({ eventId: OKC_POR, label: 'Oklahoma City Thunder @ Portland Trail Blazers', commenceTime: '2025-11-06T03:10:00Z', opponent: 'POR' });
    expect(r.gradedFor).toBe('2025-11-05');
    expect(r.metered).toBe(true);
  });

  it('recovers book and fair prices from the snapshot by exact join, matching the real payload', async () => {
    const r = await runScan(b.store, req('Shai Gilgeous-Alexander', 'points', 31.5, 'over'), { now: NOW, userId: null, evaluate: evaluateProp });
    const over = payloadPrice('draftkings', 'player_points', 'Shai Gilgeous-Alexander', 31.5, 'Over');
    const under = payloadPrice('draftkings', 'player_points', 'Shai Gilgeous-Alexander', 31.5, 'Under');
    expect([over, under]).toEqual([-112, -114]);
    const row = boardLine('Shai Gilgeous-Alexander', 'points', 31.5, 'over');
    expect(r.prices).not.toBeNull();
    expect(r.prices!.book).toBe('draftkings');
    expect(r.prices!.bookOdds).toBe(-112);
    // The fair side is the market's, exactly as the board stored it: consensus of the other books.
    expect(r.prices!.devigMethod).toBe('multiplicative');
    expect(r.prices!.fairSource).toBe(row.fairSource);
    expect(r.prices!.consensusBooks).toBe(row.consensusBooks);
    expect(r.prices!.fairProb).toBe(row.fairProb);
    expect(r.prices!.fairOdds).toBeCloseTo(fairAmerican(row.fairProb!)!, 9);
    const dv = devigTwoWay(over, under, 'multiplicative');
    if (!dv.ok) throw new Error('devig failed');
    // The graded book's own pair is only its own view; the fair comes from the other books.
    expect(r.prices!.fairProb).not.toBeCloseTo(dv.probs[0]!, 6);
  });

  it('computes intel from the real 2025-26 game logs, and leaves matchup_grade absent', async () => {
    const r = await runScan(b.store, req('SGA', 'pts', 31.5, 'over'), { now: NOW, userId: null, evaluate: evaluateProp });
    // "SGA" is not a name in the store: never guessed.
    expect(r.status).toBe('unknown_player');
    const s = await runScan(b.store, req('shai gilgeous alexander', 'pts', 31.5, 'over'), { now: NOW, userId: null, evaluate: evaluateProp });
    const season = b.logs
      .filter((g) => g.playerKey === 'shai gilgeous alexander' && g.date >= '2025-08-01' && (g.minutes ?? 0) > 0)
      .sort((x, y) => y.date.localeCompare(x.date));
    const pts = season.map((g) => g.stats.points as number);
    const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
    expect(season).toHaveLength(7);
    expect(s.intel.games).toBe(7);
    expect(s.intel.seasonAvg).toBeCloseTo(mean(pts), 2);
    expect(s.intel.seasonAvg).toBe(33.57);
    expect(s.intel.form).toBeCloseTo(mean(pts.slice(0, 5)), 2);
    expect(s.intel.form).toBe(29);
    expect(s.intel.minutesAvg).toBeCloseTo(mean(season.map((g) => g.minutes as number)), 2);
    expect(s.intel.usage).toBeCloseTo(mean(season.map((g) => (g.extras.fga as number) + 0.44 * (g.extras.fta as number))), 2);
    expect(s.intel.archetype).toBe(classifyPlayer('nba', b.logs.filter((g) => g.playerKey === 'shai gilgeous alexander'))?.primary);
    expect(s.intel.seasonFrom).toBe('2025-08-01');
    expect(s.intel).not.toHaveProperty('matchup_grade');
  });
});

describe('runScan off the board', () => {
  it('refuses a user-chosen line the board never priced, names the lines it did, and meters nothing', async () => {
    expect(board.some((r) => r.playerKey === 'shai gilgeous alexander' && r.statType === 'points' && r.line === 45.5)).toBe(false);
    const r = await runScan(b.store, req('Shai Gilgeous-Alexander', 'points', 45.5, 'over'), { now: NOW, userId: null, evaluate: evaluateProp });
    expect(r.status).toBe('refused');
    expect(r.grade).toBeNull();
    expect(r.prices).toBeNull();
    expect(r.evPct).toBeNull();
    expect(r.metered).toBe(false);
    const priced = [...new Set(board.filter((x) => x.playerKey === 'shai gilgeous alexander' && x.statType === 'points' && x.side === 'over' && x.bookOdds !== null).map((x) => x.line))].sort((x, y) => x - y);
    expect(r.refusalReason).toBe(
      `the latest nba snapshot has no market price for Shai Gilgeous-Alexander points over 45.5, and a grade is a claim about a price; lines it priced: ${priced.join(', ')}`,
    );
  });

  it('once the game has started there is no market to grade against, and it says so', async () => {
    const afterTip = new Date('2025-11-06T04:00:00Z'); // 23:00 ET on 2025-11-05, after the 03:10Z tip
    const r = await runScan(b.store, req('Shai Gilgeous-Alexander', 'points', 31.5, 'over'), { now: afterTip, userId: null, evaluate: evaluateProp });
    expect(r.game).toBeNull();
    expect(r.prices).toBeNull();
    expect(r.gradedFor).toBe('2025-11-05');
    expect(r.status).toBe('refused');
    expect(r.refusalReason).toBe('Shai Gilgeous-Alexander has no upcoming game on the latest nba snapshot, so there is no market price to grade points over 31.5 against');
  });

  it('resolves a history-only player (not on the board) by normalized key, suffix without its period', async () => {
    expect(board.some((r) => r.playerKey === 'larry nance')).toBe(false);
    const r = await runScan(b.store, req('Larry Nance Jr', 'rebounds', 3.5, 'over'), { now: NOW, userId: null, evaluate: evaluateProp });
    expect(r.player?.key).toBe('larry nance');
    expect(r.player?.team).toBe('CLE');
    expect(r.game).toBeNull();
    expect(r.prices).toBeNull();
  });
});

describe('refusals and lookups', () => {
  it('refuses a real board player with no history: grade null, insufficient_data, not metered, ledger untouched', async () => {
    const row = board.find((r) => r.player === 'VJ Edgecombe' && r.statType === 'points' && r.side === 'over' && r.bookOdds !== null && r.fairOdds !== null);
    expect(row).toBeDefined();
    expect(row!.grade).toBeNull();
    const userId = addUser('refusal@example.com');
    const before = b.store.db.select().from(ledgerEntries).all().length;
    const r = await runScan(b.store, req('VJ Edgecombe', 'points', row!.line, 'over'), { now: NOW, userId, evaluate: evaluateProp });
    expect(r.status).toBe('refused');
    expect(r.grade).toBeNull();
    expect(r.flags).toEqual(['insufficient_data']);
    expect(r.refusalReason).toMatch(/only 0 played game/);
    expect(r.projection).toBeNull();
    expect(r.pWin).toBeNull();
    expect(r.metered).toBe(false);
    expect(r.ledger.written).toBe(false);
    expect(b.store.db.select().from(ledgerEntries).all().length).toBe(before);
    expect(r.intel.games).toBe(0);
    expect(r.intel.seasonAvg).toBeUndefined();
    // Fair prices come from the market alone, so the refused row's prices are still real.
    expect(r.prices?.bookOdds).toBe(row!.bookOdds);
    expect(r.prices?.fairOdds).toBe(row!.fairOdds);
  });

  it('names the candidates for an ambiguous surname and grades nothing', async () => {
    const r = await runScan(b.store, req('Williams', 'points', 10.5, 'over'), { now: NOW, userId: null, evaluate: evaluateProp });
    expect(r.status).toBe('ambiguous');
    expect(r.grade).toBeNull();
    expect(r.flags).toEqual(['insufficient_data', 'ambiguous_player']);
    const names = r.candidates!.map((c) => c.name);
    expect(names).toContain('Jalen Williams');
    expect(names).toContain('Jaylin Williams');
    expect(r.metered).toBe(false);
    expect(r.ledger.written).toBe(false);
  });

  it('resolves a unique surname to its player', async () => {
    const r = await runScan(b.store, req('Gilgeous-Alexander', 'points', 31.5, 'over'), { now: NOW, userId: null, evaluate: evaluateProp });
    expect(r.player?.key).toBe('shai gilgeous alexander');
  });

  it('rejects a stat foreign to the asked sport and an unknown user as bad input', async () => {
    const err = await (async () => {
      try {
        await runScan(b.store, { ...req('Shai Gilgeous-Alexander', 'points', 31.5, 'over'), sport: 'mlb' }, { now: NOW, userId: null, evaluate: evaluateProp });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('BAD_INPUT');
    await expect(runScan(b.store, req('Shai Gilgeous-Alexander', 'points', 31.5, 'over'), { now: NOW, userId: 999_999, evaluate: evaluateProp })).rejects.toThrow(/no user with id 999999/);
  });

  it('validates the request: stat aliases, unknown stats, sides', () => {
    expect(scanRequestSchema.parse({ player: 'x', stat: 'player_points', line: 1.5, direction: 'over' }).stat).toBe('points');
    expect(scanRequestSchema.parse({ player: 'x', stat: '3pm', line: 1.5, direction: 'under' }).stat).toBe('threes');
    const bad = scanRequestSchema.safeParse({ player: 'x', stat: 'dunks', line: 1.5, direction: 'over' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toMatch(/^unknown stat 'dunks'/);
    expect(scanRequestSchema.safeParse({ player: 'x', stat: 'points', line: 1.5, direction: 'sideways' }).success).toBe(false);
    expect(scanRequestSchema.safeParse({ player: 'x', stat: 'points', line: Number.NaN, direction: 'over' }).success).toBe(false);
  });
});

describe('ledger writes', () => {
  it('writes a graded scan with a user id as a source:scan entry under that user, once', async () => {
    const userId = addUser('scanner@example.com');
    const publicBefore = b.store.db.select().from(ledgerEntries).where(isNull(ledgerEntries.userId)).all().length;
    const r = await runScan(b.store, req('Shai Gilgeous-Alexander', 'points', 31.5, 'over'), { now: NOW, userId, evaluate: evaluateProp });
    expect(r.ledger).toEqual({ written: true });
    const mine = await listLedger(b.store, { userId });
    expect(mine).toHaveLength(1);
    const e = mine[0]!;
    expect(e).toMatchObject({
      userId,
      source: 'scan',
      sport: 'nba',
      eventId: OKC_POR,
      commenceTime: '2025-11-06T03:10:00Z',
      gameDate: '2025-11-05',
      player: 'Shai Gilgeous-Alexander',
      playerKey: 'shai gilgeous alexander',
      team: 'OKC',
      opponent: 'POR',
      statType: 'points',
      line: 31.5,
      side: 'over',
      grade: r.grade,
      projection: r.projection,
      pWin: r.pWin,
      book: 'draftkings',
      lockedPrice: -112,
      lockedAt: NOW.toISOString(),
      outcome: 'pending',
    });
    expect(e.lockedFairProb).toBe(r.prices!.fairProb);
    const again = await runScan(b.store, req('Shai Gilgeous-Alexander', 'points', 31.5, 'over'), { now: NOW, userId, evaluate: evaluateProp });
    expect(again.ledger.written).toBe(false);
    expect(await listLedger(b.store, { userId })).toHaveLength(1);
    // The public record is not touched by a user's scan.
    expect(b.store.db.select().from(ledgerEntries).where(isNull(ledgerEntries.userId)).all().length).toBe(publicBefore);
  });

  it('never writes an anonymous scan', async () => {
    const before = b.store.db.select().from(ledgerEntries).where(eq(ledgerEntries.source, 'scan')).all().length;
    const r = await runScan(b.store, req('Deni Avdija', 'points', 24.5, 'over'), { now: NOW, userId: null, evaluate: evaluateProp });
    expect(r.status).toBe('graded');
    expect(r.ledger.written).toBe(false);
    expect(b.store.db.select().from(ledgerEntries).where(eq(ledgerEntries.source, 'scan')).all().length).toBe(before);
  });

  it('does not write a scan whose player has no game on the latest snapshot, and says so', async () => {
    const userId = addUser('nogame@example.com');
    const r = await runScan(b.store, req('Larry Nance Jr.', 'rebounds', 3.5, 'over'), { now: NOW, userId, evaluate: evaluateProp });
    expect(r.game).toBeNull();
    if (r.status === 'graded') expect(r.ledger.reason).toMatch(/no upcoming game/);
    expect(r.ledger.written).toBe(false);
    expect(b.store.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.source, 'scan'), eq(ledgerEntries.userId, userId))).all()).toHaveLength(0);
  });
});
