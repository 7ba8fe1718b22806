import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBoxscore } from '../../../src/feeds/mlb-statsapi/boxscore.js';
import { pitcherOutsOf } from '../../../src/feeds/mlb-statsapi/common.js';

/**
 * Pitcher outs (issue 43) from real MLB Stats API box scores (test/fixtures/mlb-statsapi, PROVENANCE.md):
 * each pitcher's outs come from his `inningsPitched` ("6.2" = 20), and a side's pitchers' outs add up
 * to the team's own pitching total in the same payload.
 */
const FIX = join('test', 'fixtures', 'mlb-statsapi');
type RawPitching = { inningsPitched?: string; outs?: number };
type RawTeam = { pitchers: number[]; players: Record<string, { stats: { pitching: RawPitching } }>; teamStats: { pitching: RawPitching } };
const load = (f: string) => JSON.parse(readFileSync(join(FIX, f), 'utf8')) as { teams: Record<'home' | 'away', RawTeam> };

describe.each([
  ['mlb-boxscore-716896-2023-08-22.json', 716896, '2023-08-22'],
  ['mlb-boxscore-744914-2024-07-01.json', 744914, '2024-07-01'],
] as const)('pitcher_outs from %s', (file, gamePk, date) => {
  const raw = load(file);
  const lines = parseBoxscore(raw, { gamePk, date })!;

  it('each pitcher: outs = 3 x whole innings + the thirds, as the raw payload writes them', () => {
    let checked = 0;
    for (const side of ['home', 'away'] as const) {
      for (const id of raw.teams[side].pitchers) {
        const p = raw.teams[side].players[`ID${id}`]!.stats.pitching;
        const [whole, third] = p.inningsPitched!.split('.');
        const expected = Number(whole) * 3 + Number(third ?? '0');
        // The payload's own `outs` agrees where it is given.
        if (p.outs !== undefined) expect(p.outs).toBe(expected);
        const line = lines.find((l) => l.mlbamId === id);
        expect(line?.stat.stats.pitcher_outs, `${id} ${p.inningsPitched}`).toBe(expected);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });

  it("a side's pitchers' outs add up to its team pitching total", () => {
    for (const side of ['home', 'away'] as const) {
      const total = lines.filter((l) => l.side === side).reduce((s, l) => s + (l.stat.stats.pitcher_outs ?? 0), 0);
      const team = raw.teams[side].teamStats.pitching;
      const [whole, third] = team.inningsPitched!.split('.');
      expect(total).toBe(Number(whole) * 3 + Number(third ?? '0'));
    }
  });

  it('a batter who did not pitch has no outs recorded, not zero', () => {
    const batter = lines.find((l) => !raw.teams[l.side].pitchers.includes(l.mlbamId));
    expect(batter).toBeDefined();
    expect(batter!.stat.stats.pitcher_outs).toBeUndefined();
  });
});

describe('outs notation', () => {
  it('hides the outcome when innings and the payload’s outs disagree, and falls back to outs alone', () => {
    expect(pitcherOutsOf({ inningsPitched: '5.2', outs: 16 })).toBeNull();
    expect(pitcherOutsOf({ inningsPitched: '5.2', outs: 17 })).toBe(17);
    expect(pitcherOutsOf({ outs: 12 })).toBe(12);
    expect(pitcherOutsOf({})).toBeNull();
  });
});
