import { describe, expect, it } from 'vitest';
import { assessReadiness, type ReadinessFacts, type SportRunFacts } from '../../src/domain/readiness.js';

const WALL = new Date('2026-11-27T12:00:00Z');
const none = (sport: string): SportRunFacts => ({ sport, newestSnapshot: null, lastSnapshotRun: null, lastSettleRun: null, lastCloseRun: null });
const live = (sport: string, takenAt: string, status = 'ok'): SportRunFacts => ({
  sport,
  newestSnapshot: { takenAt, source: 'live' },
  lastSnapshotRun: { startedAt: takenAt, finishedAt: takenAt, status },
  lastSettleRun: null,
  lastCloseRun: null,
});
const facts = (sports: SportRunFacts[], extra: Partial<ReadinessFacts> = {}): ReadinessFacts => ({ pendingMigrations: [], sports, locks: [], credits: { spentToday: 0, dailyBudget: null }, ...extra });

describe('assessReadiness', () => {
  it('a replayed sport is ready as of its own snapshot, whatever the wall clock says', () => {
    const r = assessReadiness(facts([{ ...none('wnba'), newestSnapshot: { takenAt: '2024-06-02T11:00:00.000Z', source: 'replay' } }, none('soccer')]), WALL, 180);
    expect(r.ready).toBe(true);
    expect(r.sports.map((s) => [s.sport, s.state, s.ageMinutes])).toEqual([
      ['wnba', 'replayed', 0],
      ['soccer', 'never_run', null],
    ]);
  });

  it('live freshness is measured on the wall clock against the sync thresholds (1.5x amber, 3x stale)', () => {
    // 180 min expected: 269 min old is normal, 270 amber, 540 stale.
    const at = (min: number) => new Date(WALL.getTime() - min * 60_000).toISOString();
    const r = assessReadiness(facts([live('nba', at(269)), live('mlb', at(270)), live('wnba', at(540))]), WALL, 180);
    expect(r.sports.map((s) => s.state)).toEqual(['normal', 'amber', 'stale']);
    expect(r.ready).toBe(false);
    expect(r.reasons).toEqual(['wnba: newest snapshot 540 min old, past 3x the expected 180 min']);
    expect(r.warnings).toEqual(['mlb: newest snapshot 270 min old, past 1.5x the expected 180 min']);
  });

  it('an empty-slate run after the last snapshot keeps the sport fresh; a failed one does not', () => {
    const old = new Date(WALL.getTime() - 600 * 60_000).toISOString();
    const recent = new Date(WALL.getTime() - 10 * 60_000).toISOString();
    const emptyRun: SportRunFacts = { ...live('wnba', old), lastSnapshotRun: { startedAt: recent, finishedAt: recent, status: 'empty' } };
    const failedRun: SportRunFacts = { ...live('nba', old), lastSnapshotRun: { startedAt: recent, finishedAt: recent, status: 'failed' } };
    const r = assessReadiness(facts([emptyRun, failedRun]), WALL, 180);
    expect(r.sports.map((s) => [s.state, s.ageMinutes])).toEqual([
      ['normal', 10],
      ['stale', 600],
    ]);
    expect(r.warnings).toContain(`nba: the last snapshot run failed (${recent})`);
  });

  it('pending migrations or no snapshot at all: not ready, each with its reason', () => {
    const r = assessReadiness(facts([none('nba')], { pendingMigrations: ['0007_x'] }), WALL, 180);
    expect(r.ready).toBe(false);
    expect(r.reasons).toHaveLength(2);
    expect(r.reasons[0]).toContain('0007_x');
    expect(r.reasons[1]).toContain('no snapshot stored yet');
  });

  it('credits left are the budget less the wall day’s spend, never below 0; no budget: null, not 0', () => {
    const snap = { ...none('nba'), newestSnapshot: { takenAt: '2025-11-05T17:05:00.000Z', source: 'replay' as const } };
    expect(assessReadiness(facts([snap], { credits: { spentToday: 114, dailyBudget: 500 } }), WALL, 180).credits).toEqual({ spentToday: 114, dailyBudget: 500, leftToday: 386 });
    const spent = assessReadiness(facts([snap], { credits: { spentToday: 520, dailyBudget: 500 } }), WALL, 180);
    expect(spent.credits.leftToday).toBe(0);
    expect(spent.warnings[0]).toContain('daily budget spent');
    expect(assessReadiness(facts([snap]), WALL, 180).credits.leftToday).toBeNull();
  });

  it('a lock past its lease is a warning, named with its holder', () => {
    const snap = { ...none('nba'), newestSnapshot: { takenAt: '2025-11-05T17:05:00.000Z', source: 'replay' as const } };
    const r = assessReadiness(facts([snap], { locks: [{ name: 'snapshot:nba', owner: 'pid:9@box', acquiredAt: '2026-11-27T10:00:00.000Z', leaseUntil: '2026-11-27T10:30:00.000Z' }] }), WALL, 180);
    expect(r.ready).toBe(true);
    expect(r.locks[0]?.expired).toBe(true);
    expect(r.warnings).toEqual(['run lock snapshot:nba held by pid:9@box since 2026-11-27T10:00:00.000Z is past its lease']);
  });
});
