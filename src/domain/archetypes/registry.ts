import { z } from 'zod';
import type { GradedSport } from '../sports.js';
import type { BasketballFeature, MlbBatterFeature, MlbPitcherFeature, SoccerFeature } from './features.js';
import { atLeast, atMost, gate, type TypedCriterion } from './rules.js';
import { archetypeSchema, type Archetype, type MlbRole } from './schema.js';

/**
 * The 41 player archetypes: 15 NBA (also open to WNBA players), 5 WNBA-only, 15 MLB (9 batter,
 * 6 pitcher) and 6 soccer. Thresholds were set on real 2024-25 NBA game logs (per-36 rates of
 * players with 20+ games) so each NBA type is roughly the top decile of its signal; MLB thresholds
 * sit near the top decile of league norms. Soccer thresholds were checked on real EPL 2024-25
 * player match stats (scripts/research/epl-soccer-per90.mjs over ../shared/history
 * epl_player_match_stats_2024-25_2025-26.csv.gz: 468 players with 5+ appearances of 10+ minutes);
 * see the Soccer block below. docs/archetypes.md lists every rule.
 */

interface Def<F extends string> {
  id: string;
  label: string;
  color: string;
  legacyName: string;
  summary: string;
  rule: TypedCriterion<F>[];
}

const basketball = (d: Def<BasketballFeature>) => ({ ...d, sports: ['nba', 'wnba'] as GradedSport[], role: null });
const wnbaOnly = (d: Def<BasketballFeature>) => ({ ...d, sports: ['wnba'] as GradedSport[], role: null });
const batter = (d: Def<MlbBatterFeature>) => ({ ...d, sports: ['mlb'] as GradedSport[], role: 'batter' as const });
const pitcher = (d: Def<MlbPitcherFeature>) => ({ ...d, sports: ['mlb'] as GradedSport[], role: 'pitcher' as const });
const soccer = (d: Def<SoccerFeature>) => ({ ...d, sports: ['soccer'] as GradedSport[], role: null });

const RAW = [
  // --- NBA (and WNBA) ---
  basketball({ id: 'ENGINE', label: 'Heliocentric Engine', color: '#e4572e', legacyName: 'heliocentric_creator',
    summary: 'Ball-dominant star who both uses a huge share of possessions and creates for others.',
    rule: [atLeast('usage36', 24), atLeast('ast36', 6.5)] }),
  basketball({ id: 'VOLUME_SCORER', label: 'Volume Scorer', color: '#d7263d', legacyName: 'bucket_getter',
    summary: 'Scores at a high per-minute rate in a real rotation role.',
    rule: [atLeast('pts36', 22), gate(atLeast('minutes', 20))] }),
  basketball({ id: 'COMBO_CREATOR', label: 'Combo Creator', color: '#f46036', legacyName: 'combo_guard',
    summary: 'Secondary creator: above-average usage and real playmaking, below engine load.',
    rule: [atLeast('usage36', 19), atLeast('ast36', 4.5), gate(atMost('usage36', 24))] }),
  basketball({ id: 'FLOOR_GENERAL', label: 'Floor General', color: '#2e86ab', legacyName: 'pass_first_pg',
    summary: 'Pass-first organiser: elite assist rate without engine-level usage.',
    rule: [atLeast('ast36', 7.5), gate(atMost('usage36', 24))] }),
  basketball({ id: 'SNIPER', label: 'Sniper', color: '#1b998b', legacyName: 'volume_shooter_3pt',
    summary: 'High-volume three-point shooter whose shot diet is mostly threes.',
    rule: [atLeast('threes_att36', 8.5), atLeast('three_rate', 0.55)] }),
  basketball({ id: 'SPOT_UP', label: 'Spot-Up Shooter', color: '#3bb273', legacyName: 'catch_and_shoot',
    summary: 'Low-usage floor spacer: half or more of the shots are threes.',
    rule: [atLeast('three_rate', 0.5), gate(atMost('usage36', 17))] }),
  basketball({ id: 'SLASHER', label: 'Slasher', color: '#ff9f1c', legacyName: 'downhill_driver',
    summary: 'Perimeter scorer who lives at the rim and the line rather than behind the arc.',
    rule: [atLeast('ft_rate', 0.33), atLeast('pts36', 16), gate(atMost('three_rate', 0.4)), gate(atMost('reb36', 8))] }),
  basketball({ id: 'THREE_AND_D', label: '3-and-D Wing', color: '#5f0f40', legacyName: 'three_d_wing',
    summary: 'Role wing who makes threes and gets steals without needing the ball.',
    rule: [atLeast('threes36', 2), atLeast('stl36', 1.2), gate(atMost('usage36', 19))] }),
  basketball({ id: 'RIM_PROTECTOR', label: 'Rim Protector', color: '#0f4c5c', legacyName: 'shot_blocker',
    summary: 'Shot blocker.',
    rule: [atLeast('blk36', 1.5)] }),
  basketball({ id: 'GLASS_CLEANER', label: 'Glass Cleaner', color: '#6a4c93', legacyName: 'rebounder',
    summary: 'Elite rebounder.',
    rule: [atLeast('reb36', 12)] }),
  basketball({ id: 'STRETCH_BIG', label: 'Stretch Big', color: '#8ac926', legacyName: 'stretch_five',
    summary: 'Big who rebounds like a big and shoots threes in volume.',
    rule: [atLeast('reb36', 8.5), atLeast('threes_att36', 4.5)] }),
  basketball({ id: 'HUB_BIG', label: 'Hub Big', color: '#1982c4', legacyName: 'point_center',
    summary: 'Big the offence runs through: big-man rebounding plus guard-level assists.',
    rule: [atLeast('reb36', 10), atLeast('ast36', 5.5)] }),
  basketball({ id: 'RIM_RUNNER', label: 'Rim Runner', color: '#4d908e', legacyName: 'lob_threat',
    summary: 'Non-shooting big who rebounds and finishes, with modest usage.',
    rule: [atLeast('reb36', 9), gate(atMost('three_rate', 0.1)), gate(atMost('usage36', 20))] }),
  basketball({ id: 'BALL_HAWK', label: 'Ball Hawk', color: '#9b2226', legacyName: 'pickpocket',
    summary: 'Steals at an elite rate.',
    rule: [atLeast('stl36', 1.9)] }),
  basketball({ id: 'GLUE_GUY', label: 'Glue Guy', color: '#577590', legacyName: 'connector',
    summary: 'Low-usage connector who passes and rebounds.',
    rule: [atLeast('ast36', 3), atLeast('reb36', 5.5), gate(atMost('usage36', 17))] }),

  // --- WNBA-only ---
  wnbaOnly({ id: 'POST_SCORER', label: 'Post Scorer', color: '#c9184a', legacyName: 'back_to_basket',
    summary: 'Back-to-the-basket scorer who draws fouls and rarely shoots threes.',
    rule: [atLeast('pts36', 16), atLeast('ft_rate', 0.25), gate(atMost('three_rate', 0.15))] }),
  wnbaOnly({ id: 'MIDRANGE_MAESTRO', label: 'Midrange Maestro', color: '#ff758f', legacyName: 'midrange_specialist',
    summary: 'Scorer whose volume comes from two-point jumpers: few threes, few free throws.',
    rule: [atLeast('pts36', 15), gate(atMost('three_rate', 0.3)), gate(atMost('ft_rate', 0.25))] }),
  wnbaOnly({ id: 'POSITIONLESS_STAR', label: 'Positionless Star', color: '#7209b7', legacyName: 'unicorn',
    summary: 'Scores, rebounds and passes at once.',
    rule: [atLeast('pts36', 18), atLeast('reb36', 7), atLeast('ast36', 4)] }),
  wnbaOnly({ id: 'TRANSITION_GUARD', label: 'Transition Guard', color: '#f72585', legacyName: 'push_guard',
    summary: 'Guard who creates turnovers and pushes them into assists.',
    rule: [atLeast('stl36', 1.5), atLeast('ast36', 4.5)] }),
  wnbaOnly({ id: 'TWO_WAY_FORWARD', label: 'Two-Way Forward', color: '#4361ee', legacyName: 'switch_forward',
    summary: 'Forward who rebounds and defends both on the ball and at the rim.',
    rule: [atLeast('reb36', 7), atLeast('stl36', 1.2), atLeast('blk36', 0.8)] }),

  // --- MLB batters ---
  batter({ id: 'BOMBER', label: 'Bomber', color: '#b5179e', legacyName: 'power_hitter',
    summary: 'Power hitter: home runs per plate appearance near the top of the league.',
    rule: [atLeast('hr_rate', 0.045)] }),
  batter({ id: 'CONTACT_ARTIST', label: 'Contact Artist', color: '#43aa8b', legacyName: 'contact_hitter',
    summary: 'Rarely strikes out and turns contact into hits.',
    rule: [atMost('k_rate', 0.15), atLeast('hit_rate', 0.26)] }),
  batter({ id: 'TABLE_SETTER', label: 'Table Setter', color: '#90be6d', legacyName: 'leadoff_type',
    summary: 'Gets on base, with walks a real part of it.',
    rule: [atLeast('on_base_rate', 0.36), atLeast('bb_rate', 0.09)] }),
  batter({ id: 'GAP_POWER', label: 'Gap Power', color: '#f9844a', legacyName: 'doubles_hitter',
    summary: 'Extra-base power from doubles and triples more than home runs.',
    rule: [atLeast('iso', 0.18), gate(atMost('hr_rate', 0.045))] }),
  batter({ id: 'THREE_TRUE_OUTCOMES', label: 'Three True Outcomes', color: '#277da1', legacyName: 'all_or_nothing',
    summary: 'Most plate appearances end in a homer, a walk or a strikeout.',
    rule: [atLeast('tto_rate', 0.4)] }),
  batter({ id: 'FREE_SWINGER', label: 'Free Swinger', color: '#f94144', legacyName: 'hacker',
    summary: 'Strikes out a lot and rarely walks.',
    rule: [atLeast('k_rate', 0.27), gate(atMost('bb_rate', 0.07))] }),
  batter({ id: 'SLAP_HITTER', label: 'Slap Hitter', color: '#f8961e', legacyName: 'singles_hitter',
    summary: 'Hits for average with little power.',
    rule: [atLeast('hit_rate', 0.27), gate(atMost('iso', 0.12))] }),
  batter({ id: 'EVERYDAY_BAT', label: 'Everyday Bat', color: '#4d4d4d', legacyName: 'lineup_regular',
    summary: 'Top-of-the-order volume: many plate appearances per game.',
    rule: [atLeast('pa_per_game', 4.2)] }),
  batter({ id: 'PART_TIME_BAT', label: 'Part-Time Bat', color: '#adb5bd', legacyName: 'platoon_bat',
    summary: 'Platoon or bench role: few plate appearances per game played.',
    rule: [atMost('pa_per_game', 3.2)] }),

  // --- MLB pitchers ---
  pitcher({ id: 'WHIFF', label: 'Whiff', color: '#3a0ca3', legacyName: 'strikeout_pitcher',
    summary: 'Strikeout pitcher: strikes out 27%+ of batters faced.',
    rule: [atLeast('k_pct', 0.27)] }),
  pitcher({ id: 'WORKHORSE', label: 'Workhorse', color: '#6c584c', legacyName: 'innings_eater',
    summary: 'Goes six innings or more per start.',
    rule: [atLeast('ip_per_game', 6)] }),
  pitcher({ id: 'COMMAND_ARTIST', label: 'Command Artist', color: '#2a9d8f', legacyName: 'control_pitcher',
    summary: 'Walks 6% of batters or fewer.',
    rule: [atMost('bb_pct', 0.06)] }),
  pitcher({ id: 'CONTACT_MANAGER', label: 'Pitch-to-Contact', color: '#e9c46a', legacyName: 'sinkerballer',
    summary: 'Starter who gets outs on balls in play rather than strikeouts.',
    rule: [atMost('k_pct', 0.19), gate(atLeast('ip_per_game', 4.5))] }),
  pitcher({ id: 'EFFECTIVELY_WILD', label: 'Effectively Wild', color: '#e76f51', legacyName: 'wild_thing',
    summary: 'Walks plenty but misses bats too.',
    rule: [atLeast('bb_pct', 0.1), atLeast('k_pct', 0.24)] }),
  pitcher({ id: 'SHORT_LEASH', label: 'Short Leash', color: '#264653', legacyName: 'five_and_dive',
    summary: 'Starter pulled early: three to five innings per outing.',
    rule: [atMost('ip_per_game', 5), gate(atLeast('ip_per_game', 3))] }),

  // --- Soccer ---
  // Refit on EPL 2024-25 (epl-soccer-per90.mjs; deciles p50/p75/p90: shots90 0.89/1.90/2.79,
  // goals90 0.05/0.19/0.38, tackles90 1.57/2.35/3.06). The "league norm" values fired on 5.1%
  // (POACHER at goals90 0.45), 7.5% (VOLUME_SHOOTER at 3) and 32.5% (HOLDER, goalkeepers
  // included); POACHER's goals90 and VOLUME_SHOOTER's shots90 now sit at the p90, and HOLDER needs
  // a top-quartile tackle rate. Shares on 2024-25 / 2025-26 (held out): POACHER 7.3/8.9%,
  // VOLUME_SHOOTER 9.6/9.1%, MARKSMAN 9.2/6.2%, SPECULATOR 5.1/8.1%, IMPACT_SUB 9.6/9.4%, HOLDER
  // 5.3/3.8%. MARKSMAN (p75 of sot_share among 2+ shots per 90: 0.455), SPECULATOR (p25: 0.31)
  // and IMPACT_SUB already sat there and keep their values.
  soccer({ id: 'POACHER', label: 'Poacher', color: '#ef476f', legacyName: 'fox_in_the_box',
    summary: 'Scores often and from few shots.',
    rule: [atLeast('goals90', 0.38), atLeast('goals_per_shot', 0.15)] }),
  soccer({ id: 'VOLUME_SHOOTER', label: 'Volume Shooter', color: '#ffd166', legacyName: 'shot_monster',
    summary: 'About three shots or more per 90 minutes (the top decile).',
    rule: [atLeast('shots90', 2.8)] }),
  soccer({ id: 'MARKSMAN', label: 'Marksman', color: '#06d6a0', legacyName: 'accurate_finisher',
    summary: 'Puts a high share of shots on target.',
    rule: [atLeast('sot_share', 0.45), gate(atLeast('shots90', 1.5))] }),
  soccer({ id: 'SPECULATOR', label: 'Speculator', color: '#118ab2', legacyName: 'long_range_shooter',
    summary: 'Shoots often but seldom on target.',
    rule: [atLeast('shots90', 2), gate(atMost('sot_share', 0.3))] }),
  soccer({ id: 'IMPACT_SUB', label: 'Impact Sub', color: '#073b4c', legacyName: 'super_sub',
    summary: 'Short minutes, high shot rate.',
    rule: [atLeast('shots90', 2), gate(atMost('minutes', 45))] }),
  soccer({ id: 'HOLDER', label: 'Holding Player', color: '#8d99ae', legacyName: 'non_shooter',
    summary: 'Regular starter who rarely shoots and wins the ball (defenders, holding midfielders).',
    rule: [atMost('shots90', 0.8), atLeast('tackles90', 2.35), gate(atLeast('minutes', 60))] }),
];

export const ARCHETYPES: readonly Archetype[] = z.array(archetypeSchema).parse(RAW);

const BY_ID = new Map(ARCHETYPES.map((a) => [a.id, a]));

function lookupForm(name: string): string {
  return name.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

const BY_NAME = new Map<string, Archetype>(
  ARCHETYPES.flatMap((a) => [
    [lookupForm(a.id), a],
    [lookupForm(a.legacyName), a],
  ]),
);

export function archetypeById(id: string): Archetype | null {
  return BY_ID.get(id) ?? null;
}

/** Resolves a current id or a legacy stored name (case-insensitive; spaces and hyphens read as `_`). */
export function resolveArchetype(nameOrLegacy: string): Archetype | null {
  return BY_NAME.get(lookupForm(nameOrLegacy)) ?? null;
}

/** The archetypes a player of this sport (and, for MLB, role) can take. */
export function archetypesFor(sport: GradedSport, role: MlbRole | null = null): Archetype[] {
  return ARCHETYPES.filter((a) => a.sports.includes(sport) && (sport !== 'mlb' || a.role === role));
}
