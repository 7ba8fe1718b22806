import { z } from 'zod';
import { gameEventSchema, gameStatusSchema } from '../../domain/entities.js';
import { normalizeName } from '../../domain/names.js';
import type { Transport } from '../transport/types.js';
import { ESPN_SITE_BASE, espnGameStatus, num, toUtcIso, type EspnLeague } from './common.js';
import { fetchJson, type AdapterLog } from '../json.js';

/** `.../scoreboard?dates=YYYYMMDD`; the query date is the US slate date (not re-derived from event dates). */
export function scoreboardUrl(league: EspnLeague, slateDate: string): string {
  const compact = slateDate.replace(/-/g, '');
  return `${ESPN_SITE_BASE}/${league.path}/scoreboard?dates=${compact}`;
}

// ---- raw payload (lenient: ESPN omits rather than nulls; numbers are often strings) ----

const rawStatusType = z.looseObject({
  name: z.string().optional(),
  state: z.string().optional(),
  completed: z.boolean().optional(),
  detail: z.string().optional(),
  shortDetail: z.string().optional(),
});
const rawStatus = z.looseObject({ type: rawStatusType.optional(), period: z.number().optional() });

const rawProbable = z.looseObject({
  name: z.string().optional(),
  playerId: z.union([z.number(), z.string()]).optional(),
  athlete: z.looseObject({ id: z.string().optional(), fullName: z.string().optional(), displayName: z.string().optional() }).optional(),
  statistics: z.array(z.looseObject({ name: z.string().optional(), displayValue: z.string().optional() })).optional(),
  record: z.string().optional(),
});

const rawCompetitor = z.looseObject({
  homeAway: z.string().optional(),
  score: z.union([z.string(), z.number()]).optional(),
  team: z
    .looseObject({ id: z.string().optional(), abbreviation: z.string().optional(), displayName: z.string().optional(), name: z.string().optional() })
    .optional(),
  probables: z.array(rawProbable).optional(),
});

const rawEvent = z.looseObject({
  id: z.string(),
  date: z.string().optional(),
  name: z.string().optional(),
  status: rawStatus.optional(),
  competitions: z.array(z.looseObject({ date: z.string().optional(), status: rawStatus.optional(), competitors: z.array(rawCompetitor).optional() })).optional(),
});

const rawScoreboard = z.looseObject({ events: z.array(z.unknown()) });

// ---- domain records ----

export const probablePitcherSchema = z.object({
  espnId: z.string().nullable(),
  name: z.string(),
  playerKey: z.string(),
  /** ERA parsed from the `ERA` statistic's display string; null when ESPN sent no ERA. */
  era: z.number().nullable(),
  /** The ERA exactly as ESPN printed it ("3.78"). */
  eraText: z.string().nullable(),
  /** ESPN's "(3-4, 3.78)" record text, when non-empty. */
  record: z.string().nullable(),
});
export type ProbablePitcher = z.infer<typeof probablePitcherSchema>;

export const scoreboardGameSchema = z.object({
  event: gameEventSchema,
  league: z.string(),
  status: gameStatusSchema,
  /** ESPN `status.type.name` (STATUS_FINAL, STATUS_RAIN_DELAY...) for display and diagnostics. */
  statusName: z.string().nullable(),
  completed: z.boolean(),
  statusDetail: z.string().nullable(),
  /** Scores only once the game has started (ESPN prints "0" for games not yet played). */
  homeScore: z.number().nullable(),
  awayScore: z.number().nullable(),
  /** MLB probable starters; null for a side without one (and for other sports). */
  homeProbable: probablePitcherSchema.nullable(),
  awayProbable: probablePitcherSchema.nullable(),
});
export type ScoreboardGame = z.infer<typeof scoreboardGameSchema>;

function probableFrom(list: z.infer<typeof rawProbable>[] | undefined): ProbablePitcher | null {
  const p = list?.find((x) => x.name === undefined || x.name === 'probableStartingPitcher') ?? list?.[0];
  const rawName = p?.athlete?.fullName ?? p?.athlete?.displayName;
  if (!p || !rawName) return null;
  const eraText = p.statistics?.find((s) => s.name === 'ERA')?.displayValue ?? null;
  const era = num(eraText);
  const espnId = p.athlete?.id ?? (p.playerId !== undefined ? String(p.playerId) : null);
  const name = normalizeName(rawName);
  return {
    espnId,
    name: name.display,
    playerKey: name.key,
    era,
    eraText: era === null ? null : eraText,
    record: p.record && p.record.trim() !== '' ? p.record : null,
  };
}

/**
 * Team-sport scoreboard (nba, wnba, mlb, soccer) to games. Events without a usable date or
 * without a home and an away team are dropped (counted in one warning). Unknown shape: null.
 */
export function parseScoreboard(json: unknown, league: EspnLeague, log?: AdapterLog): ScoreboardGame[] | null {
  const top = rawScoreboard.safeParse(json);
  if (!top.success) {
    log?.warn('espn scoreboard: unknown shape', { league: league.path, issues: top.error.issues.slice(0, 3) });
    return null;
  }
  const games: ScoreboardGame[] = [];
  const dropped: Array<{ id: string | null; why: string }> = [];
  for (const item of top.data.events) {
    const parsed = rawEvent.safeParse(item);
    if (!parsed.success) {
      dropped.push({ id: null, why: 'unknown event shape' });
      continue;
    }
    const ev = parsed.data;
    const comp = ev.competitions?.[0];
    const commenceTime = toUtcIso(comp?.date ?? ev.date);
    if (!commenceTime) {
      dropped.push({ id: ev.id, why: 'no date' });
      continue;
    }
    const home = comp?.competitors?.find((c) => c.homeAway === 'home');
    const away = comp?.competitors?.find((c) => c.homeAway === 'away');
    const homeName = home?.team?.displayName ?? home?.team?.name;
    const awayName = away?.team?.displayName ?? away?.team?.name;
    if (!home || !away || !homeName || !awayName) {
      dropped.push({ id: ev.id, why: 'not two teams' });
      continue;
    }
    const type = (comp?.status ?? ev.status)?.type;
    const status = espnGameStatus(type);
    const started = status === 'in_progress' || status === 'final' || status === 'suspended';
    games.push({
      event: {
        provider: 'espn',
        id: ev.id,
        sport: league.sport,
        commenceTime,
        homeTeam: homeName,
        awayTeam: awayName,
        homeAbbr: home.team?.abbreviation ?? null,
        awayAbbr: away.team?.abbreviation ?? null,
      },
      league: league.league,
      status,
      statusName: type?.name ?? null,
      completed: type?.completed === true,
      statusDetail: type?.detail ?? type?.shortDetail ?? null,
      homeScore: started ? num(home.score) : null,
      awayScore: started ? num(away.score) : null,
      homeProbable: probableFrom(home.probables),
      awayProbable: probableFrom(away.probables),
    });
  }
  if (dropped.length > 0) log?.warn(`espn scoreboard: dropped ${dropped.length} event(s)`, { league: league.path, dropped });
  return games;
}

export async function fetchScoreboard(transport: Transport, league: EspnLeague, slateDate: string, log?: AdapterLog): Promise<ScoreboardGame[] | null> {
  const json = await fetchJson(transport, 'espn', scoreboardUrl(league, slateDate), 'espn scoreboard', log);
  return json === null ? null : parseScoreboard(json, league, log);
}
