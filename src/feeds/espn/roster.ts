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

const rawRosterMeta = z.looseObject({
  timestamp: z.string().optional(),
  season: z.looseObject({ displayName: z.string().optional(), year: z.number().optional() }).optional(),
});

function rosterPlayer(item: unknown, league: EspnLeague, team: string | null): RosterPlayer | null {
  const a = rawAthlete.safeParse(item);
  const rawName = a.success ? (a.data.fullName ?? a.data.displayName) : undefined;
  if (!a.success || !rawName) return null;
  const name = normalizeName(rawName);
  const inj = a.data.injuries?.find((i) => i.status);
  return {
    sport: league.sport,
    team,
    espnId: a.data.id,
    playerName: name.display,
    playerKey: name.key,
    position: a.data.position?.abbreviation ?? null,
    jersey: a.data.jersey ?? null,
    injury: inj?.status ? { status: inj.status, chip: chipForStatus(inj.status), date: toUtcIso(inj.date) } : null,
  };
}

/** A roster page: the players in the provider's own grouping and order, with the provider's stamp. */
export interface RosterPage {
  team: string | null;
  /** The payload's own `timestamp` (ISO UTC), when present: when ESPN built this roster. */
  timestamp: string | null;
  /** ESPN's season label ("2025-26", "2025"), when present. */
  season: string | null;
  /** MLB rosters come grouped (`Pitchers`, `Catchers`...); basketball rosters are one group with a null label. */
  groups: Array<{ label: string | null; players: RosterPlayer[] }>;
}

/**
 * Team roster to players with their injury chip. Basketball rosters are a flat athlete list;
 * MLB rosters are grouped by position (`[{position, items}]`); both are read.
 */
export function parseRoster(json: unknown, league: EspnLeague, log?: AdapterLog): RosterPlayer[] | null {
  return parseRosterPage(json, league, log)?.groups.flatMap((g) => g.players) ?? null;
}

/** The roster with its groups, order and timestamp kept (the depth view reads them). */
export function parseRosterPage(json: unknown, league: EspnLeague, log?: AdapterLog): RosterPage | null {
  const top = rawRoster.safeParse(json);
  if (!top.success) {
    log?.warn('espn roster: unknown shape', { league: league.path, issues: top.error.issues.slice(0, 3) });
    return null;
  }
  const meta = rawRosterMeta.safeParse(json);
  const team = top.data.team?.abbreviation ?? null;
  const groups: RosterPage['groups'] = [];
  let loose: RosterPage['groups'][number] | null = null;
  let skipped = 0;
  for (const entry of top.data.athletes) {
    const group = rawGroup.safeParse(entry);
    const items = group.success ? group.data.items : [entry];
    let target: RosterPage['groups'][number];
    if (group.success) {
      target = { label: group.data.position ?? null, players: [] };
      groups.push(target);
    } else {
      if (loose === null) {
        loose = { label: null, players: [] };
        groups.push(loose);
      }
      target = loose;
    }
    for (const item of items) {
      const p = rosterPlayer(item, league, team);
      if (p) target.players.push(p);
      else skipped++;
    }
  }
  if (skipped > 0) log?.warn(`espn roster: skipped ${skipped} malformed athlete(s)`, { league: league.path, team });
  return {
    team,
    timestamp: meta.success ? toUtcIso(meta.data.timestamp) : null,
    season: meta.success ? (meta.data.season?.displayName ?? null) : null,
    groups,
  };
}

export async function fetchRosterPage(transport: Transport, league: EspnLeague, team: string, log?: AdapterLog): Promise<RosterPage | null> {
  const json = await fetchJson(transport, 'espn', rosterUrl(league, team), 'espn roster', log);
  return json === null ? null : parseRosterPage(json, league, log);
}

export async function fetchRoster(transport: Transport, league: EspnLeague, team: string, log?: AdapterLog): Promise<RosterPlayer[] | null> {
  const json = await fetchJson(transport, 'espn', rosterUrl(league, team), 'espn roster', log);
  return json === null ? null : parseRoster(json, league, log);
}
