import { describe, expect, it } from 'vitest';
import { snapshotRunClock } from '../../src/server/snapshot-runner.js';

describe('the data clock of the server\'s own snapshot runs (issue 27, two clocks)', () => {
  const replayed = () => new Date('2025-11-05T17:05:00Z'); // a replayed store is read as of its newest snapshot
  const wall = () => new Date('2026-11-27T20:00:00Z');
  it('a live run is stamped with the wall clock, never with the time a replayed store is read as of', () => {
    expect(snapshotRunClock({ PROPGRADE_REPLAY: undefined }, replayed, wall)()).toEqual(wall());
  });
  it('a run over a recording runs at the data clock (the recording\'s time)', () => {
    expect(snapshotRunClock({ PROPGRADE_REPLAY: 'data/replay' }, replayed, wall)()).toEqual(replayed());
  });
  it('an explicit --now / PROPGRADE_NOW pin wins', () => {
    const pinned = () => new Date('2025-11-05T15:05:00Z');
    expect(snapshotRunClock({ PROPGRADE_REPLAY: undefined }, replayed, wall, pinned)()).toEqual(pinned());
    expect(snapshotRunClock({ PROPGRADE_REPLAY: 'data/replay' }, replayed, wall, pinned)()).toEqual(pinned());
  });
});
