import { z } from 'zod';
import type { Transport } from '../transport/types.js';
import { ESPN_WEB_BASE, num, toUtcIso, type EspnLeague } from './common.js';
import { fetchJson, type AdapterLog } from '../json.js';

/**
 * ESPN athlete season tables and game logs, read generically: every named column becomes a
 * number (or null), "made-attempted" columns split in two. They are inputs for season priors,
 * not settlement truth. Game logs are NOT mapped to PlayerGameStat: the only real site.web
 * gamelog sample is NFL (a shape reference); the NBA/WNBA/MLB column names are unverified.
 */

export function athleteStatsUrl(league: EspnLeague, athleteId: string): string {
  return `${ESPN_WEB_BASE}/${league.path}/athletes/${encodeURIComponent(athleteId)}/stats`;
}

export function athleteGamelogUrl(league: EspnLeague, athleteId: string): string {
  return `${ESPN_WEB_BASE}/${league.path}/athletes/${encodeURIComponent(athleteId)}/gamelog`;
}

const valuesSchema = z.record(z.string(), z.number().nullable());

export const athleteSeasonRowSchema = z.object({
  category: z.string(),
  season: z.number().nullable(),
  seasonLabel: z.string().nullable(),
  teamId: z.string().nullable(),
  values: valuesSchema,
});
export type AthleteSeasonRow = z.infer<typeof athleteSeasonRowSchema>;

export const gamelogRowSchema = z.object({
  eventId: z.string(),
  seasonType: z.string().nullable(),
  gameDate: z.string().nullable(),
  atVs: z.string().nullable(),
  opponentAbbr: z.string().nullable(),
  teamAbbr: z.string().nullable(),
  result: z.string().nullable(),
  values: valuesSchema,
});
export type GamelogRow = z.infer<typeof gamelogRowSchema>;

/** Aligns string cells to column names; "a-b" names with "x-y" cells give two entries. */
export function alignValues(names: readonly string[], cells: readonly string[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  names.forEach((name, i) => {
    const cell = cells[i];
    const parts = name.split('-');
    if (parts.length === 2 && parts[0] && parts[1]) {
      const m = typeof cell === 'string' ? /^\s*([\d.]+)\s*-\s*([\d.]+)\s*$/.exec(cell) : null;
      out[parts[0]] = m ? num(m[1]) : null;
      out[parts[1]] = m ? num(m[2]) : null;
    } else {
      out[name] = num(cell);
    }
  });
  return out;
}

const rawSeasonTables = z.looseObject({
  categories: z.array(
    z.looseObject({
      name: z.string(),
      names: z.array(z.string()),
      statistics: z.array(
        z.looseObject({
          season: z.looseObject({ year: z.number().optional(), displayName: z.string().optional() }).optional(),
          teamId: z.string().optional(),
          stats: z.array(z.string()),
        }),
      ),
    }),
  ),
});

/** site.web `/athletes/{id}/stats`: one row per category x season (x team for traded seasons). */
export function parseAthleteSeasonStats(json: unknown, log?: AdapterLog): AthleteSeasonRow[] | null {
  const p = rawSeasonTables.safeParse(json);
  if (!p.success) {
    log?.warn('espn athlete stats: unknown shape', { issues: p.error.issues.slice(0, 3) });
    return null;
  }
  return p.data.categories.flatMap((cat) =>
    cat.statistics.map((row) => ({
      category: cat.name,
      season: row.season?.year ?? null,
      seasonLabel: row.season?.displayName ?? null,
      teamId: row.teamId ?? null,
      values: alignValues(cat.names, row.stats),
    })),
  );
}

const rawCoreStatistics = z.looseObject({
  splits: z.looseObject({
    categories: z.array(z.looseObject({ name: z.string(), stats: z.array(z.looseObject({ name: z.string(), value: z.number().optional() })) })),
  }),
});

/** sports.core `/athletes/{id}/statistics`: category -> stat name -> value (numbers already). */
export function parseAthleteCoreStatistics(json: unknown, log?: AdapterLog): Record<string, Record<string, number | null>> | null {
  const p = rawCoreStatistics.safeParse(json);
  if (!p.success) {
    log?.warn('espn core statistics: unknown shape', { issues: p.error.issues.slice(0, 3) });
    return null;
  }
  const out: Record<string, Record<string, number | null>> = {};
  for (const cat of p.data.splits.categories) {
    out[cat.name] = Object.fromEntries(cat.stats.map((s) => [s.name, num(s.value)]));
  }
  return out;
}

const rawGamelog = z.looseObject({
  names: z.array(z.string()),
  events: z.record(
    z.string(),
    z.looseObject({
      gameDate: z.string().optional(),
      atVs: z.string().optional(),
      gameResult: z.string().optional(),
      opponent: z.looseObject({ abbreviation: z.string().optional() }).optional(),
      team: z.looseObject({ abbreviation: z.string().optional() }).optional(),
    }),
  ),
  seasonTypes: z.array(
    z.looseObject({
      displayName: z.string().optional(),
      categories: z.array(z.looseObject({ events: z.array(z.looseObject({ eventId: z.string(), stats: z.array(z.string()) })).optional() })),
    }),
  ),
});

/** site.web `/athletes/{id}/gamelog`: one row per game, columns named by the payload's `names`. */
export function parseAthleteGamelog(json: unknown, log?: AdapterLog): GamelogRow[] | null {
  const p = rawGamelog.safeParse(json);
  if (!p.success) {
    log?.warn('espn gamelog: unknown shape', { issues: p.error.issues.slice(0, 3) });
    return null;
  }
  const g = p.data;
  const rows: GamelogRow[] = [];
  for (const st of g.seasonTypes) {
    for (const cat of st.categories) {
      for (const ev of cat.events ?? []) {
        const meta = g.events[ev.eventId];
        rows.push({
          eventId: ev.eventId,
          seasonType: st.displayName ?? null,
          gameDate: toUtcIso(meta?.gameDate),
          atVs: meta?.atVs ?? null,
          opponentAbbr: meta?.opponent?.abbreviation ?? null,
          teamAbbr: meta?.team?.abbreviation ?? null,
          result: meta?.gameResult ?? null,
          values: alignValues(g.names, ev.stats),
        });
      }
    }
  }
  return rows;
}

export async function fetchAthleteSeasonStats(transport: Transport, league: EspnLeague, athleteId: string, log?: AdapterLog): Promise<AthleteSeasonRow[] | null> {
  const json = await fetchJson(transport, 'espn', athleteStatsUrl(league, athleteId), 'espn athlete stats', log);
  return json === null ? null : parseAthleteSeasonStats(json, log);
}

export async function fetchAthleteGamelog(transport: Transport, league: EspnLeague, athleteId: string, log?: AdapterLog): Promise<GamelogRow[] | null> {
  const json = await fetchJson(transport, 'espn', athleteGamelogUrl(league, athleteId), 'espn gamelog', log);
  return json === null ? null : parseAthleteGamelog(json, log);
}

