import { z } from 'zod';
import { gameStatusSchema, playerGameStatSchema, type PlayerGameStat } from '../../domain/entities.js';
import { normalizeName } from '../../domain/names.js';
import type { GradedSport } from '../../domain/sports.js';
import type { StatType } from '../../domain/stats.js';
import type { Transport } from '../transport/types.js';
import { ESPN_SITE_BASE, easternDateOf, espnGameStatus, madeAttempted, num, toUtcIso, type EspnLeague } from './common.js';
import { fetchJson, type AdapterLog } from '../json.js';
import { injuriesFromTeamLists, injurySchema, rawTeamInjuries } from './injuries.js';

export function summaryUrl(league: EspnLeague, eventId: string): string {
  return `${ESPN_SITE_BASE}/${league.path}/summary?event=${encodeURIComponent(eventId)}`;
}

// ---- raw payload ----

const rawAthleteRef = z.looseObject({ id: z.string().optional(), displayName: z.string().optional(), fullName: z.string().optional() });

const rawBoxAthlete = z.looseObject({
  athlete: rawAthleteRef.optional(),
  starter: z.boolean().optional(),
  didNotPlay: z.boolean().optional(),
  reason: z.string().optional(),
  stats: z.array(z.string()).optional(),
});

const rawBoxGroup = z.looseObject({ keys: z.array(z.string()).optional(), athletes: z.array(z.unknown()).optional() });

const rawBoxTeam = z.looseObject({
  team: z.looseObject({ abbreviation: z.string().optional() }).optional(),
  statistics: z.array(rawBoxGroup).optional(),
});

const rawRosterEntry = z.looseObject({
  athlete: rawAthleteRef.optional(),
  starter: z.boolean().optional(),
  subbedIn: z.boolean().optional(),
  stats: z.array(z.looseObject({ name: z.string().optional(), value: z.number().optional(), displayValue: z.string().optional() })).optional(),
});

const rawSummary = z.looseObject({
  header: z.looseObject({
    id: z.string().optional(),
    competitions: z
      .array(
        z.looseObject({
          id: z.string().optional(),
          date: z.string().optional(),
          status: z
            .looseObject({
              type: z.looseObject({ name: z.string().optional(), state: z.string().optional(), completed: z.boolean().optional() }).optional(),
              period: z.number().optional(),
              clock: z.number().optional(),
              displayClock: z.string().optional(),
            })
            .optional(),
          competitors: z
            .array(z.looseObject({ homeAway: z.string().optional(), team: z.looseObject({ abbreviation: z.string().optional() }).optional() }))
            .optional(),
        }),
      )
      .optional(),
  }),
  boxscore: z.looseObject({ players: z.array(rawBoxTeam).optional() }).optional(),
  rosters: z
    .array(z.looseObject({ homeAway: z.string().optional(), team: z.looseObject({ abbreviation: z.string().optional() }).optional(), roster: z.array(z.unknown()).optional() }))
    .optional(),
  injuries: z.array(rawTeamInjuries).optional(),
});

// ---- domain record ----

export const gameSummarySchema = z.object({
  eventId: z.string(),
  commenceTime: z.string().nullable(),
  status: gameStatusSchema,
  statusName: z.string().nullable(),
  completed: z.boolean(),
  /** Game clock for live tracking (docs/live.md): period (quarter, half), seconds left in it, ESPN's clock text ("45'+6'"). */
  period: z.number().nullable(),
  clockSeconds: z.number().nullable(),
  displayClock: z.string().nullable(),
  homeAbbr: z.string().nullable(),
  awayAbbr: z.string().nullable(),
  /** Box-score lines (basketball) or roster stat lines (soccer); empty before tip-off / kick-off. */
  lines: z.array(playerGameStatSchema),
  /** The injury list at fetch time (not at game time). */
  injuries: z.array(injurySchema),
});
export type GameSummary = z.infer<typeof gameSummarySchema>;

interface LineContext {
  sport: GradedSport;
  eventId: string;
  date: string;
  team: string | null;
  opponent: string | null;
}

function baseLine(ctx: LineContext, rawName: string): Omit<PlayerGameStat, 'minutes' | 'stats' | 'extras'> {
  const name = normalizeName(rawName);
  return {
    sport: ctx.sport,
    playerKey: name.key,
    playerName: name.display,
    team: ctx.team,
    opponent: ctx.opponent,
    date: ctx.date,
    gameId: ctx.eventId,
    source: 'espn:summary',
  };
}

/**
 * One basketball box-score row. A DNP row (`didNotPlay: true`, `stats: []`) becomes minutes 0 and
 * no stats, since the payload gives none; a row with no stats and no DNP flag is skipped.
 */
function basketballLine(ctx: LineContext, keys: string[], item: unknown): PlayerGameStat | null {
  const row = rawBoxAthlete.safeParse(item);
  const rawName = row.success ? (row.data.athlete?.displayName ?? row.data.athlete?.fullName) : undefined;
  if (!row.success || !rawName) return null;
  const values = row.data.stats ?? [];
  if (values.length === 0) {
    if (row.data.didNotPlay !== true) return null;
    return { ...baseLine(ctx, rawName), minutes: 0, stats: {}, extras: {} };
  }
  const at = (key: string): string | undefined => {
    const i = keys.indexOf(key);
    return i >= 0 ? values[i] : undefined;
  };
  const [, fga] = madeAttempted(at('fieldGoalsMade-fieldGoalsAttempted'));
  const [threes, threesAttempted] = madeAttempted(at('threePointFieldGoalsMade-threePointFieldGoalsAttempted'));
  const [, fta] = madeAttempted(at('freeThrowsMade-freeThrowsAttempted'));
  const points = num(at('points'));
  const rebounds = num(at('rebounds'));
  const assists = num(at('assists'));
  const stats: Partial<Record<StatType, number | null>> = {
    points,
    rebounds,
    assists,
    threes,
    pra: points !== null && rebounds !== null && assists !== null ? points + rebounds + assists : null,
    blocks: num(at('blocks')),
    steals: num(at('steals')),
  };
  return {
    ...baseLine(ctx, rawName),
    minutes: num(at('minutes')),
    stats,
    extras: { fga, fta, threes_attempted: threesAttempted, turnovers: num(at('turnovers')) },
  };
}

/**
 * One soccer roster row. ESPN's recorded summaries give no minutes and no tackles per player; a
 * `minutes` or `totalTackles` entry is read when present (the EPL season replay writes both), else
 * null (`appearances` 0 is an unused substitute or one not yet on at the capture time: not minutes).
 */
function soccerLine(ctx: LineContext, item: unknown): PlayerGameStat | null {
  const row = rawRosterEntry.safeParse(item);
  const rawName = row.success ? (row.data.athlete?.displayName ?? row.data.athlete?.fullName) : undefined;
  if (!row.success || !rawName || !row.data.stats || row.data.stats.length === 0) return null;
  const stat = (name: string): number | null => {
    const s = row.data.stats?.find((x) => x.name === name);
    return s ? (num(s.value) ?? num(s.displayValue)) : null;
  };
  const appearances = stat('appearances');
  const goals = stat('totalGoals');
  const assists = stat('goalAssists');
  return {
    ...baseLine(ctx, rawName),
    minutes: stat('minutes'),
    stats: { shots: stat('totalShots'), shots_on_target: stat('shotsOnTarget'), goals, assists, tackles: stat('totalTackles') },
    extras: { appearances, goals, assists },
  };
}

/**
 * Game summary to status + per-player lines (nba/wnba box score, soccer rosters). MLB summaries
 * are read from the MLB Stats API boxscore instead (ESPN's MLB batting lines lack doubles and
 * triples, so total bases cannot be computed from them). Unknown shape: null plus a warning.
 */
export function parseSummary(json: unknown, league: EspnLeague, log?: AdapterLog, opts: { date?: string } = {}): GameSummary | null {
  const parsed = rawSummary.safeParse(json);
  if (!parsed.success) {
    log?.warn('espn summary: unknown shape', { league: league.path, issues: parsed.error.issues.slice(0, 3) });
    return null;
  }
  const s = parsed.data;
  const comp = s.header.competitions?.[0];
  const eventId = s.header.id ?? comp?.id;
  if (!eventId) {
    log?.warn('espn summary: no event id', { league: league.path });
    return null;
  }
  const commenceTime = toUtcIso(comp?.date);
  const homeAbbr = comp?.competitors?.find((c) => c.homeAway === 'home')?.team?.abbreviation ?? null;
  const awayAbbr = comp?.competitors?.find((c) => c.homeAway === 'away')?.team?.abbreviation ?? null;
  const date = opts.date ?? (commenceTime ? easternDateOf(commenceTime) : null);
  const type = comp?.status?.type;
  const opponentOf = (abbr: string | null): string | null => (abbr === homeAbbr ? awayAbbr : abbr === awayAbbr ? homeAbbr : null);

  const lines: PlayerGameStat[] = [];
  const sport = league.sport;
  if (date && (sport === 'nba' || sport === 'wnba')) {
    for (const team of s.boxscore?.players ?? []) {
      const abbr = team.team?.abbreviation ?? null;
      const ctx: LineContext = { sport, eventId, date, team: abbr, opponent: opponentOf(abbr) };
      for (const group of team.statistics ?? []) {
        for (const athlete of group.athletes ?? []) {
          const line = basketballLine(ctx, group.keys ?? [], athlete);
          if (line) lines.push(line);
        }
      }
    }
  } else if (date && sport === 'soccer') {
    for (const side of s.rosters ?? []) {
      const abbr = side.team?.abbreviation ?? null;
      const ctx: LineContext = { sport, eventId, date, team: abbr, opponent: opponentOf(abbr) };
      for (const entry of side.roster ?? []) {
        const line = soccerLine(ctx, entry);
        if (line) lines.push(line);
      }
    }
  } else if (!date) {
    log?.warn('espn summary: no game date, player lines skipped', { eventId });
  }

  return {
    eventId,
    commenceTime,
    status: espnGameStatus(type),
    statusName: type?.name ?? null,
    completed: type?.completed === true,
    period: comp?.status?.period ?? null,
    clockSeconds: comp?.status?.clock ?? null,
    displayClock: comp?.status?.displayClock ?? null,
    homeAbbr,
    awayAbbr,
    lines,
    injuries: injuriesFromTeamLists(s.injuries ?? [], sport, log),
  };
}

export async function fetchSummary(transport: Transport, league: EspnLeague, eventId: string, log?: AdapterLog): Promise<GameSummary | null> {
  const json = await fetchJson(transport, 'espn', summaryUrl(league, eventId), 'espn summary', log);
  return json === null ? null : parseSummary(json, league, log);
}
