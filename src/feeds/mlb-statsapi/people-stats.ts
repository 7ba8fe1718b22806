import { z } from 'zod';
import type { PlayerGameStat } from '../../domain/entities.js';
import { normalizeName } from '../../domain/names.js';
import type { StatType } from '../../domain/stats.js';
import { fetchJson, type AdapterLog } from '../json.js';
import { mlbTeamByStatsapiId, teamAbbr } from '../teams/lookup.js';
import type { Transport } from '../transport/types.js';
import { battingLine, inningsFromNotation, pitchingLine, statNum, STATSAPI_BASE } from './common.js';

export type StatGroup = 'hitting' | 'pitching';

/** A player's game-by-game lines for a season. */
export function gameLogUrl(mlbamId: number, season: number, group: StatGroup): string {
  return `${STATSAPI_BASE}/people/${mlbamId}/stats?stats=gameLog&group=${group}&season=${season}`;
}

/** Season and career lines (rates such as ERA come back as strings). */
export function seasonStatsUrl(mlbamId: number, group: StatGroup, season?: number): string {
  const seasonQuery = season === undefined ? '' : `&season=${season}`;
  return `${STATSAPI_BASE}/people/${mlbamId}/stats?stats=season,career&group=${group}${seasonQuery}`;
}

const rawTeamRef = z.looseObject({ id: z.number().nullish(), name: z.string().nullish(), abbreviation: z.string().nullish() });

const rawSplit = z.looseObject({
  season: z.string().nullish(),
  date: z.string().nullish(),
  isHome: z.boolean().nullish(),
  type: z.string().nullish(),
  group: z.string().nullish(),
  game: z.looseObject({ gamePk: z.number().nullish() }).nullish(),
  team: rawTeamRef.nullish(),
  opponent: rawTeamRef.nullish(),
  player: z.looseObject({ id: z.number().nullish(), fullName: z.string().nullish() }).nullish(),
  stat: z.record(z.string(), z.unknown()).nullish(),
});

/** `type`/`group` are objects on the stats block in most responses, plain strings on game splits. */
const rawLabel = z.union([z.string(), z.looseObject({ displayName: z.string().nullish() })]);
const labelOf = (l: z.infer<typeof rawLabel> | null | undefined): string | null => (typeof l === 'string' ? l : (l?.displayName ?? null));

const rawStatsPayload = z.looseObject({
  stats: z.array(z.looseObject({ type: rawLabel.nullish(), group: rawLabel.nullish(), splits: z.array(z.unknown()).nullish() })),
});

function abbrOfTeam(t: z.infer<typeof rawTeamRef> | null | undefined): string | null {
  if (!t) return null;
  if (t.abbreviation) return t.abbreviation;
  if (typeof t.id === 'number') {
    const byId = mlbTeamByStatsapiId(t.id);
    if (byId) return byId.espn;
  }
  return t.name ? teamAbbr('mlb', t.name) : null;
}

export interface GameLogContext {
  mlbamId: number;
  /** Whose log this is, when the splits do not name the player. */
  playerName: string;
  /** For `/people/{id}/stats/game/{gamePk}`, whose splits carry no date or game. */
  date?: string;
  gamePk?: number;
}

interface GameAcc {
  date: string;
  gamePk: number | null;
  name: string;
  team: string | null;
  opponent: string | null;
  stats: Partial<Record<StatType, number | null>>;
  extras: Record<string, number | null>;
}

/**
 * Game-log splits (season `stats=gameLog`, or the per-game `/stats/game/{pk}` form) to one
 * PlayerGameStat per game, hitting and pitching merged. Empty groups (`stat: {}`) add nothing;
 * a split with no date (and none in the context) is skipped with a warning.
 */
export function parseGameLog(json: unknown, ctx: GameLogContext, log?: AdapterLog): PlayerGameStat[] | null {
  const top = rawStatsPayload.safeParse(json);
  if (!top.success) {
    log?.warn('mlb game log: unknown shape', { mlbamId: ctx.mlbamId, issues: top.error.issues.slice(0, 3) });
    return null;
  }
  const games = new Map<string, GameAcc>();
  let undated = 0;
  for (const block of top.data.stats) {
    for (const raw of block.splits ?? []) {
      const p = rawSplit.safeParse(raw);
      if (!p.success) continue;
      const split = p.data;
      const type = split.type ?? labelOf(block.type);
      const group = split.group ?? labelOf(block.group);
      if (type !== 'gameLog' || (group !== 'hitting' && group !== 'pitching')) continue;
      const stat = split.stat ?? {};
      if (Object.keys(stat).length === 0) continue;
      const date = split.date ?? ctx.date;
      if (!date) {
        undated++;
        continue;
      }
      const gamePk = split.game?.gamePk ?? ctx.gamePk ?? null;
      const id = `${date}|${gamePk ?? ''}`;
      const acc = games.get(id) ?? {
        date,
        gamePk,
        name: split.player?.fullName ?? ctx.playerName,
        team: abbrOfTeam(split.team),
        opponent: abbrOfTeam(split.opponent),
        stats: {},
        extras: {},
      };
      const part = group === 'hitting' ? battingLine(stat) : pitchingLine(stat);
      Object.assign(acc.stats, part.stats);
      Object.assign(acc.extras, part.extras);
      games.set(id, acc);
    }
  }
  if (undated > 0) log?.warn(`mlb game log: ${undated} split(s) without a date skipped`, { mlbamId: ctx.mlbamId });
  return [...games.values()].map((g) => {
    const n = normalizeName(g.name);
    return {
      sport: 'mlb',
      playerKey: n.key,
      playerName: n.display,
      team: g.team,
      opponent: g.opponent,
      date: g.date,
      gameId: g.gamePk === null ? null : String(g.gamePk),
      minutes: null,
      stats: g.stats,
      extras: g.extras,
      source: 'mlb-statsapi:game-log',
    } satisfies PlayerGameStat;
  });
}

export const seasonStatLineSchema = z.object({
  mlbamId: z.number().nullable(),
  playerName: z.string().nullable(),
  /** "season", "career", "seasonAdvanced"... */
  statsType: z.string(),
  group: z.string(),
  season: z.string().nullable(),
  /** Null on a traded player's combined row (and on career rows without a team). */
  teamAbbr: z.string().nullable(),
  /** ERA as statsapi prints it ("2.33") and as a number; null when the row has none. */
  eraText: z.string().nullable(),
  era: z.number().nullable(),
  /** strikeOuts / battersFaced x 100 for pitching rows where both are present. */
  strikeoutPct: z.number().nullable(),
  /** Innings as a real number (statsapi "166.1" = 166 1/3). */
  innings: z.number().nullable(),
  /** Every other numeric stat, rate strings converted (".242" -> 0.242; ".---" -> null). */
  values: z.record(z.string(), z.number().nullable()),
});
export type SeasonStatLine = z.infer<typeof seasonStatLineSchema>;

/** Season/career stat blocks to one line per split. Unknown shape: null plus a warning. */
export function parseSeasonStats(json: unknown, log?: AdapterLog): SeasonStatLine[] | null {
  const top = rawStatsPayload.safeParse(json);
  if (!top.success) {
    log?.warn('mlb season stats: unknown shape', { issues: top.error.issues.slice(0, 3) });
    return null;
  }
  const lines: SeasonStatLine[] = [];
  for (const block of top.data.stats) {
    const statsType = labelOf(block.type);
    const group = labelOf(block.group);
    if (!statsType || !group || statsType === 'gameLog') continue;
    for (const raw of block.splits ?? []) {
      const p = rawSplit.safeParse(raw);
      if (!p.success || !p.data.stat) continue;
      const stat = p.data.stat;
      const values: Record<string, number | null> = {};
      for (const [k, v] of Object.entries(stat)) {
        if (k === 'inningsPitched') continue;
        if (typeof v === 'number' || typeof v === 'string') values[k] = statNum(v);
      }
      const eraRaw = typeof stat['era'] === 'string' ? stat['era'] : null;
      const era = statNum(eraRaw);
      const k = statNum(stat['strikeOuts']);
      const bf = statNum(stat['battersFaced']);
      lines.push({
        mlbamId: p.data.player?.id ?? null,
        playerName: p.data.player?.fullName ?? null,
        statsType,
        group,
        season: p.data.season ?? null,
        teamAbbr: abbrOfTeam(p.data.team),
        eraText: era === null ? null : eraRaw,
        era,
        strikeoutPct: group === 'pitching' && k !== null && bf !== null && bf > 0 ? (100 * k) / bf : null,
        innings: inningsFromNotation(stat['inningsPitched']),
        values,
      });
    }
  }
  return lines;
}

export async function fetchGameLog(transport: Transport, ctx: GameLogContext & { season: number; group: StatGroup }, log?: AdapterLog): Promise<PlayerGameStat[] | null> {
  const json = await fetchJson(transport, 'mlb-statsapi', gameLogUrl(ctx.mlbamId, ctx.season, ctx.group), 'mlb game log', log);
  return json === null ? null : parseGameLog(json, ctx, log);
}

export async function fetchSeasonStats(transport: Transport, mlbamId: number, group: StatGroup, season?: number, log?: AdapterLog): Promise<SeasonStatLine[] | null> {
  const json = await fetchJson(transport, 'mlb-statsapi', seasonStatsUrl(mlbamId, group, season), 'mlb season stats', log);
  return json === null ? null : parseSeasonStats(json, log);
}
