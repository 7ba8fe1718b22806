import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { normalizeName } from '../../src/domain/names.js';
import { readModelRecord } from '../../src/reads/record.js';
import { runSettle } from '../../src/jobs/settle.js';
import { listLedger } from '../../src/store/repo/ledger.js';
import { collectingLogger, REPLAY_DIR, resultsAt, seededStore, snapshotAt } from '../helpers/replay-store.js';

const SLATE = '2025-11-05T17:05:00Z';
const NEXT_MORNING = '2025-11-06T12:00:00Z';

/**
 * An independent reading of the recorded ESPN box scores (not the adapter): player key ->
 * stat values, from the `keys`/`stats` arrays of every summary recorded for the morning after.
 */
function recordedBoxScores(): Map<string, { minutes: number; points: number; rebounds: number; assists: number; threes: number; blocks: number; steals: number; dnp: boolean }> {
  const manifest = JSON.parse(readFileSync(join(REPLAY_DIR, 'manifest.json'), 'utf8')) as { entries: Array<{ url: string; file: string; recordedAt?: string }> };
  const out = new Map();
  for (const e of manifest.entries) {
    if (!e.url.includes('/summary?') || e.recordedAt !== NEXT_MORNING) continue;
    const body = JSON.parse(readFileSync(join(REPLAY_DIR, e.file), 'utf8'));
    for (const team of body.boxscore.players) {
      const keys: string[] = team.statistics[0].keys;
      for (const a of team.statistics[0].athletes) {
        const key = normalizeName(a.athlete.displayName).key;
        if (a.didNotPlay || !a.stats?.length) {
          out.set(key, { dnp: true });
          continue;
        }
        const v = (k: string) => Number(String(a.stats[keys.indexOf(k)]).split('-')[0]);
        out.set(key, {
          dnp: false,
          minutes: v('minutes'),
          points: v('points'),
          rebounds: v('rebounds'),
          assists: v('assists'),
          threes: v('threePointFieldGoalsMade-threePointFieldGoalsAttempted'),
          blocks: v('blocks'),
          steals: v('steals'),
        });
      }
    }
  }
  return out;
}

describe('settle run on the bundled real replay', () => {
  let t: Awaited<ReturnType<typeof seededStore>>;
  afterEach(() => t?.cleanup());

  it('settles every 2025-11-05 pre-grade against the recorded box scores', async () => {
    t = await seededStore();
    const snap = await snapshotAt(t.store, 'nba', SLATE);
    expect(snap.ledgerInserted).toBeGreaterThan(100);
    const sources = await resultsAt(NEXT_MORNING);
    const summary = await runSettle('nba', { store: t.store, results: sources.results, now: new Date(NEXT_MORNING), log: collectingLogger() });
    expect(summary.status).toBe('ok');
    expect(summary.dates).toEqual(['2025-11-05']);
    expect(summary.stillPending).toBe(0);

    const box = recordedBoxScores();
    const entries = await listLedger(t.store, { date: '2025-11-05', publicOnly: true }, 10_000);
    expect(entries.length).toBe(snap.ledgerInserted);
    for (const e of entries) {
      const line = box.get(e.playerKey);
      if (!line || line.dnp || line.minutes === 0) {
        expect(e.outcome).toBe('void');
        expect(e.actualValue).toBeNull();
        continue;
      }
      const stats: Record<string, number> = { points: line.points, rebounds: line.rebounds, assists: line.assists, threes: line.threes, blocks: line.blocks, steals: line.steals, pra: line.points + line.rebounds + line.assists };
      const actual = stats[e.statType];
      if (actual === undefined) throw new Error(`unexpected stat ${e.statType}`);
      expect(e.actualValue).toBe(actual);
      const expected = actual === e.line ? 'push' : (actual > e.line) === (e.side === 'over') ? 'hit' : 'miss';
      expect(e.outcome).toBe(expected);
      expect(e.settledAt).toBe(new Date(NEXT_MORNING).toISOString());
    }
    const outcomes = new Set(entries.map((e) => e.outcome));
    expect(outcomes.has('hit') && outcomes.has('miss')).toBe(true);
  });

  it('is idempotent: a second settle changes nothing', async () => {
    t = await seededStore();
    await snapshotAt(t.store, 'nba', SLATE);
    const sources = await resultsAt(NEXT_MORNING);
    await runSettle('nba', { store: t.store, results: sources.results, now: new Date(NEXT_MORNING), log: collectingLogger() });
    const before = await listLedger(t.store, { publicOnly: true }, 10_000);
    const again = await runSettle('nba', { store: t.store, results: sources.results, now: new Date('2025-11-06T13:00:00Z'), log: collectingLogger() });
    expect(again.status).toBe('empty');
    expect(await listLedger(t.store, { publicOnly: true }, 10_000)).toEqual(before);
  });

  it('results not yet recorded: entries stay pending and the run says so', async () => {
    t = await seededStore();
    await snapshotAt(t.store, 'nba', SLATE);
    // At 03:00Z the games have started but the morning-after recording does not exist yet.
    const early = '2025-11-06T03:00:00Z';
    const sources = await resultsAt(early);
    const summary = await runSettle('nba', { store: t.store, results: sources.results, now: new Date(early), log: collectingLogger() });
    expect(summary.status).toBe('failed');
    expect(summary.unavailableDates).toEqual(['2025-11-05']);
    expect((await listLedger(t.store, { pending: true, publicOnly: true }, 10_000)).length).toBeGreaterThan(0);
  });

  it('the record moves after settling: counts below n=20 per tier, percentages at or above', async () => {
    t = await seededStore();
    await snapshotAt(t.store, 'nba', SLATE);
    const sources = await resultsAt(NEXT_MORNING);
    await runSettle('nba', { store: t.store, results: sources.results, now: new Date(NEXT_MORNING), log: collectingLogger() });
    const { aggregate, tiers } = await readModelRecord(t.store, { now: new Date(NEXT_MORNING) });
    const n = aggregate.counts.hits + aggregate.counts.misses;
    expect(n).toBeGreaterThanOrEqual(20);
    expect(aggregate.hitRate.pct).toBeCloseTo((aggregate.counts.hits / n) * 100, 9);
    // A team-scoped record counts exactly that team's public entries.
    const knicks = await listLedger(t.store, { team: 'NY', publicOnly: true }, 10_000);
    expect(knicks.length).toBeGreaterThan(0);
    const scoped = (await readModelRecord(t.store, { now: new Date(NEXT_MORNING), team: 'ny' })).aggregate;
    expect(scoped.counts.entries).toBe(knicks.length);
    expect(scoped.counts.hits).toBe(knicks.filter((e) => e.outcome === 'hit').length);
    for (const tier of tiers) {
      const tn = tier.counts.hits + tier.counts.misses;
      if (tn < 20) {
        expect(tier.hitRate.pct).toBeNull();
        expect(tier.hitRate.label).toBe(`${tn} of 20`);
      } else expect(tier.hitRate.pct).not.toBeNull();
    }
  });
});

describe('the run record\u2019s not-due figure', () => {
  let t: Awaited<ReturnType<typeof seededStore>>;
  afterEach(() => t?.cleanup());

  const notDueOf = (runId: number) =>
    (JSON.parse(t.store.sqlite.prepare('select details from pipeline_runs where id = ?').pluck().get(runId) as string) as { notDue: unknown }).notDue;

  it('is the count when the run counted (0 for none waiting), null when --date skipped the count', async () => {
    t = await seededStore();
    await snapshotAt(t.store, 'nba', SLATE);
    const sources = await resultsAt(NEXT_MORNING);
    const dated = await runSettle('nba', { store: t.store, results: sources.results, now: new Date(NEXT_MORNING), date: '2025-11-05', log: collectingLogger() });
    expect(dated.status).toBe('ok');
    expect(notDueOf(dated.runId)).toBeNull();
  });

  it('records 0, not null, when the run counted and nothing waits for its game', async () => {
    t = await seededStore();
    await snapshotAt(t.store, 'nba', SLATE);
    const sources = await resultsAt(NEXT_MORNING);
    const counted = await runSettle('nba', { store: t.store, results: sources.results, now: new Date(NEXT_MORNING), log: collectingLogger() });
    expect(counted.status).toBe('ok');
    expect(counted.notDue).toBeNull();
    expect(notDueOf(counted.runId)).toBe(0);
  });
});

describe('settle summary: not due yet, and the CLV of what it settled', () => {
  let t: Awaited<ReturnType<typeof seededStore>>;
  afterEach(() => t?.cleanup());

  it('before the games: nothing due is not "nothing pending"; the count, first start and a time after the games', async () => {
    t = await seededStore();
    const snap = await snapshotAt(t.store, 'nba', SLATE);
    const sources = await resultsAt(SLATE);
    const summary = await runSettle('nba', { store: t.store, results: sources.results, now: new Date(SLATE), log: collectingLogger() });
    const pending = await listLedger(t.store, { pending: true }, 10_000);
    expect(pending.length).toBe(snap.ledgerInserted);
    const first = pending.map((e) => e.commenceTime).sort()[0];
    expect(summary.status).toBe('empty');
    expect(summary.notDue).toEqual({ pending: pending.length, firstStart: first, lastGameDate: '2025-11-05', settleAfter: NEXT_MORNING });
    expect(summary.message).toBe(`${pending.length} pending, none due yet: their games start after 2025-11-05T17:05:00Z (the first at ${first})`);
    // The stated time does settle them all.
    const later = await resultsAt(summary.notDue?.settleAfter ?? '');
    const after = await runSettle('nba', { store: t.store, results: later.results, now: new Date(summary.notDue?.settleAfter ?? ''), log: collectingLogger() });
    expect(after.notDue).toBeNull();
    expect(Object.values(after.settled).reduce((a, b) => a + b, 0)).toBe(pending.length);
  });

  it('due dates and not-due totals (one pass over the pending index) are what each pending row says', async () => {
    t = await seededStore();
    await snapshotAt(t.store, 'nba', SLATE);
    const sqlite = t.store.sqlite;
    const ids = sqlite.prepare(`select id from ledger_entries where outcome = 'pending' order by id`).pluck().all() as number[];
    expect(ids.length).toBeGreaterThan(40);
    // A mix: entries dated after today, an earlier due date, settled ones (never counted), and a
    // clock inside the slate so part of 2025-11-05 has started and part has not.
    const move = sqlite.prepare('update ledger_entries set game_date = ?, commence_time = ? where id = ?');
    for (const id of ids.slice(0, 5)) move.run('2025-11-08', '2025-11-09T00:10:00.000Z', id);
    for (const id of ids.slice(5, 8)) move.run('2025-11-03', '2025-11-03T23:40:00.000Z', id);
    sqlite.prepare(`update ledger_entries set outcome = 'hit' where id in (${ids.slice(8, 12).join(', ')})`).run();
    const starts = (sqlite.prepare(`select distinct commence_time from ledger_entries where game_date = '2025-11-05' order by 1`).pluck().all() as string[]);
    expect(starts.length).toBeGreaterThan(1);
    const now = new Date(starts[Math.floor(starts.length / 2)] as string);
    const today = '2025-11-05'; // ET date of every start in the slate
    const at = now.toISOString();
    const pending = sqlite.prepare(`select game_date as gameDate, commence_time as commenceTime from ledger_entries where sport = 'nba' and outcome = 'pending'`).all() as Array<{ gameDate: string; commenceTime: string }>;
    const due = [...new Set(pending.filter((e) => e.commenceTime <= at && e.gameDate <= today).map((e) => e.gameDate))].sort();
    const late = pending.filter((e) => e.commenceTime > at || e.gameDate > today);
    expect(due).toEqual(['2025-11-03', '2025-11-05']);
    expect(late.some((e) => e.gameDate === today)).toBe(true);

    const unavailable = { results: async () => null };
    const summary = await runSettle('nba', { store: t.store, results: unavailable, now, log: collectingLogger() });
    expect(summary.dates).toEqual(due);
    expect(summary.unavailableDates).toEqual(due);
    expect(summary.notDue).toEqual({
      pending: late.length,
      firstStart: late.map((e) => e.commenceTime).sort()[0],
      lastGameDate: '2025-11-08',
      settleAfter: '2025-11-09T12:00:00Z',
    });
  });

  it('counts beat, faded, flat and no close over exactly the entries it settled, as stored', async () => {
    t = await seededStore();
    await snapshotAt(t.store, 'nba', '2025-11-05T15:05:00Z');
    await snapshotAt(t.store, 'nba', SLATE);
    const sources = await resultsAt(NEXT_MORNING);
    const summary = await runSettle('nba', { store: t.store, results: sources.results, now: new Date(NEXT_MORNING), log: collectingLogger() });
    const entries = await listLedger(t.store, {}, 10_000);
    const count = (v: string | null) => entries.filter((e) => e.clvVerdict === v).length;
    expect(summary.clv).toEqual({ beat: count('beat'), faded: count('faded'), flat: count('flat'), noClose: count(null) });
    expect(summary.clv.beat + summary.clv.faded + summary.clv.flat).toBeGreaterThan(0);
    expect(Object.values(summary.clv).reduce((a, b) => a + b, 0)).toBe(Object.values(summary.settled).reduce((a, b) => a + b, 0));
    // A re-run settles nothing, so it counts nothing.
    const again = await runSettle('nba', { store: t.store, results: sources.results, now: new Date(NEXT_MORNING), log: collectingLogger() });
    expect(again.clv).toEqual({ beat: 0, faded: 0, flat: 0, noClose: 0 });
  });
});

describe('two settles and two record tallies at once, on two stores', () => {
  const stores: Array<Awaited<ReturnType<typeof seededStore>>> = [];
  afterEach(() => {
    for (const s of stores.splice(0)) s.cleanup();
  });

  /** What the recorded box score says an entry settles to, read without the adapter or the domain. */
  const expectedOf = (box: ReturnType<typeof recordedBoxScores>, e: { playerKey: string; statType: string; line: number; side: string }) => {
    const line = box.get(e.playerKey);
    if (!line || line.dnp || line.minutes === 0) return { outcome: 'void', actual: null };
    const actual = e.statType === 'pra' ? line.points + line.rebounds + line.assists : (line as unknown as Record<string, number>)[e.statType];
    if (actual === undefined) throw new Error(`unexpected stat ${e.statType}`);
    return { outcome: actual === e.line ? 'push' : (actual > e.line) === (e.side === 'over') ? 'hit' : 'miss', actual };
  };

  it('each run settles its own store exactly as the box scores say, and each tally counts its own rows', async () => {
    const [a, b] = [await seededStore(), await seededStore()];
    stores.push(a, b);
    await snapshotAt(a.store, 'nba', SLATE);
    await snapshotAt(b.store, 'nba', SLATE);
    // Store b's lines move a quarter point up and its Knicks entries go: the two ledgers differ,
    // so an entry decided against the other run's rows or counted in the other tally shows.
    b.store.sqlite.prepare('update ledger_entries set line = line + 0.25').run();
    b.store.sqlite.prepare(`delete from ledger_entries where team = 'NY'`).run();
    const sources = await resultsAt(NEXT_MORNING);
    // Run a waits for its results until run b has fetched its own: both are in flight at once,
    // and a writes after b started.
    let bFetched: () => void = () => {};
    const gate = new Promise<void>((resolve) => (bFetched = resolve));
    const slowA = { results: async (sport: 'nba', date: string) => (await gate, sources.results.results(sport, date)) };
    const fastB = { results: async (sport: 'nba', date: string) => { const r = await sources.results.results(sport, date); bFetched(); return r; } };
    const now = new Date(NEXT_MORNING);
    const [sa, sb] = await Promise.all([
      runSettle('nba', { store: a.store, results: slowA, now, log: collectingLogger() }),
      runSettle('nba', { store: b.store, results: fastB, now, log: collectingLogger() }),
    ]);
    await sources.close();

    const box = recordedBoxScores();
    for (const [t, summary] of [[a, sa], [b, sb]] as const) {
      const rows = t.store.sqlite.prepare('select player_key as playerKey, stat_type as statType, line, side, outcome, actual_value as actualValue from ledger_entries').all() as Array<{ playerKey: string; statType: string; line: number; side: string; outcome: string; actualValue: number | null }>;
      expect(rows.length).toBeGreaterThan(100);
      const counts = { hit: 0, miss: 0, push: 0, void: 0 } as Record<string, number>;
      for (const e of rows) {
        const want = expectedOf(box, e);
        expect({ outcome: e.outcome, actual: e.actualValue }).toEqual(want);
        counts[want.outcome] = (counts[want.outcome] ?? 0) + 1;
      }
      expect(summary.settled).toEqual(counts);
      expect(summary.stillPending).toBe(0);
    }

    // The tallies, interleaved over the two stores, each against a count of its own raw rows.
    const reads = await Promise.all([a, b, a, b].map(async (t) => (await readModelRecord(t.store, { now })).aggregate.counts));
    for (const [i, t] of [a, b, a, b].entries()) {
      const raw = t.store.sqlite.prepare(`select sum(outcome = 'hit') as hits, sum(outcome = 'miss') as misses, sum(outcome = 'push') as pushes, sum(outcome = 'void') as voids from ledger_entries where user_id is null`).get() as Record<string, number>;
      expect(reads[i]).toMatchObject(raw);
    }
    expect(reads[0]).not.toEqual(reads[1]);
  });
});
