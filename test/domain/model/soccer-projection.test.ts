/**
 * Soccer projection on real EPL player match stats (issue 42 part C): per-90 rates from the
 * player's own appearances before the match, expected minutes from his starts and substitute
 * appearances, a match he did not play left out (not read as 0 minutes), and nothing after the
 * match read. Figures are counted from the fixture's raw CSV lines here, not from the code.
 */
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { PlayerGameStat } from '../../../src/domain/entities.js';
import { gradeProp, type MarketPricing } from '../../../src/domain/model/index.js';
import { structuralParams } from '../../../src/domain/model/params.js';
import { projectStat } from '../../../src/domain/model/projection.js';
import { soccerExpectedMinutes } from '../../../src/domain/model/soccer-projection.js';
import type { StatType } from '../../../src/domain/stats.js';
import { addDays, easternDate } from '../../../src/domain/time.js';
import { field, header, historyOf as history, lines, linesOf as of, SHARED } from './soccer-fixture.js';

const SOCCER = (stat: StatType) => structuralParams('soccer', stat);

describe('the fixture is the shared file', () => {
  it.runIf(existsSync(SHARED))('every fixture line is a line of the shared EPL match stats', () => {
    const shared = new Set(gunzipSync(readFileSync(SHARED)).toString('utf8').split('\n'));
    expect(lines.length).toBe(112);
    for (const l of [header, ...lines]) expect(shared.has(l), l).toBe(true);
  });
});

describe('soccer projection from EPL player match stats', () => {
  // Salah's 2025-26 gameweek 10 match (2025-11-01 ET).
  const salahLines = of('Mohamed Salah');
  const target = salahLines.find((l) => field(l, 'season') === '2025-26' && field(l, 'gameweek') === '10') as string;
  const targetDate = easternDate(new Date(field(target, 'kickoff_utc')));

  it('reads per-90 rates from his appearances before the match (counted from the raw lines)', () => {
    const before = salahLines.filter((l) => easternDate(new Date(field(l, 'kickoff_utc'))) < targetDate && Number(field(l, 'minutes_played')) > 0);
    // 240 days back from 2025-11-01 reaches 2025-03-06: the 2024-25 run-in and 2025-26 so far.
    const earliest = '2025-03-06';
    const inWindow = before.filter((l) => easternDate(new Date(field(l, 'kickoff_utc'))) >= earliest);
    const shots = inWindow.reduce((s, l) => s + Number(field(l, 'total_shots')), 0);
    const minutes = inWindow.reduce((s, l) => s + Number(field(l, 'minutes_played')), 0);
    const r = projectStat(history('Mohamed Salah'), 'shots', SOCCER('shots'), targetDate);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.projection.sampleSize).toBe(inWindow.length);
    expect(r.projection.lookbackAverage).toBeCloseTo(shots / inWindow.length, 12);
    expect(r.projection.exposureLookback).toBeCloseTo(minutes / inWindow.length, 12);
    // The own-history prior: the rate is his shots per minute (x 90 = per 90).
    expect(r.projection.rate * 90).toBeCloseTo((90 * shots) / minutes, 1);
    // A role is read only where the on-off span is the minutes (2 short .. 10 over); a span that
    // is not (the source's 2025-26 placeholder 0-90, or 0-102 for 90 minutes) leaves the role
    // unknown, and then the minutes are the recency-weighted mean of his appearances.
    const span = (l: string) => Number(field(l, 'finish_min')) - Number(field(l, 'start_min'));
    const known = (l: string) => span(l) >= Number(field(l, 'minutes_played')) - 2 && span(l) <= Number(field(l, 'minutes_played')) + 10;
    expect(r.projection.soccerMinutes).toMatchObject({
      starts: inWindow.filter((l) => known(l) && field(l, 'start_min') === '0').length,
      unknownRole: inWindow.filter((l) => !known(l)).length,
      pStart: expect.any(Number),
    });
    expect(r.projection.soccerMinutes?.unknownRole).toBeGreaterThan(0);
  });

  it('a later match in the history changes nothing (as of the match)', () => {
    const all = history('Mohamed Salah');
    const cut = all.filter((r) => r.date < targetDate);
    expect(all.length).toBeGreaterThan(cut.length + 1);
    for (const stat of ['shots', 'shots_on_target', 'goals', 'assists', 'tackles'] as const) {
      expect(projectStat(all, stat, SOCCER(stat), targetDate), stat).toEqual(projectStat(cut, stat, SOCCER(stat), targetDate));
    }
  });

  it('a 0-minute row (unused substitute) is absence: the projection equals the one without the row', () => {
    const all = history('Mohamed Salah');
    const unused = all.find((r) => r.minutes === 0) as PlayerGameStat;
    expect(unused.date).toBe('2025-11-30');
    const without = all.filter((r) => r !== unused);
    expect(projectStat(all, 'shots', SOCCER('shots'), '2025-12-13')).toEqual(projectStat(without, 'shots', SOCCER('shots'), '2025-12-13'));
  });

  it("a substitute's expected minutes are a cameo's, a starter's a start's", () => {
    const end = '2025-05-26';
    const sub = soccerExpectedMinutes(history('Enes Ünal'), 'shots', '2024-08-01', end, 8);
    const starter = soccerExpectedMinutes(history('Mohamed Salah'), 'shots', '2024-08-01', end, 8);
    const unal = of('Enes Ünal').filter((l) => field(l, 'season') === '2024-25');
    expect(sub).toMatchObject({ appearances: unal.length, starts: unal.filter((l) => field(l, 'start_min') === '0').length, unknownRole: 0 });
    expect(sub?.subs).toBe(15);
    expect(sub?.expected).toBeLessThan(35);
    // One of Salah's 38 starts is written 0-100 for 90 minutes: its role is unknown, so his minutes are the plain weighted mean.
    expect(starter).toMatchObject({ appearances: 38, starts: 37, subs: 0, unknownRole: 1, pStart: 1 });
    expect(starter?.expected).toBeGreaterThan(80);
    // The projection scales the same per-minute rate by those minutes.
    const p = projectStat(history('Enes Ünal'), 'shots', SOCCER('shots'), end);
    const window = soccerExpectedMinutes(history('Enes Ünal'), 'shots', addDays(end, -240), end, 8);
    expect(p.ok && p.projection.expectedExposure).toBeCloseTo(window?.expected as number, 12);
  });

  it('a player who both starts and comes on: P(start) x start minutes + P(sub) x sub minutes', () => {
    const m = soccerExpectedMinutes(history('Raúl Jiménez'), 'goals', '2024-08-01', '2025-05-26', 8);
    const rows = of('Raúl Jiménez');
    expect(m).toMatchObject({ appearances: 38, starts: rows.filter((l) => field(l, 'start_min') === '0').length, subs: 8 });
    const { pStart, startMinutes, subMinutes, expected } = m as { pStart: number; startMinutes: number; subMinutes: number; expected: number };
    expect(expected).toBeCloseTo(pStart * startMinutes + (1 - pStart) * subMinutes, 12);
    expect(startMinutes).toBeGreaterThan(60);
    expect(subMinutes).toBeLessThan(30);
  });

  it('without a start/substitute field the minutes are the recency-weighted mean of his appearances', () => {
    const bare = history('Raúl Jiménez').map((r) => ({ ...r, extras: {} }));
    const m = soccerExpectedMinutes(bare, 'goals', '2024-08-01', '2025-05-26', 8);
    expect(m).toMatchObject({ unknownRole: 38, pStart: null });
    const mins = of('Raúl Jiménez').map((l) => Number(field(l, 'minutes_played')));
    const decay = Math.pow(0.5, 1 / 8);
    let s = 0;
    let w = 0;
    for (const x of mins) {
      s = s * decay + x;
      w = w * decay + 1;
    }
    expect(m?.expected).toBeCloseTo(s / w, 12);
  });

  it('grades an anytime-scorer price on a count law with the projection as its mean', () => {
    const market: MarketPricing = { bookOdds: 110, fairProb: 0.45, fairSource: 'consensus', consensusBooks: 4, thinConsensus: false, gradedAtOutlier: false };
    const out = gradeProp({ sport: 'soccer', stat: 'goals', line: 0.5, side: 'over', market, history: history('Mohamed Salah').filter((r) => r.date < targetDate), gameDate: targetDate });
    expect(out.insufficientData).toBe(false);
    if (out.insufficientData) return;
    expect(out.detail.expectedExposure).toBeGreaterThan(70);
    // P(at least one goal) under the law the grade used, its mean the projection.
    expect(out.detail.distribution.mean).toBeCloseTo(out.projection, 12);
    expect(out.detail.pModel).toBeGreaterThan(0.2);
    expect(out.detail.pModel).toBeLessThan(0.8);
  });
});
