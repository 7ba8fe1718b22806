import { z } from 'zod';
import type { GradedSport } from './sports.js';

/**
 * Canonical stat names used across the store, the CLI and the API. Each maps to the
 * Odds API market key that prices it and to the sports it applies to.
 */
export const statTypeSchema = z.enum([
  'points',
  'rebounds',
  'assists',
  'threes',
  'pra',
  'blocks',
  'steals',
  'hits',
  'total_bases',
  'home_runs',
  'strikeouts',
  'pitcher_outs',
  'shots',
  'shots_on_target',
  'goals',
  'tackles',
]);
export type StatType = z.infer<typeof statTypeSchema>;

interface StatDef {
  readonly market: string;
  readonly sports: readonly GradedSport[];
  readonly label: string;
  /** Unit for a count of this stat in tables ("+1 pts"). */
  readonly unit: string;
  /** A Yes-only market (no point): its Yes is over this line (anytime scorer = over 0.5 goals). */
  readonly yesLine?: number;
}

export const STATS: Readonly<Record<StatType, StatDef>> = {
  points: { market: 'player_points', sports: ['nba', 'wnba'], label: 'Points', unit: 'pts' },
  rebounds: { market: 'player_rebounds', sports: ['nba', 'wnba'], label: 'Rebounds', unit: 'reb' },
  assists: { market: 'player_assists', sports: ['nba', 'wnba', 'soccer'], label: 'Assists', unit: 'ast' },
  threes: { market: 'player_threes', sports: ['nba', 'wnba'], label: '3-pointers made', unit: '3PM' },
  pra: { market: 'player_points_rebounds_assists', sports: ['nba', 'wnba'], label: 'Pts+Reb+Ast', unit: 'PRA' },
  blocks: { market: 'player_blocks', sports: ['nba', 'wnba'], label: 'Blocks', unit: 'blk' },
  steals: { market: 'player_steals', sports: ['nba', 'wnba'], label: 'Steals', unit: 'stl' },
  hits: { market: 'batter_hits', sports: ['mlb'], label: 'Hits', unit: 'hits' },
  total_bases: { market: 'batter_total_bases', sports: ['mlb'], label: 'Total bases', unit: 'TB' },
  home_runs: { market: 'batter_home_runs', sports: ['mlb'], label: 'Home runs', unit: 'HR' },
  strikeouts: { market: 'pitcher_strikeouts', sports: ['mlb'], label: 'Pitcher strikeouts', unit: 'K' },
  pitcher_outs: { market: 'pitcher_outs', sports: ['mlb'], label: 'Pitcher outs', unit: 'outs' },
  shots: { market: 'player_shots', sports: ['soccer'], label: 'Shots', unit: 'shots' },
  shots_on_target: { market: 'player_shots_on_target', sports: ['soccer'], label: 'Shots on target', unit: 'SOT' },
  goals: { market: 'player_goal_scorer_anytime', sports: ['soccer'], label: 'Goals (anytime scorer)', unit: 'G', yesLine: 0.5 },
  // The Odds API has no tackles key; this one follows its player_<stat> pattern (issue 42: EPL history prices tackles).
  tackles: { market: 'player_tackles', sports: ['soccer'], label: 'Tackles', unit: 'tkl' },
};

const BY_MARKET = new Map<string, StatType>(
  (Object.entries(STATS) as [StatType, StatDef][]).map(([stat, def]) => [def.market, stat]),
);

/** The canonical stat for an Odds API market key, or null for a market propgrade does not grade. */
export function statForMarket(market: string): StatType | null {
  return BY_MARKET.get(market) ?? null;
}

export function marketsForSport(sport: GradedSport): string[] {
  return (Object.values(STATS) as StatDef[]).filter((d) => d.sports.includes(sport)).map((d) => d.market);
}

export function statsForSport(sport: GradedSport): StatType[] {
  return (Object.entries(STATS) as [StatType, StatDef][])
    .filter(([, d]) => d.sports.includes(sport))
    .map(([s]) => s);
}

/** Accepts a canonical name, an Odds API market key, or a common short alias; null when unknown. */
export function parseStat(input: string): StatType | null {
  const s = input.trim().toLowerCase().replace(/[\s-]+/g, '_');
  const direct = statTypeSchema.safeParse(s);
  if (direct.success) return direct.data;
  const fromMarket = statForMarket(s);
  if (fromMarket) return fromMarket;
  return STAT_ALIASES[s] ?? null;
}

const STAT_ALIASES: Record<string, StatType> = {
  pts: 'points',
  reb: 'rebounds',
  rebs: 'rebounds',
  ast: 'assists',
  asts: 'assists',
  '3pm': 'threes',
  threes_made: 'threes',
  '3pt': 'threes',
  blk: 'blocks',
  stl: 'steals',
  pts_reb_ast: 'pra',
  points_rebounds_assists: 'pra',
  tb: 'total_bases',
  hr: 'home_runs',
  hrs: 'home_runs',
  k: 'strikeouts',
  ks: 'strikeouts',
  so: 'strikeouts',
  outs: 'pitcher_outs',
  outs_recorded: 'pitcher_outs',
  sog: 'shots_on_target',
  sot: 'shots_on_target',
  anytime_scorer: 'goals',
  tkl: 'tackles',
};

/**
 * Every spelling parseStat accepts after normalising (trim, lower case, spaces and hyphens to
 * underscores): canonical names, Odds API market keys and the short aliases. For documents that
 * list what a client may send (the OpenAPI enums).
 */
export function statSpellings(): string[] {
  return [...new Set([...statTypeSchema.options, ...BY_MARKET.keys(), ...Object.keys(STAT_ALIASES)])];
}


/** The longest stat spelling an input takes: the longest in statSpellings() is under 40 characters. */
export const STAT_INPUT_MAX = 40;

/** A stat as typed (canonical name, Odds API market key or short alias) to its canonical name; scan and parlay legs share it. */
export const statInputSchema = z
  .string()
  .trim()
  .min(1)
  .max(STAT_INPUT_MAX)
  .refine((s) => parseStat(s) !== null, { error: (iss) => `unknown stat '${String(iss.input)}' (known: ${Object.keys(STATS).join(', ')})` })
  .transform((s) => parseStat(s) as StatType)
  .meta({ enum: statSpellings(), description: 'a stat: canonical name, Odds API market key or short alias (case, spaces and hyphens ignored)' });

/**
 * The largest prop line an input takes. A line is a count of the stat (points, strikeouts,
 * total bases): never negative, and no market has priced one near this.
 */
export const PROP_LINE_MAX = 500;

/** A prop line as typed or sent: a finite number in [0, PROP_LINE_MAX]. */
export const propLineSchema = z.number().finite().min(0, 'a line is not negative').max(PROP_LINE_MAX, `a line is at most ${PROP_LINE_MAX}`);
