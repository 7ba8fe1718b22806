import { describe, expect, it } from 'vitest';
import { finishRun, lastRun, recentRuns, startRun } from '../../../src/store/repo/runs.js';
import { insertLocks, insertSnapshot, JsonText, lockedGrades, lockKey, recentSnapshots, snapshotRows, type NewGradedRow, type NewGradeLock } from '../../../src/store/repo/snapshots.js';
import { activeTickerEvents, insertTickerEvents } from '../../../src/store/repo/ticker.js';
import { ENGINES } from '../../helpers/engines.js';
import { eachEmptyStore, observations, raw, rawBools } from './writes-helpers.js';

/** Contract: the slate writes (snapshots, graded rows, grade locks, ticker, run log) on both engines. */

const seen = observations();

/** Key order deliberately not alphabetical: json (not jsonb) must keep it. */
const DETAIL = { z: 1, a: { y: 'two', b: null }, m: [3, 0.1] };

function row(over: Partial<NewGradedRow>): NewGradedRow {
  return {
    sport: 'nba',
    eventId: 'ev1',
    commenceTime: '2025-11-05T23:00:00.000Z',
    homeTeam: 'BOS',
    awayTeam: 'NYK',
    player: 'Jalen Brunson',
    playerKey: 'jalen-brunson',
    team: 'NYK',
    opponent: 'BOS',
    statType: 'points',
    line: 27.5,
    side: 'over',
    grade: 'A',
    gradeUncapped: 'A+',
    capReason: 'thin_consensus',
    insufficientData: false,
    projection: 29.123456789,
    book: 'draftkings',
    overOdds: -115,
    underOdds: -105,
    bookOdds: -115,
    fairOdds: -104.5,
    fairProb: 0.30000000000000004,
    consensusBooks: 4,
    thinConsensus: true,
    outlierPrice: null,
    takeable: true,
    isMainLine: true,
    evPct: 3.25,
    gradedAt: '2025-11-05T15:05:00.000Z',
    modelDetail: DETAIL,
    ...over,
  };
}

describe.each(ENGINES)('slate writes on %s', (engine) => {
  const get = eachEmptyStore(engine);

  it('insertSnapshot: the head and its rows, ids in row order, values as written', async () => {
    const { store } = get();
    const rows = [
      row({}),
      row({ side: 'under', grade: null, gradeUncapped: null, capReason: null, insufficientData: true, takeable: false, isMainLine: false, thinConsensus: false, modelDetail: null, projection: null }),
      row({ playerKey: 'a-first-key', player: 'Aaron Gordon', line: 9.5, modelDetail: new JsonText('{"q":1,"b":[true,false]}') as unknown as Record<string, unknown> }),
    ];
    const id = await insertSnapshot(store, { sport: 'nba', runId: null, takenAt: '2025-11-05T15:05:00.000Z', slateDate: '2025-11-05', gradedCount: 2, rowCount: 3, source: 'replay' }, rows);
    expect(id).toBe(1);
    expect(await recentSnapshots(store, 'nba')).toStrictEqual([{ id: 1, sport: 'nba', runId: null, takenAt: '2025-11-05T15:05:00.000Z', slateDate: '2025-11-05', gradedCount: 2, rowCount: 3, source: 'replay' }]);

    const back = await snapshotRows(store, id);
    // The index order (event, player key, stat, line, side): 'a-first-key' before 'jalen-brunson'.
    expect(back.map((r) => [r.id, r.playerKey, r.side])).toStrictEqual([
      [3, 'a-first-key', 'over'],
      [1, 'jalen-brunson', 'over'],
      [2, 'jalen-brunson', 'under'],
    ]);
    const [third, first, second] = back;
    expect(first).toMatchObject({ snapshotId: 1, insufficientData: false, thinConsensus: true, takeable: true, isMainLine: true, outlierPrice: null, fairProb: 0.30000000000000004, projection: 29.123456789, overOdds: -115, consensusBooks: 4 });
    expect(JSON.stringify(first?.modelDetail)).toBe(JSON.stringify(DETAIL));
    expect(second).toMatchObject({ grade: null, capReason: null, insufficientData: true, takeable: false, isMainLine: false, thinConsensus: false, modelDetail: null, projection: null });
    expect(JSON.stringify(third?.modelDetail)).toBe('{"q":1,"b":[true,false]}');
    seen.record(engine, 'snapshotRows', back);

    const stored = await raw(
      store,
      'select id, snapshot_id as "snapshotId", insufficient_data as "insufficientData", takeable, is_main_line as "isMainLine", thin_consensus as "thinConsensus", outlier_price as "outlierPrice", fair_prob as "fairProb", over_odds as "overOdds", cast(model_detail as text) as "detail" from graded_rows order by id',
    );
    expect(stored.map((r) => rawBools(store, r, ['insufficientData', 'takeable', 'isMainLine', 'thinConsensus', 'outlierPrice']))).toStrictEqual([
      { id: 1, snapshotId: 1, insufficientData: false, takeable: true, isMainLine: true, thinConsensus: true, outlierPrice: null, fairProb: 0.30000000000000004, overOdds: -115, detail: JSON.stringify(DETAIL) },
      { id: 2, snapshotId: 1, insufficientData: true, takeable: false, isMainLine: false, thinConsensus: false, outlierPrice: null, fairProb: 0.30000000000000004, overOdds: -115, detail: null },
      { id: 3, snapshotId: 1, insufficientData: false, takeable: true, isMainLine: true, thinConsensus: true, outlierPrice: null, fairProb: 0.30000000000000004, overOdds: -115, detail: '{"q":1,"b":[true,false]}' },
    ]);
    const [head] = await raw(store, 'select id, graded_count as "gradedCount", source from snapshots');
    expect(head).toStrictEqual({ id: 1, gradedCount: 2, source: 'replay' });
  });

  it('insertSnapshot: a snapshot with no rows, and a second snapshot takes the next id', async () => {
    const { store } = get();
    const head = { sport: 'nba', runId: null, takenAt: '2025-11-05T15:05:00.000Z', slateDate: '2025-11-05', gradedCount: 0, rowCount: 0, source: null } as const;
    expect(await insertSnapshot(store, head, [])).toBe(1);
    expect(await insertSnapshot(store, { ...head, takenAt: '2025-11-05T17:05:00.000Z', source: 'live' }, [row({})])).toBe(2);
    expect((await recentSnapshots(store, 'nba')).map((s) => [s.id, s.source])).toStrictEqual([
      [2, 'live'],
      [1, null],
    ]);
    expect(await raw(store, 'select snapshot_id as "s", count(*) as n from graded_rows group by snapshot_id')).toStrictEqual([{ s: 2, n: 1 }]);
  });

  it('insertLocks: first writer wins, repeats skipped, model detail kept as written', async () => {
    const { store } = get();
    const lock = (over: Partial<NewGradeLock>): NewGradeLock => ({
      sport: 'nba',
      eventId: 'ev1',
      playerKey: 'jalen-brunson',
      statType: 'points',
      line: 27.5,
      side: 'over',
      grade: 'A',
      gradeUncapped: 'A',
      capReason: null,
      projection: 29.5,
      pWin: 0.57,
      modelOdds: -132.5,
      archetype: 'scorer',
      gradedAt: '2025-11-05T15:05:00.000Z',
      snapshotId: null,
      modelDetail: { evPct: 3.25, value: 1.5, takeable: true, fairSource: 'consensus', zeta: null },
      lockedBook: 'draftkings',
      lockedOdds: -115,
      lockedFairProb: 0.52,
      ...over,
    });
    // A repeat inside one call and a repeat across calls: neither overwrites the first grade.
    await insertLocks(store, [lock({}), lock({ side: 'under', grade: null, modelDetail: null }), lock({ grade: 'F' })]);
    await insertLocks(store, [lock({ grade: 'C' }), lock({ line: 28.5, modelDetail: new JsonText('{"b":2,"a":1}') as unknown as Record<string, unknown> })]);

    const locks = await lockedGrades(store, ['ev1']);
    const over = locks.get(lockKey('ev1', 'jalen-brunson', 'points', 27.5, 'over'));
    expect(over).toMatchObject({ grade: 'A', pWin: 0.57, modelOdds: -132.5, lockedOdds: -115, lockedFairProb: 0.52 });
    expect(over?.modelDetail?.text).toBe('{"evPct":3.25,"value":1.5,"takeable":true,"fairSource":"consensus","zeta":null}');
    expect(over?.detail).toStrictEqual({ evPct: 3.25, value: 1.5, takeable: true, refusal: undefined, nudgeWeight: undefined, pModel: undefined, fairSource: 'consensus' });
    const under = locks.get(lockKey('ev1', 'jalen-brunson', 'points', 27.5, 'under'));
    expect(under).toMatchObject({ grade: null, modelDetail: null });
    expect(under?.detail).toStrictEqual({ evPct: undefined, value: undefined, takeable: undefined, refusal: undefined, nudgeWeight: undefined, pModel: undefined, fairSource: undefined });
    expect(locks.get(lockKey('ev1', 'jalen-brunson', 'points', 28.5, 'over'))?.modelDetail?.text).toBe('{"b":2,"a":1}');
    expect(locks.size).toBe(3);
    seen.record(engine, 'lockedGrades', [...locks.entries()].map(([k, v]) => [k, { ...v, modelDetail: v.modelDetail?.text ?? null }]));

    const stored = await raw(store, 'select id, side, line, grade, cast(model_detail as text) as detail from grade_locks order by side, line');
    seen.record(engine, 'grade_locks ids', stored.map((r) => r['id']));
    expect(stored.map(({ id: _id, ...r }) => r)).toStrictEqual([
      { side: 'over', line: 27.5, grade: 'A', detail: '{"evPct":3.25,"value":1.5,"takeable":true,"fairSource":"consensus","zeta":null}' },
      { side: 'over', line: 28.5, grade: 'A', detail: '{"b":2,"a":1}' },
      { side: 'under', line: 27.5, grade: null, detail: null },
    ]);
  });

  it('insertTickerEvents: rows and payloads as written; activeTickerEvents newest first', async () => {
    const { store } = get();
    await insertTickerEvents(store, []);
    const runId = await startRun(store, 'snapshot', 'nba', '2025-11-05T15:00:00.000Z');
    await insertTickerEvents(store, [
      { kind: 'MOVE', sport: 'nba', createdAt: '2025-11-05T15:05:00.000Z', text: 'Brunson 27.5 -> 28.5', runId, expiresAt: '2025-11-05T21:05:00.000Z', payload: { to: 28.5, from: 27.5 } },
      { kind: 'PIN', sport: null, createdAt: '2025-11-05T15:06:00.000Z', text: 'pinned', runId: null, expiresAt: null, payload: null },
    ]);
    const active = await activeTickerEvents(store, new Date('2025-11-05T20:00:00Z'));
    expect(active).toStrictEqual([
      { id: 2, kind: 'PIN', sport: null, createdAt: '2025-11-05T15:06:00.000Z', text: 'pinned', runId: null, expiresAt: null, payload: null },
      { id: 1, kind: 'MOVE', sport: 'nba', createdAt: '2025-11-05T15:05:00.000Z', text: 'Brunson 27.5 -> 28.5', runId: 1, expiresAt: '2025-11-05T21:05:00.000Z', payload: { to: 28.5, from: 27.5 } },
    ]);
    expect(JSON.stringify(active[1]?.payload)).toBe('{"to":28.5,"from":27.5}');
    expect((await activeTickerEvents(store, new Date('2025-11-05T21:05:00Z'))).map((e) => e.id)).toStrictEqual([2]);
    expect(await raw(store, 'select id, run_id as "runId", cast(payload as text) as payload from ticker_events order by id')).toStrictEqual([
      { id: 1, runId: 1, payload: '{"to":28.5,"from":27.5}' },
      { id: 2, runId: null, payload: null },
    ]);
  });

  it('startRun / finishRun: ids from 1, a patch sets only its columns, details JSON in key order', async () => {
    const { store } = get();
    const a = await startRun(store, 'snapshot', 'nba', '2025-11-05T15:00:00.000Z');
    const b = await startRun(store, 'settle', 'nba', '2025-11-06T12:00:00.000Z');
    expect([a, b]).toStrictEqual([1, 2]);
    await finishRun(store, a, { status: 'ok', finishedAt: '2025-11-05T15:01:00.000Z', gradedCount: 0, eventsCount: 7, creditsRemaining: null, message: 'fine', details: { zz: 1, aa: [true, null] } });
    await finishRun(store, b, { status: 'failed', message: "can't: \"quoted\"" });
    const runs = await recentRuns(store);
    expect(runs).toStrictEqual([
      { id: 2, kind: 'settle', sport: 'nba', startedAt: '2025-11-06T12:00:00.000Z', finishedAt: null, status: 'failed', slateDate: null, eventsCount: null, gradedCount: null, refusedCount: null, droppedCount: null, settledCount: null, creditsUsed: null, creditsRemaining: null, message: "can't: \"quoted\"", details: null },
      { id: 1, kind: 'snapshot', sport: 'nba', startedAt: '2025-11-05T15:00:00.000Z', finishedAt: '2025-11-05T15:01:00.000Z', status: 'ok', slateDate: null, eventsCount: 7, gradedCount: 0, refusedCount: null, droppedCount: null, settledCount: null, creditsUsed: null, creditsRemaining: null, message: 'fine', details: { zz: 1, aa: [true, null] } },
    ]);
    expect(JSON.stringify(runs[1]?.details)).toBe('{"zz":1,"aa":[true,null]}');
    expect((await lastRun(store, 'snapshot', 'nba'))?.id).toBe(1);
    expect(await raw(store, 'select id, status, graded_count as g, events_count as e, cast(details as text) as d from pipeline_runs order by id')).toStrictEqual([
      { id: 1, status: 'ok', g: 0, e: 7, d: '{"zz":1,"aa":[true,null]}' },
      { id: 2, status: 'failed', g: null, e: null, d: null },
    ]);
  });
});

describe('slate writes: both engines read back the same', () => {
  it.each(['snapshotRows', 'lockedGrades', 'grade_locks ids'])('%s', (name) => {
    const { sqlite, postgres } = seen.both(name);
    expect(sqlite).toBeDefined();
    expect(postgres).toStrictEqual(sqlite);
  });
});
