import { z } from 'zod';
import { normalizeName } from '../../domain/names.js';
import { fetchJson, type AdapterLog } from '../json.js';
import { mlbTeamByStatsapiId } from '../teams/lookup.js';
import type { Transport } from '../transport/types.js';
import { STATSAPI_BASE } from './common.js';

export function personUrl(mlbamId: number): string {
  return `${STATSAPI_BASE}/people/${mlbamId}`;
}

/** Every MLB player of a season: the practical name -> MLBAM id lookup (statsapi has no reliable search). */
export function seasonPlayersUrl(season: number): string {
  return `${STATSAPI_BASE}/sports/1/players?season=${season}`;
}

export const mlbPersonSchema = z.object({
  mlbamId: z.number(),
  playerName: z.string(),
  playerKey: z.string(),
  teamAbbr: z.string().nullable(),
  position: z.string().nullable(),
  pitchHand: z.string().nullable(),
  batSide: z.string().nullable(),
});
export type MlbPerson = z.infer<typeof mlbPersonSchema>;

const rawPerson = z.looseObject({
  id: z.number(),
  fullName: z.string(),
  currentTeam: z.looseObject({ id: z.number().nullish() }).nullish(),
  primaryPosition: z.looseObject({ abbreviation: z.string().nullish() }).nullish(),
  pitchHand: z.looseObject({ code: z.string().nullish() }).nullish(),
  batSide: z.looseObject({ code: z.string().nullish() }).nullish(),
});

const rawPeople = z.looseObject({ people: z.array(z.unknown()) });

/** `/people/{id}` and `/sports/1/players` share `{people: [...]}`. */
export function parsePeople(json: unknown, log?: AdapterLog): MlbPerson[] | null {
  const top = rawPeople.safeParse(json);
  if (!top.success) {
    log?.warn('mlb people: unknown shape', { issues: top.error.issues.slice(0, 3) });
    return null;
  }
  const out: MlbPerson[] = [];
  let skipped = 0;
  for (const raw of top.data.people) {
    const p = rawPerson.safeParse(raw);
    if (!p.success) {
      skipped++;
      continue;
    }
    const n = normalizeName(p.data.fullName);
    const teamId = p.data.currentTeam?.id;
    out.push({
      mlbamId: p.data.id,
      playerName: n.display,
      playerKey: n.key,
      teamAbbr: typeof teamId === 'number' ? (mlbTeamByStatsapiId(teamId)?.espn ?? null) : null,
      position: p.data.primaryPosition?.abbreviation ?? null,
      pitchHand: p.data.pitchHand?.code ?? null,
      batSide: p.data.batSide?.code ?? null,
    });
  }
  if (skipped > 0) log?.warn(`mlb people: skipped ${skipped} unreadable person entr${skipped === 1 ? 'y' : 'ies'}`);
  return out;
}

export const mlbRosterEntrySchema = z.object({
  mlbamId: z.number(),
  playerName: z.string(),
  playerKey: z.string(),
  position: z.string().nullable(),
  jersey: z.string().nullable(),
  status: z.string().nullable(),
});
export type MlbRosterEntry = z.infer<typeof mlbRosterEntrySchema>;

export function teamRosterUrl(statsapiTeamId: number): string {
  return `${STATSAPI_BASE}/teams/${statsapiTeamId}/roster`;
}

const rawRosterEntry = z.looseObject({
  person: z.looseObject({ id: z.number(), fullName: z.string() }),
  jerseyNumber: z.string().nullish(),
  position: z.looseObject({ abbreviation: z.string().nullish() }).nullish(),
  status: z.looseObject({ description: z.string().nullish() }).nullish(),
});

/** `/teams/{id}/roster` to roster entries. Unknown shape: null plus a warning. */
export function parseTeamRoster(json: unknown, log?: AdapterLog): MlbRosterEntry[] | null {
  const top = z.looseObject({ roster: z.array(z.unknown()) }).safeParse(json);
  if (!top.success) {
    log?.warn('mlb team roster: unknown shape', { issues: top.error.issues.slice(0, 3) });
    return null;
  }
  return top.data.roster.flatMap((raw) => {
    const p = rawRosterEntry.safeParse(raw);
    if (!p.success) return [];
    const n = normalizeName(p.data.person.fullName);
    return [
      {
        mlbamId: p.data.person.id,
        playerName: n.display,
        playerKey: n.key,
        position: p.data.position?.abbreviation ?? null,
        jersey: p.data.jerseyNumber ?? null,
        status: p.data.status?.description ?? null,
      },
    ];
  });
}

/**
 * The MLBAM id for a name (any spelling normalizeName folds to the same key), optionally within
 * a team. Two different people sharing the key is ambiguous: null, never a guess.
 */
export function mlbamIdByName(people: readonly MlbPerson[], name: string, teamAbbr?: string): number | null {
  const key = normalizeName(name).key;
  const matches = people.filter((p) => p.playerKey === key && (teamAbbr === undefined || p.teamAbbr === teamAbbr));
  const ids = new Set(matches.map((p) => p.mlbamId));
  return ids.size === 1 ? (matches[0]?.mlbamId ?? null) : null;
}

export async function fetchSeasonPlayers(transport: Transport, season: number, log?: AdapterLog): Promise<MlbPerson[] | null> {
  const json = await fetchJson(transport, 'mlb-statsapi', seasonPlayersUrl(season), 'mlb season players', log);
  return json === null ? null : parsePeople(json, log);
}

export async function fetchPerson(transport: Transport, mlbamId: number, log?: AdapterLog): Promise<MlbPerson | null> {
  const json = await fetchJson(transport, 'mlb-statsapi', personUrl(mlbamId), 'mlb person', log);
  return json === null ? null : (parsePeople(json, log)?.[0] ?? null);
}
