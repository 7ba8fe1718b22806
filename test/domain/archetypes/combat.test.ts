import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMBAT_STYLES, classify, classifyCombat, combatFeatures, type CombatProfile } from '../../../src/domain/archetypes/index.js';

const unknown: Omit<CombatProfile, 'fights'> = {
  wins: null,
  ko_wins: null,
  sub_wins: null,
  dec_wins: null,
  slpm: null,
  sapm: null,
  td15: null,
  sub_att15: null,
  distance_share: null,
  clinch_share: null,
  ground_share: null,
  avg_fight_minutes: null,
};

describe('combat styles on the real UFC card (ESPN 2025-09-27)', () => {
  // test/fixtures/espn/mma-ufc-scoreboard-2025-09-27.json (byte copy of feeds/espn): each competitor
  // carries only an overall W-L-D record, no method split and no strike/takedown rates.
  const card = JSON.parse(readFileSync(new URL('../../fixtures/espn/mma-ufc-scoreboard-2025-09-27.json', import.meta.url), 'utf8')) as {
    events: Array<{ competitions: Array<{ competitors: Array<{ athlete: { displayName: string }; records?: Array<{ summary: string }> }> }> }>;
  };
  const fighters = card.events.flatMap((e) => e.competitions.flatMap((c) => c.competitors));

  it('a record alone is one family short: every fighter gets an empty result', () => {
    expect(fighters.length).toBeGreaterThan(0);
    const loma = fighters.find((f) => f.athlete.displayName === 'Loma Lookboonmee');
    expect(loma?.records?.[0]?.summary).toBe('10-3-0');
    for (const f of fighters) {
      const [w, l, d] = (f.records?.[0]?.summary ?? '0-0-0').split('-').map(Number);
      const profile: CombatProfile = { ...unknown, fights: (w ?? 0) + (l ?? 0) + (d ?? 0), wins: w ?? null };
      expect(classify('mma', profile)).toBeNull();
    }
  });
});

describe('combat classify rules', () => {
  // Rule checks on explicit feature values: no bundled feed carries per-fight rates yet.
  it('thin data is empty: fewer than 3 fights, or fewer than two feature families', () => {
    const rich: CombatProfile = { ...unknown, fights: 12, wins: 10, ko_wins: 6, sub_wins: 1, dec_wins: 3, slpm: 5.4, sapm: 3.9, distance_share: 0.7, clinch_share: 0.18, ground_share: 0.12, td15: 0.2 };
    expect(classifyCombat(rich)?.primary).toBeDefined();
    expect(classifyCombat({ ...rich, fights: 2 })).toBeNull();
    // outcome only
    expect(classifyCombat({ ...unknown, fights: 12, wins: 10, ko_wins: 6, sub_wins: 1, dec_wins: 3 })).toBeNull();
  });

  it('blends range, tempo and outcome', () => {
    const brawler: CombatProfile = { ...unknown, fights: 12, wins: 10, ko_wins: 6, sub_wins: 1, dec_wins: 3, slpm: 5.4, sapm: 3.9, distance_share: 0.7, clinch_share: 0.18, ground_share: 0.12, td15: 0.2 };
    const f = combatFeatures(brawler);
    expect(f.ko_rate).toBeCloseTo(0.6, 10);
    const c = classifyCombat(brawler);
    // STRIKER: sqrt(0.7/0.6 * 0.6/0.4) = 1.323; PRESSURE: sqrt(5.4/5 * 0.18/0.15) = 1.138.
    expect(c?.primary).toBe('STRIKER');
    expect(c?.blend.map((b) => b.id)).toEqual(['STRIKER', 'PRESSURE']);
    expect(c?.blend[0]?.weight).toBeCloseTo(1.3229 / (1.3229 + 1.1384), 2);
  });

  it('grappler and wrestler come from the ground and takedown side', () => {
    const grappler: CombatProfile = { ...unknown, fights: 9, wins: 8, ko_wins: 1, sub_wins: 5, dec_wins: 2, td15: 2.5, ground_share: 0.35 };
    expect(classifyCombat(grappler)?.blend.map((b) => b.id)).toEqual(['GRAPPLER', 'WRESTLER']);
  });

  it('registry has six styles with distinct ids', () => {
    expect(COMBAT_STYLES.map((s) => s.id)).toEqual(['STRIKER', 'KICKBOXER', 'WRESTLER', 'GRAPPLER', 'PRESSURE', 'COUNTER']);
  });
});
