import { describe, expect, it } from 'vitest';
import {
  arsenalStatsUrl,
  avgSpeedUrl,
  buildArsenalIndex,
  fetchArsenalIndex,
  parseArsenalStatsCsv,
  parseAvgSpeedCsv,
  pitcherArsenal,
  pitcherArsenalSchema,
} from '../../../src/feeds/savant/arsenal.js';
import { collectingLog, fixtureTransport, readFixture } from '../espn/fixture-transport.js';

const csv = (file: string) => readFixture('savant', file);

describe('Savant 2025 exports', () => {
  const stats = parseArsenalStatsCsv(csv('mlb-pitch-arsenal-stats-2025.csv'))!;
  const speeds = parseAvgSpeedCsv(csv('mlb-pitch-arsenals-avg-speed-2025.csv'))!;
  const index = buildArsenalIndex(stats, speeds);

  it('parses every row of both files', () => {
    expect(stats).toHaveLength(3575);
    expect(new Set(stats.map((r) => r.mlbamId)).size).toBe(826);
    expect(speeds).toHaveLength(344);
    // The 2025 avg-speed file starts with a BOM; the first header still reads as "last_name, first_name".
    expect(speeds.find((s) => s.mlbamId === 657277)).toEqual({
      mlbamId: 657277,
      pitcherName: 'Webb, Logan',
      speeds: { ff: 92.8, si: 92.6, fc: 91.1, ch: 86.5, st: 84.6 },
    });
  });

  it("joins Kevin Gausman's arsenal with velocity, ranked by usage", () => {
    const a = pitcherArsenal(index, 592332);
    expect(pitcherArsenalSchema.safeParse(a).success).toBe(true);
    expect(a.found).toBe(true);
    if (!a.found) return;
    expect(a.pitcher).toEqual({ mlbamId: 592332, name: 'Kevin Gausman', key: 'kevin gausman', team: 'TOR' });
    expect(a.pitches[0]).toEqual({ pitchType: 'FF', pitchName: '4-Seam Fastball', usagePct: 53.7, whiffPct: 16.9, velocity: 94.5, kPct: 19 });
    expect(a.pitches.map((p) => p.pitchType)).toEqual(['FF', 'FS', 'SL', 'SI']);
    // PA-weighted per-pitch K%: 24.5 for his 2025 rows.
    expect(a.strikeoutPct).toBe(24.5);
  });

  it('leaves velocity null where the speed CSV has no cell (Senga FS) or no row (Pomeranz)', () => {
    const senga = pitcherArsenal(index, 673540);
    if (!senga.found) throw new Error('Senga should be found');
    expect(senga.pitches.find((p) => p.pitchType === 'FS')).toMatchObject({ usagePct: 28.5, whiffPct: 41.8, velocity: null });
    expect(senga.pitches.find((p) => p.pitchType === 'FF')?.velocity).toBe(94.7);
    const pomeranz = pitcherArsenal(index, 519141);
    if (!pomeranz.found) throw new Error('Pomeranz should be found');
    expect(pomeranz.pitches.map((p) => p.velocity)).toEqual([null, null]);
  });

  it('leaves an empty whiff cell null, never 0 (Brad Lord SV)', () => {
    const lord = pitcherArsenal(index, 695418);
    if (!lord.found) throw new Error('Lord should be found');
    expect(lord.pitches.find((p) => p.pitchType === 'SV')).toMatchObject({ whiffPct: null, usagePct: 0.1 });
    expect(stats.filter((r) => r.whiffPct === null)).toHaveLength(10);
  });

  it('maps Savant team codes to ESPN abbreviations (AZ -> ARI, CWS -> CHW)', () => {
    expect(stats.find((r) => r.savantTeam === 'AZ')?.team).toBe('ARI');
    expect(stats.find((r) => r.savantTeam === 'CWS')?.team).toBe('CHW');
  });

  it('answers {found:false} for an unknown pitcher', () => {
    expect(pitcherArsenal(index, 1)).toEqual({ found: false });
  });
});

describe('Savant 2022 exports (older format: unquoted split name header, CUKC grouping)', () => {
  it('rebuilds the name and joins CUKC to the cu speed column', () => {
    const stats = parseArsenalStatsCsv(csv('mlb-pitch-arsenal-stats-2022.csv'))!;
    const speeds = parseAvgSpeedCsv(csv('mlb-pitch-arsenals-avg-speed-2022.csv'))!;
    expect(stats).toHaveLength(2146);
    expect(speeds).toHaveLength(545);
    const a = pitcherArsenal(buildArsenalIndex(stats, speeds), 607074);
    if (!a.found) throw new Error('Rodon should be found');
    expect(a.pitcher.name).toBe('Carlos Rodón');
    expect(a.pitches).toEqual([
      { pitchType: 'FF', pitchName: '4-Seamer', usagePct: 60.8, whiffPct: 25.8, velocity: 95.7, kPct: 29.1 },
      { pitchType: 'SL', pitchName: 'Slider', usagePct: 31.6, whiffPct: 39.8, velocity: 85.4, kPct: 37.5 },
      { pitchType: 'CUKC', pitchName: 'Curveball', usagePct: 5.8, whiffPct: 25, velocity: 80.1, kPct: 31.6 },
    ]);
  });
});

describe('Savant faults and fetch', () => {
  it('returns null with a warning for unreadable CSV or unknown columns', () => {
    for (const [text, fn] of [
      ['"unterminated,quote\n1,2', parseArsenalStatsCsv],
      ['a,b\n1,2\n', parseArsenalStatsCsv],
      ['a,b\n1,2\n', parseAvgSpeedCsv],
    ] as const) {
      const log = collectingLog();
      expect(fn(text, log)).toBeNull();
      expect(log.warnings).toHaveLength(1);
    }
    expect(parseArsenalStatsCsv('')).toEqual([]);
  });

  it('fetches both CSVs as text through the transport and joins them', async () => {
    const { transport, requests } = fixtureTransport({
      [arsenalStatsUrl(2025)]: { provider: 'savant', file: 'mlb-pitch-arsenal-stats-2025.csv' },
      [avgSpeedUrl(2025)]: { provider: 'savant', file: 'mlb-pitch-arsenals-avg-speed-2025.csv' },
    });
    const index = await fetchArsenalIndex(transport, 2025);
    expect(index && pitcherArsenal(index, 592332).found).toBe(true);
    expect(requests.map((r) => [r.provider, r.accept])).toEqual([
      ['savant', 'text'],
      ['savant', 'text'],
    ]);
    const log = collectingLog();
    const half = fixtureTransport({ [arsenalStatsUrl(2025)]: { provider: 'savant', file: 'mlb-pitch-arsenal-stats-2025.csv' } });
    expect(await fetchArsenalIndex(half.transport, 2025, log)).toBeNull();
    expect(log.warnings[0]?.msg).toMatch(/avg speed: unavailable/);
  });
});
