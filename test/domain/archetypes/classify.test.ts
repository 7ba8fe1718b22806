import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { PlayerGameStat } from '../../../src/domain/entities.js';
import {
  ARCHETYPES,
  classify,
  classifyFeatures,
  classifyPlayer,
  profileFromGameStats,
  type MlbBatterProfile,
  type MlbPitcherProfile,
  type NbaProfile,
} from '../../../src/domain/archetypes/index.js';
import { normalizeName } from '../../../src/domain/names.js';

const FIX = new URL('../../fixtures/archetypes/', import.meta.url);

/** NBA.com game-log rows -> PlayerGameStat, turnovers under the log's own `tov` column name. */
function gameLogRows(): PlayerGameStat[] {
  const records = parse(readFileSync(new URL('nba-game-logs-4-players-2024-25-excerpt.csv', FIX)), { columns: true }) as Record<string, string>[];
  return records.map((r) => ({
    sport: 'nba',
    playerKey: normalizeName(r.player!).key,
    playerName: r.player!,
    team: r.matchup!.slice(0, 3),
    opponent: r.opponent!,
    date: r.date!,
    gameId: null,
    minutes: Number(r.minutes),
    stats: {
      points: Number(r.pts),
      rebounds: Number(r.reb),
      assists: Number(r.ast),
      threes: Number(r.threes_made),
      blocks: Number(r.blk),
      steals: Number(r.stl),
    },
    extras: { fga: Number(r.fga), fta: Number(r.fta), threes_attempted: Number(r.threes_attempted), tov: Number(r.tov) },
    source: 'nba_api PlayerGameLog (fixture excerpt)',
  }));
}

const rows = gameLogRows();
const of = (player: string) => rows.filter((r) => r.playerName === player);

describe('profileFromGameStats on real NBA game logs', () => {
  it('averages the 15 real games per player', () => {
    // Independent check: Rudy Gobert's last 15 games of 2024-25 (2025-03-14 .. 2025-04-13).
    const p = profileFromGameStats('nba', of('Rudy Gobert'));
    expect(p).not.toBeNull();
    expect(p!.games).toBe(15);
    expect(p!.minutes).toBeCloseTo(33.8667, 4);
    expect(p!.points).toBeCloseTo(15.6667, 4);
    expect(p!.rebounds).toBeCloseTo(12.9333, 4);
    expect(p!.threes_attempted).toBe(0);
    expect(p!.fga).toBeCloseTo(8.9333, 4);
    expect(p!.fta).toBeCloseTo(4.6667, 4);
    expect(p!.turnovers).toBeCloseTo(0.8667, 4);
  });

  it('ignores rows of another sport and returns null with no played game', () => {
    const gobert = of('Rudy Gobert');
    expect(profileFromGameStats('wnba', gobert)).toBeNull();
    expect(profileFromGameStats('nba', [])).toBeNull();
    // A real 0-minute line is a DNP: it never counts as a played game.
    const dnp = { ...gobert[0]!, minutes: 0 };
    expect(profileFromGameStats('nba', [dnp, ...gobert])!.games).toBe(15);
  });

  it('a missing extra makes that field null, not a partial mean', () => {
    const gobert = of('Rudy Gobert');
    const withoutFga = gobert.map((r, i) => (i === 0 ? { ...r, extras: { ...r.extras, fga: null } } : r));
    const p = profileFromGameStats('nba', withoutFga)!;
    expect(p.fga).toBeNull();
    expect(p.points).toBeCloseTo(15.6667, 4);
  });
});

describe('classify on real NBA profiles', () => {
  it('a centre: Rudy Gobert is a rim runner who cleans the glass', () => {
    const c = classifyPlayer('nba', of('Rudy Gobert'));
    expect(c).toEqual({
      primary: 'RIM_RUNNER',
      secondary: 'GLASS_CLEANER',
      blend: [
        { id: 'RIM_RUNNER', weight: expect.closeTo(0.571, 3) },
        { id: 'GLASS_CLEANER', weight: expect.closeTo(0.429, 3) },
      ],
    });
  });

  it('a guard: Stephen Curry is a sniper and volume scorer', () => {
    const c = classifyPlayer('nba', of('Stephen Curry'));
    expect(c?.primary).toBe('SNIPER');
    expect(c?.secondary).toBe('VOLUME_SCORER');
    expect(c?.blend.map((b) => b.id)).toEqual(['SNIPER', 'VOLUME_SCORER']);
  });

  it('a playmaking centre and a lead guard', () => {
    expect(classifyPlayer('nba', of('Nikola Jokic'))?.blend.map((b) => b.id)).toEqual(['HUB_BIG', 'VOLUME_SCORER', 'STRETCH_BIG']);
    const trae = classifyPlayer('nba', of('Trae Young'));
    expect(trae?.primary).toBe('ENGINE');
    expect(trae?.secondary).toBe('VOLUME_SCORER');
  });

  it('blend weights are ordered and sum to 1 (to rounding)', () => {
    for (const player of ['Rudy Gobert', 'Stephen Curry', 'Nikola Jokic', 'Trae Young']) {
      const blend = classifyPlayer('nba', of(player))!.blend;
      const weights = blend.map((b) => b.weight);
      expect([...weights].sort((a, b) => b - a)).toEqual(weights);
      expect(weights.reduce((s, w) => s + w, 0)).toBeCloseTo(1, 2);
      expect(blend.length).toBeLessThanOrEqual(3);
    }
  });

  it('thin data is null: 4 games, or a malformed profile', () => {
    const gobert = of('Rudy Gobert');
    expect(classifyPlayer('nba', gobert.slice(0, 4))).toBeNull();
    expect(classifyPlayer('nba', gobert.slice(0, 5))?.primary).toBe('RIM_RUNNER');
    expect(classify('nba', {})).toBeNull();
    const p = profileFromGameStats('nba', gobert)!;
    expect(classify('nba', { ...p, games: 4 })).toBeNull();
    expect(classify('nba', { ...p, minutes: 6 })).toBeNull();
    expect(classify('soccer', p)).toBeNull();
  });

  it('missing extras only switch off the rules that need them', () => {
    const p = profileFromGameStats('nba', of('Rudy Gobert'))!;
    const c = classify('nba', { ...p, fga: null, fta: null, turnovers: null, threes_attempted: null });
    // RIM_RUNNER needs three_rate and usage36; GLASS_CLEANER only rebounds.
    expect(c?.blend.map((b) => b.id)).toEqual(['GLASS_CLEANER']);
  });
});

describe('WNBA: a real career profile (ESPN athlete 2491205)', () => {
  // feeds/espn/wnba-athlete-core-statistics-2491205.json: career totals over gamesPlayed 300.
  const json = JSON.parse(readFileSync(new URL('wnba-athlete-core-statistics-2491205.json', FIX), 'utf8')) as {
    splits: { categories: Array<{ stats: Array<{ name: string; value: number }> }> };
  };
  const stat = (name: string): number => {
    for (const c of json.splits.categories) {
      const s = c.stats.find((x) => x.name === name);
      if (s) return s.value;
    }
    throw new Error(`no ${name}`);
  };
  const g = stat('gamesPlayed');
  const profile: NbaProfile = {
    games: g,
    minutes: stat('minutes') / g,
    points: stat('points') / g,
    rebounds: stat('rebounds') / g,
    assists: stat('assists') / g,
    threes: stat('threePointFieldGoalsMade') / g,
    threes_attempted: stat('threePointFieldGoalsAttempted') / g,
    fga: stat('fieldGoalsAttempted') / g,
    fta: stat('freeThrowsAttempted') / g,
    blocks: stat('blocks') / g,
    steals: stat('steals') / g,
    turnovers: stat('turnovers') / g,
  };

  it('reads 300 games at 31.99 minutes', () => {
    expect(g).toBe(300);
    expect(profile.minutes).toBeCloseTo(31.99, 2);
    expect(profile.points).toBeCloseTo(16.52, 2);
  });

  it('takes NBA archetypes and a WNBA-only one as a WNBA player', () => {
    const c = classify('wnba', profile);
    expect(c?.blend.map((b) => b.id)).toEqual(['SLASHER', 'COMBO_CREATOR', 'TRANSITION_GUARD']);
    const wnbaOnly = new Set(ARCHETYPES.filter((a) => a.sports.length === 1).map((a) => a.id));
    expect(wnbaOnly.has('TRANSITION_GUARD')).toBe(true);
    // The same numbers under NBA rules never produce a WNBA-only archetype.
    expect(classify('nba', profile)?.blend.map((b) => b.id)).toEqual(['SLASHER', 'COMBO_CREATOR']);
  });
});

describe('MLB: real 2022 season totals (MLB Stats API) per game', () => {
  function season(file: string): Record<string, number | string> {
    const json = JSON.parse(readFileSync(new URL(file, FIX), 'utf8').replace(/^\uFEFF/, '')) as {
      stats: Array<{ type: { displayName: string }; splits: Array<{ stat: Record<string, number | string>; team?: unknown }> }>;
    };
    const split = json.stats.find((s) => s.type.displayName === 'season')?.splits.find((s) => s.team === undefined) ?? json.stats.find((s) => s.type.displayName === 'season')?.splits[0];
    if (!split) throw new Error('no season split');
    return split.stat;
  }

  it('Juan Soto 2022 (153 G, 664 PA, 135 BB): table setter with gap power', () => {
    const s = season('mlb-people-stats-hitting-season-career-2022.json');
    const g = Number(s.gamesPlayed);
    const p: MlbBatterProfile = {
      role: 'batter',
      games: g,
      pa: Number(s.plateAppearances) / g,
      hr: Number(s.homeRuns) / g,
      so: Number(s.strikeOuts) / g,
      bb: Number(s.baseOnBalls) / g,
      hits: Number(s.hits) / g,
      total_bases: Number(s.totalBases) / g,
    };
    expect(g).toBe(153);
    // 27 HR in 664 PA is 4.1%: short of the BOMBER line (4.5%).
    expect(classify('mlb', p)).toEqual({
      primary: 'TABLE_SETTER',
      secondary: 'GAP_POWER',
      blend: [
        { id: 'TABLE_SETTER', weight: expect.any(Number) },
        { id: 'GAP_POWER', weight: expect.any(Number) },
        { id: 'EVERYDAY_BAT', weight: expect.any(Number) },
      ],
    });
  });

  it('the 2022 pitching season (28 GS, 219 K, 660 BF) is a WHIFF', () => {
    const s = season('mlb-people-stats-pitching-season-career-2022.json');
    const g = Number(s.gamesPlayed);
    const p: MlbPitcherProfile = {
      role: 'pitcher',
      games: g,
      innings: Number(s.outs) / 3 / g,
      batters_faced: Number(s.battersFaced) / g,
      strikeouts: Number(s.strikeOuts) / g,
      walks: Number(s.baseOnBalls) / g,
      k_pct: Number(s.strikeOuts) / Number(s.battersFaced),
      whiff_pct: null,
    };
    expect(p.k_pct).toBeCloseTo(0.3318, 4);
    expect(classify('mlb', p)).toEqual({ primary: 'WHIFF', secondary: null, blend: [{ id: 'WHIFF', weight: 1 }] });
  });
});

describe('profileFromGameStats for MLB and soccer', () => {
  // One real box-score line each (statsapi style): the aggregator's arithmetic and role choice.
  const base = { playerKey: 'x', playerName: 'X', team: null, opponent: null, gameId: null, source: 'test' } as const;
  const batterLine = (pa: number, h: number, hr: number, tb: number, bb: number, so: number): PlayerGameStat => ({
    ...base, sport: 'mlb', date: '2024-07-01', minutes: null, stats: { hits: h, home_runs: hr, total_bases: tb }, extras: { pa, bb, so },
  });

  it('infers the batter role and averages per game; pitching lines build a pitcher', () => {
    const p = profileFromGameStats('mlb', [batterLine(4, 2, 1, 5, 0, 1), batterLine(5, 1, 0, 2, 1, 2)]);
    expect(p).toEqual({ role: 'batter', games: 2, pa: 4.5, hr: 0.5, so: 1.5, bb: 0.5, hits: 1.5, total_bases: 3.5 });
    const pitch: PlayerGameStat = { ...base, sport: 'mlb', date: '2024-07-01', minutes: null, stats: { strikeouts: 7 }, extras: { outs: 18, batters_faced: 24, walks_allowed: 2 } };
    expect(profileFromGameStats('mlb', [pitch])).toEqual({ role: 'pitcher', games: 1, innings: 6, batters_faced: 24, strikeouts: 7, walks: 2, k_pct: 7 / 24, whiff_pct: null });
  });

  it('an even split of batting and pitching lines needs the role said, never guessed', () => {
    const pitch: PlayerGameStat = { ...base, sport: 'mlb', date: '2024-07-02', minutes: null, stats: { strikeouts: 7 }, extras: { outs: 18 } };
    const mixed = [batterLine(4, 2, 1, 5, 0, 1), pitch];
    expect(profileFromGameStats('mlb', mixed)).toBeNull();
    expect(profileFromGameStats('mlb', mixed, { mlbRole: 'pitcher' })?.role).toBe('pitcher');
  });

  it('soccer without minutes (ESPN summaries give none) has no profile', () => {
    const line: PlayerGameStat = { ...base, sport: 'soccer', date: '2025-09-21', minutes: null, stats: { shots: 3, shots_on_target: 1 }, extras: { goals: 1 } };
    expect(profileFromGameStats('soccer', [line])).toBeNull();
  });
});

describe('classifyFeatures engine', () => {
  // Rule-boundary checks on explicit feature values (the thresholds, not player data).
  const soccer = ARCHETYPES.filter((a) => a.sports.includes('soccer'));

  it('matches at the threshold, misses just below it', () => {
    const atLine = { minutes: 80, shots90: 2.8, sot90: 1, sot_share: 1 / 3, goals90: 0.2, goals_per_shot: 0.07, tackles90: 1 };
    expect(classifyFeatures(soccer, atLine)?.primary).toBe('VOLUME_SHOOTER');
    expect(classifyFeatures(soccer, { ...atLine, shots90: 2.79 })).toBeNull();
  });

  it('gates scope without adding strength; ties keep registry order', () => {
    const sub = { minutes: 30, shots90: 2.4, sot90: 1, sot_share: 0.25, goals90: null, goals_per_shot: null, tackles90: null };
    // IMPACT_SUB and SPECULATOR both score shots90 / 2 = 1.2; IMPACT_SUB's minutes gate adds nothing.
    const c = classifyFeatures(soccer, sub);
    expect(c?.blend.map((b) => b.id)).toEqual(['SPECULATOR', 'IMPACT_SUB']);
    expect(c?.blend.map((b) => b.weight)).toEqual([0.5, 0.5]);
  });
});
