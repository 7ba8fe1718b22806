import { z } from 'zod';
import { gameEventSchema, gameStatusSchema } from '../../domain/entities.js';
import { normalizeName } from '../../domain/names.js';
import { fetchJson, type AdapterLog } from '../json.js';
import { mlbTeamByStatsapiId, teamAbbr } from '../teams/lookup.js';
import type { Transport } from '../transport/types.js';
import { mlbGameStatus, STATSAPI_BASE } from './common.js';
import { lineupEntrySchema, type LineupEntry } from './lineups.js';

/** One slate (yyyy-mm-dd, the official local date) with probable pitchers and posted lineups. */
export function scheduleUrl(date: string): string {
  return `${STATSAPI_BASE}/schedule?sportId=1&date=${encodeURIComponent(date)}&hydrate=probablePitcher,lineups`;
}

const rawPerson = z.looseObject({ id: z.number(), fullName: z.string().nullish() });

const rawSide = z.looseObject({
  score: z.number().nullish(),
  team: z.looseObject({ id: z.number().nullish(), name: z.string().nullish(), abbreviation: z.string().nullish() }).nullish(),
  probablePitcher: rawPerson.nullish(),
});

const rawGame = z.looseObject({
  gamePk: z.number(),
  gameDate: z.string().nullish(),
  officialDate: z.string().nullish(),
  status: z.looseObject({ abstractGameState: z.string().nullish(), detailedState: z.string().nullish() }).nullish(),
  teams: z.looseObject({ home: rawSide, away: rawSide }),
  doubleHeader: z.string().nullish(),
  gameNumber: z.number().nullish(),
  lineups: z.looseObject({ homePlayers: z.array(rawPerson).nullish(), awayPlayers: z.array(rawPerson).nullish() }).nullish(),
});

const rawSchedule = z.looseObject({ dates: z.array(z.looseObject({ date: z.string().nullish(), games: z.array(z.unknown()) })) });

export const mlbProbableSchema = z.object({ mlbamId: z.number(), playerName: z.string(), playerKey: z.string() });
export type MlbProbable = z.infer<typeof mlbProbableSchema>;

export const mlbScheduleGameSchema = z.object({
  event: gameEventSchema,
  gamePk: z.number(),
  /** The official (local) slate date, yyyy-mm-dd. */
  officialDate: z.string().nullable(),
  status: gameStatusSchema,
  detailedState: z.string().nullable(),
  homeScore: z.number().nullable(),
  awayScore: z.number().nullable(),
  gameNumber: z.number().nullable(),
  homeProbable: mlbProbableSchema.nullable(),
  awayProbable: mlbProbableSchema.nullable(),
  /** Posted lineup in batting order; null when the team has not posted one (hydrate=lineups). */
  homeLineup: z.array(lineupEntrySchema).nullable(),
  awayLineup: z.array(lineupEntrySchema).nullable(),
});
export type MlbScheduleGame = z.infer<typeof mlbScheduleGameSchema>;

/** A statsapi person reference ({id, fullName}) as a probable pitcher; null without a name. */
export function probableFrom(p: { id: number; fullName?: string | null | undefined } | null | undefined): MlbProbable | null {
  if (!p?.fullName) return null;
  const n = normalizeName(p.fullName);
  return { mlbamId: p.id, playerName: n.display, playerKey: n.key };
}

function lineup(players: Array<z.infer<typeof rawPerson>> | null | undefined): LineupEntry[] | null {
  if (!players || players.length === 0) return null;
  return players.flatMap((p, i) => {
    if (!p.fullName) return [];
    const n = normalizeName(p.fullName);
    return [{ mlbamId: p.id, playerName: n.display, playerKey: n.key, battingSlot: i + 1 }];
  });
}

function abbrOf(side: z.infer<typeof rawSide>): string | null {
  if (side.team?.abbreviation) return side.team.abbreviation;
  const byId = typeof side.team?.id === 'number' ? mlbTeamByStatsapiId(side.team.id) : null;
  if (byId) return byId.espn;
  return side.team?.name ? teamAbbr('mlb', side.team.name) : null;
}

function toIso(value: string | null | undefined): string | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Schedule to games. Games without a start time or team names are dropped (one warning). */
export function parseSchedule(json: unknown, log?: AdapterLog): MlbScheduleGame[] | null {
  const top = rawSchedule.safeParse(json);
  if (!top.success) {
    log?.warn('mlb schedule: unknown shape', { issues: top.error.issues.slice(0, 3) });
    return null;
  }
  const games: MlbScheduleGame[] = [];
  let dropped = 0;
  for (const day of top.data.dates) {
    for (const raw of day.games) {
      const p = rawGame.safeParse(raw);
      const commenceTime = p.success ? toIso(p.data.gameDate) : null;
      const homeTeam = p.data?.teams.home.team?.name;
      const awayTeam = p.data?.teams.away.team?.name;
      if (!p.success || !commenceTime || !homeTeam || !awayTeam) {
        dropped++;
        continue;
      }
      const g = p.data;
      const status = mlbGameStatus(g.status);
      const started = status === 'in_progress' || status === 'final' || status === 'suspended';
      games.push({
        event: {
          provider: 'mlb-statsapi',
          id: String(g.gamePk),
          sport: 'mlb',
          commenceTime,
          homeTeam,
          awayTeam,
          homeAbbr: abbrOf(g.teams.home),
          awayAbbr: abbrOf(g.teams.away),
        },
        gamePk: g.gamePk,
        officialDate: g.officialDate ?? day.date ?? null,
        status,
        detailedState: g.status?.detailedState ?? null,
        homeScore: started ? (g.teams.home.score ?? null) : null,
        awayScore: started ? (g.teams.away.score ?? null) : null,
        gameNumber: g.gameNumber ?? null,
        homeProbable: probableFrom(g.teams.home.probablePitcher),
        awayProbable: probableFrom(g.teams.away.probablePitcher),
        homeLineup: lineup(g.lineups?.homePlayers),
        awayLineup: lineup(g.lineups?.awayPlayers),
      });
    }
  }
  if (dropped > 0) log?.warn(`mlb schedule: dropped ${dropped} game(s) without a start time or teams`);
  return games;
}

export async function fetchSchedule(transport: Transport, date: string, log?: AdapterLog): Promise<MlbScheduleGame[] | null> {
  const json = await fetchJson(transport, 'mlb-statsapi', scheduleUrl(date), 'mlb schedule', log);
  return json === null ? null : parseSchedule(json, log);
}
