import { z } from 'zod';
import { gameStatusSchema } from '../../domain/entities.js';
import { fetchJson, type AdapterLog } from '../json.js';
import type { Transport } from '../transport/types.js';
import { mlbPlayerLineSchema, parseBoxscore } from './boxscore.js';
import { mlbGameStatus, STATSAPI_BASE_V11 } from './common.js';
import { mlbProbableSchema, probableFrom } from './schedule.js';

/** The live game feed (v1.1, as the schedule's own `link` points to it). */
export function liveFeedUrl(gamePk: number): string {
  return `${STATSAPI_BASE_V11}/game/${gamePk}/feed/live`;
}

const rawPerson = z.looseObject({ id: z.number(), fullName: z.string().nullish() });

const rawFeed = z.looseObject({
  gamePk: z.number(),
  metaData: z.looseObject({ timeStamp: z.string().nullish() }).nullish(),
  gameData: z.looseObject({
    datetime: z.looseObject({ officialDate: z.string().nullish(), dateTime: z.string().nullish() }).nullish(),
    status: z.looseObject({ abstractGameState: z.string().nullish(), detailedState: z.string().nullish() }).nullish(),
    teams: z
      .looseObject({ home: z.looseObject({ abbreviation: z.string().nullish() }).nullish(), away: z.looseObject({ abbreviation: z.string().nullish() }).nullish() })
      .nullish(),
    probablePitchers: z.looseObject({ home: rawPerson.nullish(), away: rawPerson.nullish() }).nullish(),
  }),
  liveData: z.looseObject({
    linescore: z
      .looseObject({
        currentInning: z.number().nullish(),
        inningState: z.string().nullish(),
        outs: z.number().nullish(),
        teams: z.looseObject({ home: z.looseObject({ runs: z.number().nullish() }).nullish(), away: z.looseObject({ runs: z.number().nullish() }).nullish() }).nullish(),
      })
      .nullish(),
    boxscore: z.unknown(),
  }),
});

export const mlbLiveGameSchema = z.object({
  gamePk: z.number(),
  /** statsapi's own capture stamp ("20230823_013016"), when present. */
  timeStamp: z.string().nullable(),
  officialDate: z.string(),
  status: gameStatusSchema,
  detailedState: z.string().nullable(),
  inning: z.number().nullable(),
  inningState: z.string().nullable(),
  outs: z.number().nullable(),
  homeAbbr: z.string().nullable(),
  awayAbbr: z.string().nullable(),
  homeRuns: z.number().nullable(),
  awayRuns: z.number().nullable(),
  homeProbable: mlbProbableSchema.nullable(),
  awayProbable: mlbProbableSchema.nullable(),
  /** Current per-player values (the embedded boxscore) for live tracking and settlement. */
  lines: z.array(mlbPlayerLineSchema),
});
export type MlbLiveGame = z.infer<typeof mlbLiveGameSchema>;

/** Live feed to game state + current player lines. Unknown shape or no official date: null plus a warning. */
export function parseLiveFeed(json: unknown, log?: AdapterLog): MlbLiveGame | null {
  const p = rawFeed.safeParse(json);
  if (!p.success) {
    log?.warn('mlb live feed: unknown shape', { issues: p.error.issues.slice(0, 3) });
    return null;
  }
  const f = p.data;
  const officialDate = f.gameData.datetime?.officialDate;
  if (!officialDate) {
    log?.warn('mlb live feed: no official date', { gamePk: f.gamePk });
    return null;
  }
  const lines = parseBoxscore(f.liveData.boxscore, { gamePk: f.gamePk, date: officialDate, source: 'mlb-statsapi:feed-live' }, log);
  if (lines === null) return null;
  const ls = f.liveData.linescore;
  const status = mlbGameStatus(f.gameData.status);
  const started = status === 'in_progress' || status === 'final' || status === 'suspended';
  return {
    gamePk: f.gamePk,
    timeStamp: f.metaData?.timeStamp ?? null,
    officialDate,
    status,
    detailedState: f.gameData.status?.detailedState ?? null,
    inning: started ? (ls?.currentInning ?? null) : null,
    inningState: started ? (ls?.inningState ?? null) : null,
    outs: started ? (ls?.outs ?? null) : null,
    homeAbbr: f.gameData.teams?.home?.abbreviation ?? null,
    awayAbbr: f.gameData.teams?.away?.abbreviation ?? null,
    homeRuns: started ? (ls?.teams?.home?.runs ?? null) : null,
    awayRuns: started ? (ls?.teams?.away?.runs ?? null) : null,
    homeProbable: probableFrom(f.gameData.probablePitchers?.home),
    awayProbable: probableFrom(f.gameData.probablePitchers?.away),
    lines,
  };
}

export async function fetchLiveFeed(transport: Transport, gamePk: number, log?: AdapterLog): Promise<MlbLiveGame | null> {
  const json = await fetchJson(transport, 'mlb-statsapi', liveFeedUrl(gamePk), 'mlb live feed', log);
  return json === null ? null : parseLiveFeed(json, log);
}
