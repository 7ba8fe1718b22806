import { z } from 'zod';
import { normalizeName } from '../../domain/names.js';
import { sportSchema } from '../../domain/sports.js';
import type { Transport } from '../transport/types.js';
import { ESPN_SITE_BASE, toUtcIso, type EspnLeague } from './common.js';
import { fetchJson, type AdapterLog } from '../json.js';
import { chipForStatus, injuryChipSchema } from './injuries.js';

/** `.../teams/{abbr}/roster`; ESPN accepts the team abbreviation or its numeric id. */
export function rosterUrl(league: EspnLeague, team: string): string {
  return `${ESPN_SITE_BASE}/${league.path}/teams/${encodeURIComponent(team.toLowerCase())}/roster`;
}

export const rosterPlayerSchema = z.object({
  sport: sportSchema,
  team: z.string().nullable(),
  espnId: z.string(),
  playerName: z.string(),
  playerKey: z.string(),
  position: z.string().nullable(),
  jersey: z.string().nullable(),
  /** The roster's minimal injury entry (`{status, date}`); null when the list is empty. */
  injury: z.object({ status: z.string(), chip: injuryChipSchema.nullable(), date: z.string().nullable() }).nullable(),
});
export type RosterPlayer = z.infer<typeof rosterPlayerSchema>;

const rawAthlete = z.looseObject({
  id: z.string(),
  fullName: z.string().optional(),
  displayName: z.string().optional(),
  jersey: z.string().optional(),
  position: z.looseObject({ abbreviation: z.string().optional() }).optional(),
  injuries: z.array(z.looseObject({ status: z.string().optional(), date: z.string().optional() })).optional(),
});

const rawRoster = z.looseObject({
  team: z.looseObject({ abbreviation: z.string().optional() }).optional(),
  athletes: z.array(z.unknown()),
});

const rawGroup = z.looseObject({ position: z.string().optional(), items: z.array(z.unknown()) });

/**
 * Team roster to players with their injury chip. Basketball rosters are a flat athlete list;
 * MLB rosters are grouped by position (`[{position, items}]`); both are read.
 */
export function parseRoster(json: unknown, league: EspnLeague, log?: AdapterLog): RosterPlayer[] | null {
  const top = rawRoster.safeParse(json);
  if (!top.success) {
    log?.warn('espn roster: unknown shape', { league: league.path, issues: top.error.issues.slice(0, 3) });
    return null;
  }
  const team = top.data.team?.abbreviation ?? null;
  const flat: unknown[] = top.data.athletes.flatMap((entry) => {
    const group = rawGroup.safeParse(entry);
    return group.success ? group.data.items : [entry];
  });
  const players: RosterPlayer[] = [];
  let skipped = 0;
  for (const item of flat) {
    const a = rawAthlete.safeParse(item);
    const rawName = a.success ? (a.data.fullName ?? a.data.displayName) : undefined;
    if (!a.success || !rawName) {
      skipped++;
      continue;
    }
    const name = normalizeName(rawName);
    const inj = a.data.injuries?.find((i) => i.status);
    players.push({
      sport: league.sport,
      team,
      espnId: a.data.id,
      playerName: name.display,
      playerKey: name.key,
      position: a.data.position?.abbreviation ?? null,
      jersey: a.data.jersey ?? null,
      injury: inj?.status ? { status: inj.status, chip: chipForStatus(inj.status), date: toUtcIso(inj.date) } : null,
    });
  }
  if (skipped > 0) log?.warn(`espn roster: skipped ${skipped} malformed athlete(s)`, { league: league.path, team });
  return players;
}

export async function fetchRoster(transport: Transport, league: EspnLeague, team: string, log?: AdapterLog): Promise<RosterPlayer[] | null> {
  const json = await fetchJson(transport, 'espn', rosterUrl(league, team), 'espn roster', log);
  return json === null ? null : parseRoster(json, league, log);
}
