import { z } from 'zod';
import { playerGameStatSchema } from '../../domain/entities.js';
import { normalizeName } from '../../domain/names.js';
import type { StatType } from '../../domain/stats.js';
import { fetchJson, type AdapterLog } from '../json.js';
import { mlbTeamByStatsapiId } from '../teams/lookup.js';
import type { Transport } from '../transport/types.js';
import { battingLine, pitchingLine, STATSAPI_BASE } from './common.js';
import type { LineupEntry } from './lineups.js';

export function boxscoreUrl(gamePk: number): string {
  return `${STATSAPI_BASE}/game/${gamePk}/boxscore`;
}

const rawStats = z.record(z.string(), z.unknown());

const rawPlayer = z.looseObject({
  person: z.looseObject({ id: z.number(), fullName: z.string() }),
  battingOrder: z.string().nullish(),
  stats: z.looseObject({ batting: rawStats.nullish(), pitching: rawStats.nullish() }).nullish(),
});

const rawTeam = z.looseObject({
  team: z.looseObject({ id: z.number().nullish(), abbreviation: z.string().nullish() }).nullish(),
  players: z.record(z.string(), z.unknown()),
  pitchers: z.array(z.number()).nullish(),
});

export const rawBoxscore = z.looseObject({ teams: z.looseObject({ home: rawTeam, away: rawTeam }) });

export const mlbPlayerLineSchema = z.object({
  mlbamId: z.number(),
  side: z.enum(['home', 'away']),
  /** statsapi battingOrder ("100" = slot 1 starter, "101" = first substitute in slot 1). */
  battingOrder: z.string().nullable(),
  battingSlot: z.number().nullable(),
  /** Started in the batting order: battingOrder ends in "00". */
  starter: z.boolean(),
  startingPitcher: z.boolean(),
  stat: playerGameStatSchema,
});
export type MlbPlayerLine = z.infer<typeof mlbPlayerLineSchema>;

export interface BoxscoreContext {
  gamePk: number;
  /** Official game date (yyyy-mm-dd): the boxscore itself carries none. */
  date: string;
  source?: string;
}

const nonEmpty = (o: Record<string, unknown> | null | undefined): o is Record<string, unknown> => !!o && Object.keys(o).length > 0;

function lineFor(raw: unknown, side: 'home' | 'away', team: string | null, opponent: string | null, startingPitcherId: number | null, ctx: BoxscoreContext): MlbPlayerLine | null {
  const p = rawPlayer.safeParse(raw);
  if (!p.success) return null;
  const { person, battingOrder } = p.data;
  const batting = p.data.stats?.batting;
  const pitching = p.data.stats?.pitching;
  const batted = nonEmpty(batting);
  const pitched = nonEmpty(pitching);
  if (!batted && !pitched) return null; // on the roster, did not play: no line
  const stats: Partial<Record<StatType, number | null>> = {};
  const extras: Record<string, number | null> = {};
  for (const part of [batted ? battingLine(batting) : null, pitched ? pitchingLine(pitching) : null]) {
    if (!part) continue;
    Object.assign(stats, part.stats);
    Object.assign(extras, part.extras);
  }
  // The settle's must-start rule and the projection's starts-only series read this (1 = threw the team's first pitch).
  if (pitched) extras['is_starter'] = person.id === startingPitcherId ? 1 : 0;
  const name = normalizeName(person.fullName);
  const order = battingOrder && /^\d{3}$/.test(battingOrder) ? battingOrder : null;
  return {
    mlbamId: person.id,
    side,
    battingOrder: order,
    battingSlot: order ? Number(order.slice(0, 1)) : null,
    starter: order !== null && order.endsWith('00'),
    startingPitcher: person.id === startingPitcherId,
    stat: {
      sport: 'mlb',
      playerKey: name.key,
      playerName: name.display,
      team,
      opponent,
      date: ctx.date,
      gameId: String(ctx.gamePk),
      minutes: null,
      stats,
      extras,
      source: ctx.source ?? 'mlb-statsapi:boxscore',
    },
  };
}

function teamAbbrOf(t: z.infer<typeof rawTeam>): string | null {
  if (t.team?.abbreviation) return t.team.abbreviation;
  return typeof t.team?.id === 'number' ? (mlbTeamByStatsapiId(t.team.id)?.espn ?? null) : null;
}

/**
 * Boxscore to one line per player who batted or pitched (a two-way player gets one merged line).
 * `pitchers[0]` is the starting pitcher. Unknown shape: null plus a warning.
 */
export function parseBoxscore(json: unknown, ctx: BoxscoreContext, log?: AdapterLog): MlbPlayerLine[] | null {
  const top = rawBoxscore.safeParse(json);
  if (!top.success) {
    log?.warn('mlb boxscore: unknown shape', { gamePk: ctx.gamePk, issues: top.error.issues.slice(0, 3) });
    return null;
  }
  const { home, away } = top.data.teams;
  const homeAbbr = teamAbbrOf(home);
  const awayAbbr = teamAbbrOf(away);
  const lines: MlbPlayerLine[] = [];
  let unreadable = 0;
  for (const [side, team, abbr, opp] of [
    ['away', away, awayAbbr, homeAbbr],
    ['home', home, homeAbbr, awayAbbr],
  ] as const) {
    const startingPitcherId = team.pitchers?.[0] ?? null;
    for (const raw of Object.values(team.players)) {
      if (!rawPlayer.safeParse(raw).success) {
        unreadable++;
        continue;
      }
      const line = lineFor(raw, side, abbr, opp, startingPitcherId, ctx);
      if (line) lines.push(line);
    }
  }
  if (unreadable > 0) log?.warn(`mlb boxscore: ${unreadable} unreadable player entr${unreadable === 1 ? 'y' : 'ies'}`, { gamePk: ctx.gamePk });
  return lines;
}

/** The starting nine of one side, in batting order (from battingOrder "N00"). */
export function startingLineup(lines: readonly MlbPlayerLine[], side: 'home' | 'away'): LineupEntry[] {
  const entries: LineupEntry[] = [];
  // Only starters with a real batting slot make a lineup entry; none is ever given a made-up slot.
  for (const l of lines) {
    if (l.side === side && l.starter && l.battingSlot !== null) {
      entries.push({ mlbamId: l.mlbamId, playerName: l.stat.playerName, playerKey: l.stat.playerKey, battingSlot: l.battingSlot });
    }
  }
  return entries.sort((a, b) => a.battingSlot - b.battingSlot);
}

export async function fetchBoxscore(transport: Transport, ctx: BoxscoreContext, log?: AdapterLog): Promise<MlbPlayerLine[] | null> {
  const json = await fetchJson(transport, 'mlb-statsapi', boxscoreUrl(ctx.gamePk), 'mlb boxscore', log);
  return json === null ? null : parseBoxscore(json, ctx, log);
}

