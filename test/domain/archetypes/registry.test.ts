import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ARCHETYPES,
  BASKETBALL_FEATURES,
  COMBAT_FEATURES,
  COMBAT_STYLES,
  MLB_BATTER_FEATURES,
  MLB_PITCHER_FEATURES,
  SOCCER_FEATURES,
  archetypeById,
  archetypesFor,
  describeRule,
  resolveArchetype,
  resolveCombatStyle,
} from '../../../src/domain/archetypes/index.js';

const nba = ARCHETYPES.filter((a) => a.sports.includes('nba'));
const wnbaOnly = ARCHETYPES.filter((a) => a.sports.length === 1 && a.sports[0] === 'wnba');
const mlb = ARCHETYPES.filter((a) => a.sports.includes('mlb'));
const soccer = ARCHETYPES.filter((a) => a.sports.includes('soccer'));

describe('archetype registry', () => {
  it('holds 41: 15 NBA, 5 WNBA-only, 15 MLB, 6 soccer; and 6 combat styles apart', () => {
    expect(ARCHETYPES).toHaveLength(41);
    expect(nba).toHaveLength(15);
    expect(wnbaOnly).toHaveLength(5);
    expect(mlb).toHaveLength(15);
    expect(soccer).toHaveLength(6);
    expect(COMBAT_STYLES).toHaveLength(6);
  });

  it('NBA archetypes are open to WNBA players; WNBA-only ones are not open to NBA players', () => {
    for (const a of nba) expect(a.sports).toEqual(['nba', 'wnba']);
    expect(archetypesFor('wnba')).toHaveLength(20);
    expect(archetypesFor('nba').some((a) => wnbaOnly.includes(a))).toBe(false);
  });

  it('MLB splits into 9 batter and 6 pitcher archetypes, with BOMBER and WHIFF', () => {
    expect(archetypesFor('mlb', 'batter')).toHaveLength(9);
    expect(archetypesFor('mlb', 'pitcher')).toHaveLength(6);
    expect(archetypeById('BOMBER')).toMatchObject({ label: 'Bomber', role: 'batter' });
    expect(archetypeById('WHIFF')).toMatchObject({ label: 'Whiff', role: 'pitcher' });
    expect(archetypesFor('mlb')).toEqual([]);
  });

  it('ids, legacy names and colours are unique across both registries', () => {
    const all = [...ARCHETYPES, ...COMBAT_STYLES];
    const forms = all.flatMap((a) => [a.id.toLowerCase(), a.legacyName]);
    expect(new Set(forms).size).toBe(forms.length);
    expect(new Set(all.map((a) => a.color)).size).toBe(all.length);
    expect(new Set(all.map((a) => a.label)).size).toBe(all.length);
  });

  it('every rule reads features its sport computes and has at least one scored condition', () => {
    const featuresOf = (a: (typeof ARCHETYPES)[number]): readonly string[] => {
      if (a.sports.includes('soccer')) return SOCCER_FEATURES;
      if (a.role === 'batter') return MLB_BATTER_FEATURES;
      if (a.role === 'pitcher') return MLB_PITCHER_FEATURES;
      return BASKETBALL_FEATURES;
    };
    for (const a of ARCHETYPES) {
      for (const c of a.rule) expect(featuresOf(a)).toContain(c.feature);
      expect(a.rule.some((c) => !c.gate)).toBe(true);
    }
    for (const s of COMBAT_STYLES) {
      for (const c of s.rule) expect(COMBAT_FEATURES).toContain(c.feature);
      expect(s.rule.some((c) => !c.gate)).toBe(true);
    }
  });
});

describe('resolveArchetype', () => {
  it('resolves every legacy name and id to its archetype', () => {
    for (const a of ARCHETYPES) {
      expect(resolveArchetype(a.legacyName)).toBe(a);
      expect(resolveArchetype(a.id)).toBe(a);
    }
  });

  it('is case-insensitive and reads spaces/hyphens as underscores', () => {
    expect(resolveArchetype('Power Hitter')?.id).toBe('BOMBER');
    expect(resolveArchetype('strikeout-pitcher')?.id).toBe('WHIFF');
    expect(resolveArchetype('bomber')?.id).toBe('BOMBER');
  });

  it('returns null for an unknown name (and combat names are a separate registry)', () => {
    expect(resolveArchetype('point_god')).toBeNull();
    expect(resolveArchetype('STRIKER')).toBeNull();
    expect(resolveCombatStyle('STRIKER')?.label).toBe('Striker');
    expect(resolveCombatStyle('bjj base')?.id).toBe('GRAPPLER');
    expect(resolveCombatStyle('BOMBER')).toBeNull();
  });
});

describe('docs/archetypes.md', () => {
  const doc = readFileSync(new URL('../../../docs/archetypes.md', import.meta.url), 'utf8');

  it('documents every archetype and combat style with its label, legacy name and rule', () => {
    for (const a of [...ARCHETYPES, ...COMBAT_STYLES]) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${a.id}\` |`));
      expect(row, a.id).toBeDefined();
      expect(row).toContain(a.label);
      expect(row).toContain(`\`${a.legacyName}\``);
      expect(row).toContain(describeRule(a.rule));
      expect(row).toContain(a.color);
    }
  });
});
