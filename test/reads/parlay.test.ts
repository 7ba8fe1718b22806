import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeFromPoints, gradePoints, type Grade } from '../../src/domain/grades.js';
import { americanToDecimal } from '../../src/domain/odds.js';
import { AppError } from '../../src/errors.js';
import { gradeParlay, parlayLegInputSchema, UPSELL, type ParlayLegInput } from '../../src/reads/parlay.js';
import { latestSnapshot, snapshotRows, type GradedRowRecord } from '../../src/store/repo/snapshots.js';
import { ledgerEntries } from '../../src/store/schema.js';
import { boardRow, bundledStore, NOW, OKC_POR, PHI_CLE, type BundledStore } from './scan-parlay-store.js';

let b: BundledStore;
let board: GradedRowRecord[];

beforeAll(async () => {
  b = await bundledStore();
  board = await snapshotRows(b.store, (await latestSnapshot(b.store, 'nba'))!.id);
}, 120_000);
afterAll(async () => b?.cleanup());

const leg = (player: string, stat: string, line: number, side: string): ParlayLegInput => parlayLegInputSchema.parse({ player, stat, line, side });
const row = (player: string, stat: string, line: number, side: string) => boardRow(board, player, stat, line, side);
const badInputMessage = async (fn: () => Promise<unknown>): Promise<string> => {
  try {
    await fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe('BAD_INPUT');
    return (e as AppError).message;
  }
  throw new Error('expected a BAD_INPUT error');
};

// Real board lines of the bundled 2025-11-05 replay.
const SGA_PTS = () => leg('Shai Gilgeous-Alexander', 'points', 31.5, 'over');
const CHET_REB = () => leg('Chet Holmgren', 'rebounds', 8.5, 'over');
const AVDIJA_PTS = () => leg('Deni Avdija', 'points', 24.5, 'over');
const MITCHELL_PTS = () => leg('Donovan Mitchell', 'points', 25.5, 'over');

describe('gradeParlay on the bundled store', () => {
  it('two teammates in one game: correlation 0.4, penalty 0.2, payout = fair decimals x 0.6', async () => {
    const a = row('Shai Gilgeous-Alexander', 'points', 31.5, 'over');
    const c = row('Chet Holmgren', 'rebounds', 8.5, 'over');
    const r = await gradeParlay(b.store, [SGA_PTS(), CHET_REB()], { now: NOW, tier: 'analyst' });
    expect(r.correlation.pairs).toEqual([{ a: 1, b: 2, relationship: 'same_team_same_game', score: 0.4 }]);
    expect(r.correlation.average).toBe(0.4);
    expect(r.legs.map((l) => l.grade)).toEqual([a.grade, c.grade]);
    expect(r.legs.map((l) => l.fairOdds)).toEqual([a.fairOdds, c.fairOdds]);
    expect(r.legs.map((l) => [l.team, l.game?.eventId])).toEqual([
      ['OKC', OKC_POR],
      ['OKC', OKC_POR],
    ]);
    const avg = (gradePoints(a.grade as Grade) + gradePoints(c.grade as Grade)) / 2;
    expect(r.combined.points.average).toBeCloseTo(avg, 12);
    expect(r.combined.points.penalty).toBeCloseTo(0.2, 12);
    expect(r.combined.points.combined).toBeCloseTo(avg - 0.2, 12);
    expect(r.combined.grade).toBe(gradeFromPoints(avg - 0.2));
    expect(r.combined).toMatchObject({ legsUsed: 2, legsTotal: 2, provisional: false });
    const expected = americanToDecimal(a.fairOdds)! * americanToDecimal(c.fairOdds)! * 0.6;
    expect(r.payout!.decimal).toBeCloseTo(expected, 12);
    expect(r.upsell).toBeUndefined();
    expect(r.warnings.some((w) => w.startsWith('correlated legs: average correlation 0.40'))).toBe(true);
  });

  it("gives the free tier the market's payout and hides the projection's behind the upsell line", async () => {
    const r = await gradeParlay(b.store, [SGA_PTS(), CHET_REB()], { now: NOW, tier: 'free' });
    const paid = await gradeParlay(b.store, [SGA_PTS(), CHET_REB()], { now: NOW, tier: 'desk' });
    expect(r.payout).toEqual(paid.payout);
    expect(r).not.toHaveProperty('projectionPayout');
    expect(r.upsell).toBe(UPSELL);
    // The projection's payout: the legs' projection prices, the same 0.6 haircut (teammates, correlation 0.4).
    const [a, c] = paid.legs.map((l) => 1 / l.projectionProb!);
    expect(paid.projectionPayout!.decimal).toBeCloseTo(a! * c! * 0.6, 9);
    expect(r.combined.grade).not.toBeNull();
  });

  it('scores every relationship on a real 4-leg desk slip', async () => {
    const r = await gradeParlay(b.store, [SGA_PTS(), CHET_REB(), AVDIJA_PTS(), MITCHELL_PTS()], { now: NOW, tier: 'desk' });
    expect(r.correlation.pairs.map((p) => [p.a, p.b, p.relationship, p.score])).toEqual([
      [1, 2, 'same_team_same_game', 0.4],
      [1, 3, 'same_game_opposing_teams', 0.2],
      [1, 4, 'different_games', 0],
      [2, 3, 'same_game_opposing_teams', 0.2],
      [2, 4, 'different_games', 0],
      [3, 4, 'different_games', 0],
    ]);
    expect(r.correlation.average).toBeCloseTo(0.8 / 6, 12);
    expect(r.legs[3]!.game?.eventId).toBe(PHI_CLE);
    expect(r.legs[2]!.team).toBe('POR');
    const fair = r.legs.map((l) => americanToDecimal(l.fairOdds)!);
    expect(r.payout!.decimal).toBeCloseTo(fair.reduce((p, d) => p * d, 1) * (1 - 0.8 / 6), 9);
    // Average 0.133 is under 0.2 but legs 1+2 reach 0.4: the warning names them.
    expect(r.warnings[0]).toMatch(/legs 1\+2 same team, same game \(0\.4\)/);
  });

  it('two props of one player: same player 0.7', async () => {
    const r = await gradeParlay(b.store, [SGA_PTS(), leg('Shai Gilgeous-Alexander', 'assists', 6.5, 'over')], { now: NOW, tier: 'analyst' });
    expect(r.correlation.pairs[0]).toEqual({ a: 1, b: 2, relationship: 'same_player', score: 0.7 });
    expect(r.combined.points.penalty).toBeCloseTo(0.35, 12);
    const [x, y] = r.legs.map((l) => americanToDecimal(l.fairOdds)!);
    expect(r.payout!.decimal).toBeCloseTo(x! * y! * 0.3, 12);
  });

  it('shows a refused leg as a refusal and rests the combined grade on the others', async () => {
    const vj = board.find((x) => x.player === 'VJ Edgecombe' && x.statType === 'points' && x.side === 'over' && x.fairOdds !== null)!;
    const r = await gradeParlay(b.store, [SGA_PTS(), leg('VJ Edgecombe', 'points', vj.line, 'over'), MITCHELL_PTS()], { now: NOW, tier: 'analyst' });
    const refused = r.legs[1]!;
    expect(refused.grade).toBeNull();
    expect(refused.refusal).toMatch(/only 0 played game/);
    expect(refused.fairOdds).toBe(vj.fairOdds);
    expect(r.combined.legsUsed).toBe(2);
    expect(r.combined.legsTotal).toBe(3);
    const used = [r.legs[0]!.grade, r.legs[2]!.grade] as Grade[];
    expect(r.combined.points.average).toBeCloseTo((gradePoints(used[0]!) + gradePoints(used[1]!)) / 2, 12);
    expect(r.warnings.some((w) => w.startsWith('leg 2 (VJ Edgecombe points over') && w.includes('refused'))).toBe(true);
    // VJ Edgecombe has no history, so no team: his pairs in the PHI @ CLE game are unknown, not guessed.
    expect(r.correlation.pairs.find((p) => p.a === 2 && p.b === 3)).toEqual({ a: 2, b: 3, relationship: 'unknown', score: null });
    expect(r.correlation.pairs.find((p) => p.a === 1 && p.b === 2)?.relationship).toBe('different_games');
  });

  it('refuses one leg: a parlay takes two, one prop alone is a scan', async () => {
    expect(await badInputMessage(() => gradeParlay(b.store, [AVDIJA_PTS()], { now: NOW, tier: 'analyst' }))).toMatch(/^a parlay takes 2 to 6 legs, got 1 \(one prop alone: propgrade scan/);
  });

  it('refuses the same prop twice, both sides of one prop and two lines of one stat, naming the legs', async () => {
    // Over and under of one real board line: the parlay used to grade C at "1.19x (-538)".
    const under = leg('Shai Gilgeous-Alexander', 'points', 31.5, 'under');
    expect(row('Shai Gilgeous-Alexander', 'points', 31.5, 'under').fairOdds).not.toBeNull();
    expect(await badInputMessage(() => gradeParlay(b.store, [SGA_PTS(), under], { now: NOW, tier: 'desk' }))).toBe(
      'not a parlay: legs 1 (Shai Gilgeous-Alexander points over 31.5) and 2 (Shai Gilgeous-Alexander points under 31.5) are both sides of one prop (they cannot both win)',
    );
    expect(await badInputMessage(() => gradeParlay(b.store, [SGA_PTS(), CHET_REB(), SGA_PTS()], { now: NOW, tier: 'desk' }))).toMatch(
      /^not a parlay: legs 1 \(Shai Gilgeous-Alexander points over 31\.5\) and 3 \(Shai Gilgeous-Alexander points over 31\.5\) are the same prop twice$/,
    );
    // Typed another way, the name resolves to the same player: still one market.
    const other = board.find((x) => x.player === 'Shai Gilgeous-Alexander' && x.statType === 'points' && x.line !== 31.5 && x.side === 'over' && x.fairOdds !== null)!;
    expect(await badInputMessage(() => gradeParlay(b.store, [SGA_PTS(), leg('shai gilgeous-alexander', 'pts', other.line, 'over')], { now: NOW, tier: 'desk' }))).toMatch(
      /and 2 \(Shai Gilgeous-Alexander points over [\d.]+\) are two lines of one player's stat/,
    );
  });

  it('refuses a parlay with no leg on a line the board prices, each leg with its reason', async () => {
    const message = await badInputMessage(() => gradeParlay(b.store, [leg('Nobody Anyone', 'points', 10.5, 'over'), leg('Chet Holmgren', 'rebounds', 19.5, 'over')], { now: NOW, tier: 'desk' }));
    expect(message).toMatch(/^not a parlay: no leg resolves to a line the board prices: leg 1 \(Nobody Anyone points over 10\.5\): no player 'Nobody Anyone' in the store; leg 2 \(Chet Holmgren rebounds over 19\.5\): .*lines it priced: /);
  });

  it('has no payout when a leg lacks a fair price (a line the board never priced)', async () => {
    const r = await gradeParlay(b.store, [SGA_PTS(), leg('Chet Holmgren', 'rebounds', 19.5, 'over')], { now: NOW, tier: 'desk' });
    expect(r.legs[1]!.fairOdds).toBeNull();
    expect(r.payout).toBeNull();
    // One line for the leg: refused (no market at 19.5), with the lines the board did price.
    const about2 = r.warnings.filter((w) => w.startsWith('leg 2 '));
    expect(about2).toHaveLength(1);
    expect(about2[0]).toMatch(/^leg 2 \(Chet Holmgren rebounds over 19\.5\) refused: .*lines it priced: .*; left out of the combined grade and the payout$/);
  });

  it('marks a pair with a history-only player (no game on the board) unknown', async () => {
    const r = await gradeParlay(b.store, [SGA_PTS(), leg('Larry Nance Jr.', 'rebounds', 3.5, 'over')], { now: NOW, tier: 'desk' });
    expect(r.correlation.pairs[0]?.relationship).toBe('unknown');
    expect(r.correlation.average).toBeNull();
    expect(r.payout).toBeNull();
    expect(r.combined.points.combined).toBeNull();
  });

  it('refuses an ambiguous leg by naming candidates', async () => {
    const r = await gradeParlay(b.store, [SGA_PTS(), leg('Williams', 'points', 8.5, 'over')], { now: NOW, tier: 'free' });
    expect(r.legs[1]!.grade).toBeNull();
    expect(r.legs[1]!.refusal).toMatch(/^ambiguous player 'Williams': .*Jalen Williams \(nba\)/);
    expect(r.combined.legsUsed).toBe(1);
  });

  it('enforces tier caps (free 2, analyst 4, desk 6) and 2..6 legs as BAD_INPUT naming the cap', async () => {
    const three = [SGA_PTS(), CHET_REB(), AVDIJA_PTS()];
    expect(await badInputMessage(() => gradeParlay(b.store, three, { now: NOW, tier: 'free' }))).toMatch(/the free tier allows at most 2 legs per parlay, got 3/);
    const five = [...three, MITCHELL_PTS(), leg('Evan Mobley', 'points', 18.5, 'over')];
    expect(await badInputMessage(() => gradeParlay(b.store, five, { now: NOW, tier: 'analyst' }))).toMatch(/the analyst tier allows at most 4 legs per parlay, got 5/);
    const seven = [...five, leg('Jrue Holiday', 'points', 12.5, 'over'), leg('Cason Wallace', 'points', 9.5, 'over')];
    expect(await badInputMessage(() => gradeParlay(b.store, seven, { now: NOW, tier: 'desk' }))).toMatch(/2 to 6 legs, got 7/);
    expect(await badInputMessage(() => gradeParlay(b.store, [], { now: NOW, tier: 'desk' }))).toMatch(/2 to 6 legs, got 0/);
    expect((await gradeParlay(b.store, five.slice(0, 4), { now: NOW, tier: 'analyst' })).legs).toHaveLength(4);
  });

  it('never writes the ledger', async () => {
    const before = b.store.db.select().from(ledgerEntries).all().length;
    await gradeParlay(b.store, [SGA_PTS(), CHET_REB()], { now: NOW, tier: 'desk' });
    expect(b.store.db.select().from(ledgerEntries).all().length).toBe(before);
  });
});
