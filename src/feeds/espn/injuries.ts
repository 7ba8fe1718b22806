import { z } from 'zod';
import { normalizeName } from '../../domain/names.js';
import { sportSchema, type Sport } from '../../domain/sports.js';
import { teamAbbr } from '../teams/lookup.js';
import type { Transport } from '../transport/types.js';
import { ESPN_SITE_BASE, toUtcIso, type EspnLeague } from './common.js';
import { fetchJson, type AdapterLog } from '../json.js';

export function injuriesUrl(league: EspnLeague): string {
  return `${ESPN_SITE_BASE}/${league.path}/injuries`;
}

export const injuryChipSchema = z.enum(['OUT', 'GTD', 'PROB']);
export type InjuryChip = z.infer<typeof injuryChipSchema>;

const CHIP_BY_STATUS: Record<string, InjuryChip> = {
  out: 'OUT',
  'out for season': 'OUT',
  // Injured-list placements: the player cannot play, which is what OUT means on a slate.
  '7-day-il': 'OUT',
  '10-day-il': 'OUT',
  '15-day-il': 'OUT',
  '60-day-il': 'OUT',
  'day-to-day': 'GTD',
  questionable: 'GTD',
  doubtful: 'GTD',
  probable: 'PROB',
};

/** ESPN injury status text to a chip; an unknown status yields no chip (null), never a guess. */
export function chipForStatus(status: string | null | undefined): InjuryChip | null {
  if (!status) return null;
  return CHIP_BY_STATUS[status.trim().toLowerCase()] ?? null;
}

export const injurySchema = z.object({
  provider: z.literal('espn'),
  sport: sportSchema,
  /** ESPN athlete id (from the athlete object, or its player-card link on the league endpoint). */
  athleteId: z.string().nullable(),
  playerName: z.string(),
  playerKey: z.string(),
  team: z.string().nullable(),
  /** ESPN's status text as sent ("Out", "Day-To-Day", "10-Day-IL"). */
  status: z.string(),
  chip: injuryChipSchema.nullable(),
  date: z.string().nullable(),
  /** Body part / detail ("Abdomen - Surgery") when ESPN gave one. */
  detail: z.string().nullable(),
  comment: z.string().nullable(),
});
export type Injury = z.infer<typeof injurySchema>;

// ---- raw payload ----

const rawInjuryItem = z.looseObject({
  status: z.string().optional(),
  date: z.string().optional(),
  shortComment: z.string().optional(),
  athlete: z
    .looseObject({
      id: z.string().optional(),
      displayName: z.string().optional(),
      fullName: z.string().optional(),
      links: z.array(z.looseObject({ href: z.string().optional(), rel: z.array(z.string()).optional() })).optional(),
      team: z.looseObject({ abbreviation: z.string().optional() }).optional(),
    })
    .optional(),
  details: z.looseObject({ type: z.string().optional(), detail: z.string().optional() }).optional(),
});

/** One team's list: the league endpoint (`displayName`) and summaries (`team{}`) share it. */
export const rawTeamInjuries = z.looseObject({
  displayName: z.string().optional(),
  team: z.looseObject({ abbreviation: z.string().optional(), displayName: z.string().optional() }).optional(),
  injuries: z.array(z.unknown()).optional(),
});

const rawInjuriesPayload = z.looseObject({ injuries: z.array(z.unknown()) });

function athleteIdFromLinks(links: Array<{ href?: string | undefined }> | undefined): string | null {
  for (const link of links ?? []) {
    const m = /\/id\/(\d+)/.exec(link.href ?? '');
    if (m?.[1]) return m[1];
  }
  return null;
}

function injuryFrom(item: unknown, sport: Sport, teamFallback: string | null): Injury | null {
  const parsed = rawInjuryItem.safeParse(item);
  if (!parsed.success) return null;
  const i = parsed.data;
  const rawName = i.athlete?.displayName ?? i.athlete?.fullName;
  if (!rawName || !i.status) return null;
  const name = normalizeName(rawName);
  const detailParts = [i.details?.type, i.details?.detail].filter((x): x is string => !!x && x.trim() !== '');
  return {
    provider: 'espn',
    sport,
    athleteId: i.athlete?.id ?? athleteIdFromLinks(i.athlete?.links),
    playerName: name.display,
    playerKey: name.key,
    team: i.athlete?.team?.abbreviation ?? teamFallback,
    status: i.status,
    chip: chipForStatus(i.status),
    date: toUtcIso(i.date),
    detail: detailParts.length > 0 ? detailParts.join(' - ') : null,
    comment: i.shortComment ?? null,
  };
}

/** Team injury lists (league endpoint or summary) to injury records; malformed items are skipped and counted. */
export function injuriesFromTeamLists(teams: unknown[], sport: Sport, log?: AdapterLog): Injury[] {
  const out: Injury[] = [];
  let skipped = 0;
  for (const raw of teams) {
    const team = rawTeamInjuries.safeParse(raw);
    if (!team.success) {
      skipped++;
      continue;
    }
    const teamName = team.data.team?.displayName ?? team.data.displayName;
    const fallback = team.data.team?.abbreviation ?? (teamName ? teamAbbr(sport, teamName) : null);
    for (const item of team.data.injuries ?? []) {
      const injury = injuryFrom(item, sport, fallback);
      if (injury) out.push(injury);
      else skipped++;
    }
  }
  if (skipped > 0) log?.warn(`espn injuries: skipped ${skipped} malformed entr${skipped === 1 ? 'y' : 'ies'}`, { sport });
  return out;
}

/** League-wide `/injuries` payload to injury records. Unknown shape: null plus a warning. */
export function parseInjuries(json: unknown, sport: Sport, log?: AdapterLog): Injury[] | null {
  const top = rawInjuriesPayload.safeParse(json);
  if (!top.success) {
    log?.warn('espn injuries: unknown shape', { sport, issues: top.error.issues.slice(0, 3) });
    return null;
  }
  return injuriesFromTeamLists(top.data.injuries, sport, log);
}

export async function fetchInjuries(transport: Transport, league: EspnLeague, log?: AdapterLog): Promise<Injury[] | null> {
  const json = await fetchJson(transport, 'espn', injuriesUrl(league), 'espn injuries', log);
  return json === null ? null : parseInjuries(json, league.sport, log);
}
