import { archetypeBefore } from '../domain/archetypes/index.js';
import type { PlayerGameStat } from '../domain/entities.js';
import { isPlayedGame, minutesAverage, seasonContaining, statAverages, type StatAverage } from '../domain/leaders.js';
import type { GradedSport } from '../domain/sports.js';
import { statsForSport } from '../domain/stats.js';
import { easternDate } from '../domain/time.js';
import { latestSnapshot, type Snapshot } from '../store/repo/snapshots.js';
import { rowsOfSnapshot } from './snapshot-rows.js';
import type { Freshness } from '../store/cache.js';
import type { ContextDeps } from '../feeds/context.js';
import { dataVersion, playerLines, resolveStatsPlayer, storeDerived, type Unresolved } from './stats-common.js';
import { gradedRowView, type GradedRowView } from './views.js';

/**
 * GET /api/stats/player/{name} and `propgrade stats player`: a player's profile, season averages
 * and recent form from his stored real game lines, his archetype, and tonight's graded props.
 * Every figure carries its n; a player with no stored lines gets no figures at all.
 */

/** Recent form: the last this-many played games. */
export const FORM_GAMES = 5;
/** Seasons listed, newest first. */
export const SEASONS_SHOWN = 2;

export interface SeasonLine {
  season: string;
  from: string;
  /** Stored lines this season (DNPs included) and, of those, played games. */
  games: number;
  played: number;
  minutes: { avg: number; n: number } | null;
  stats: StatAverage[];
}

export interface FormGame {
  date: string;
  team: string | null;
  opponent: string | null;
  minutes: number | null;
  values: Record<string, number | null>;
}

export type PlayerStats = {
  sport: GradedSport;
  player: string;
  key: string;
  asOf: string;
  props: GradedRowView[];
} & (
  | {
      available: true;
      profile: { team: string | null; firstGame: string; lastGame: string; games: number; played: number };
      seasons: SeasonLine[];
      form: { window: string; n: number; stats: StatAverage[]; games: FormGame[] };
      archetype: { primary: string; secondary: string | null; blend: Array<{ id: string; weight: number }> } | null;
      archetypeNote: string | null;
    }
  | { available: false; reason: string }
);

export type PlayerStatsView = (PlayerStats & Freshness) | Unresolved;

/** Pure: the figures of one player's stored lines (newest first) as of `today`. */
export function playerFigures(sport: GradedSport, lines: readonly PlayerGameStat[], today: string): Omit<Extract<PlayerStats, { available: true }>, 'sport' | 'player' | 'key' | 'asOf' | 'props' | 'available'> {
  const played = lines.filter((l) => isPlayedGame(sport, l));
  const bySeason = new Map<string, { from: string; lines: PlayerGameStat[] }>();
  for (const l of lines) {
    const w = seasonContaining(sport, l.date);
    const s = bySeason.get(w.label) ?? { from: w.from, lines: [] };
    s.lines.push(l);
    bySeason.set(w.label, s);
  }
  const seasons: SeasonLine[] = [...bySeason.entries()]
    .sort((a, b) => b[1].from.localeCompare(a[1].from))
    .slice(0, SEASONS_SHOWN)
    .map(([season, s]) => {
      const p = s.lines.filter((l) => isPlayedGame(sport, l));
      return { season, from: s.from, games: s.lines.length, played: p.length, minutes: sport === 'mlb' ? null : minutesAverage(p), stats: statAverages(sport, p) };
    });
  const recent = played.slice(0, FORM_GAMES);
  const stats = statsForSport(sport);
  // The rule scan and parlay use, cut at the same data-clock date (domain/archetypes/as-of.ts).
  const read = archetypeBefore(sport, lines, today);
  const archetype = read.classification;
  const latest = lines[0]!;
  return {
    profile: { team: latest.team, firstGame: lines.at(-1)!.date, lastGame: latest.date, games: lines.length, played: played.length },
    seasons,
    form: {
      window: `last ${FORM_GAMES} played games`,
      n: recent.length,
      stats: statAverages(sport, recent),
      games: recent.map((l) => ({ date: l.date, team: l.team, opponent: l.opponent, minutes: l.minutes, values: Object.fromEntries(stats.map((s) => [s, l.stats[s] ?? null])) })),
    },
    archetype: archetype ? { primary: archetype.primary, secondary: archetype.secondary, blend: archetype.blend.map((b) => ({ id: b.id, weight: b.weight })) } : null,
    archetypeNote: read.note === null ? null : read.note === 'thin_data' ? 'thin data: too few real games or minutes to classify (docs/archetypes.md)' : 'no archetype rule fits his real games (docs/archetypes.md)',
  };
}

/**
 * Tonight's graded props: the graded main-line rows of the player on `snapshot` (the newest taken
 * by the clock, never a later one: issue 41 item 5) when it is today's slate (alternate rungs: /api/snapshot).
 */
async function tonightProps(deps: ContextDeps, snapshot: Snapshot | null, key: string, today: string): Promise<GradedRowView[]> {
  if (!snapshot || snapshot.slateDate !== today) return [];
  return (await rowsOfSnapshot(deps.store, snapshot.id))
    .filter((r) => r.playerKey === key && r.grade !== null && r.isMainLine !== false)
    .sort((a, b) => a.statType.localeCompare(b.statType) || a.line - b.line || a.side.localeCompare(b.side))
    .map(gradedRowView);
}

export async function readPlayerStats(deps: ContextDeps, name: string, options: { sport?: GradedSport; refresh?: boolean } = {}): Promise<PlayerStatsView> {
  const who = await resolveStatsPlayer(deps.store, name, options.sport);
  if (who.status !== 'resolved') return who;
  // The player's own sport's clock: on a replayed store each sport reads as of its own snapshot, as scan does.
  const now = deps.forSport ? deps.forSport(who.sport) : deps.now;
  const today = easternDate(now);
  const snapshot = await latestSnapshot(deps.store, who.sport, now);
  const key = ['player', who.sport, who.key, today, await dataVersion(deps.store, who.sport), snapshot ? `snapshot-${snapshot.id}` : 'no-snapshot'].join(':');
  const read = await storeDerived('player', { ...deps, now }, key, options.refresh, async (): Promise<PlayerStats> => {
    const [lines, props] = await Promise.all([playerLines(deps.store, who.sport, who.key, today), tonightProps(deps, snapshot, who.key, today)]);
    const base = { sport: who.sport, player: who.name, key: who.key, asOf: today, props };
    if (lines.length === 0) return { ...base, available: false, reason: `no stored game lines for ${who.name} before ${today}: nothing to compute` };
    return { ...base, available: true, ...playerFigures(who.sport, lines, today) };
  });
  return { ...read.value, fetchedAt: read.fetchedAt, ageSeconds: read.ageSeconds, stale: read.stale };
}
