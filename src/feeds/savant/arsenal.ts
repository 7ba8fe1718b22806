import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { normalizeName } from '../../domain/names.js';
import { savantToEspn } from '../teams/lookup.js';
import type { AdapterLog } from '../json.js';
import type { Transport } from '../transport/types.js';

const SAVANT_BASE = 'https://baseballsavant.mlb.com/leaderboard';

/** One row per pitcher x pitch type: usage, whiff %, per-pitch K%. No velocity in this export. */
export function arsenalStatsUrl(season: number): string {
  return `${SAVANT_BASE}/pitch-arsenal-stats?type=pitcher&pitchType=&year=${season}&team=&min=1&csv=true`;
}

/** One row per pitcher: average velocity per pitch type (`<type>_avg_speed`). */
export function avgSpeedUrl(season: number): string {
  return `${SAVANT_BASE}/pitch-arsenals?year=${season}&min=1&type=avg_speed&hand=&csv=true`;
}

// ---- records ----

export const arsenalStatRowSchema = z.object({
  mlbamId: z.number(),
  pitcherName: z.string(),
  /** Savant team code (AZ, CWS...) and the ESPN abbreviation it maps to. */
  savantTeam: z.string().nullable(),
  team: z.string().nullable(),
  pitchType: z.string(),
  pitchName: z.string().nullable(),
  pitches: z.number().nullable(),
  pa: z.number().nullable(),
  usagePct: z.number().nullable(),
  whiffPct: z.number().nullable(),
  /** Strikeouts / PAs ending on this pitch type: per pitch, not the pitcher's overall K%. */
  kPct: z.number().nullable(),
});
export type ArsenalStatRow = z.infer<typeof arsenalStatRowSchema>;

export const avgSpeedRowSchema = z.object({
  mlbamId: z.number(),
  pitcherName: z.string(),
  /** Lower-case pitch code (ff, si, sl...) -> mph; absent when the cell is empty. */
  speeds: z.record(z.string(), z.number()),
});
export type AvgSpeedRow = z.infer<typeof avgSpeedRowSchema>;

export const arsenalPitchSchema = z.object({
  pitchType: z.string(),
  pitchName: z.string().nullable(),
  usagePct: z.number(),
  whiffPct: z.number().nullable(),
  velocity: z.number().nullable(),
  kPct: z.number().nullable(),
});
export type ArsenalPitch = z.infer<typeof arsenalPitchSchema>;

export const pitcherArsenalSchema = z.discriminatedUnion('found', [
  z.object({
    found: z.literal(true),
    pitcher: z.object({ mlbamId: z.number(), name: z.string(), key: z.string(), team: z.string().nullable() }),
    /** Ranked by usage, highest first. */
    pitches: z.array(arsenalPitchSchema),
    /**
     * PA-weighted mean of the per-pitch K% (strikeouts / PAs over the listed pitch types).
     * Exact when the export lists every pitch type with a PA (the 2025 export, min 1 PA); the
     * older 2022 export drops rows under 10 PA, so there it covers only the listed pitches.
     */
    strikeoutPct: z.number().nullable(),
  }),
  z.object({ found: z.literal(false) }),
]);
export type PitcherArsenal = z.infer<typeof pitcherArsenalSchema>;

// ---- CSV parsing ----

function readCsv(text: string, what: string, log?: AdapterLog): Record<string, string>[] | null {
  try {
    const rows = parse(text, { columns: true, bom: true, skip_empty_lines: true, trim: true, relax_quotes: true }) as unknown;
    return z.array(z.record(z.string(), z.string())).parse(rows);
  } catch (err) {
    log?.warn(`${what}: unreadable CSV`, { error: err instanceof Error ? err.message : String(err), head: text.slice(0, 80) });
    return null;
  }
}

const numOrNull = (s: string | undefined): number | null => {
  if (s === undefined || s.trim() === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
};

/**
 * Current exports quote "last_name, first_name" as one column; the older (2022) export has an
 * unquoted header, so the name arrives split over `last_name` and ` first_name`.
 */
function pitcherNameOf(row: Record<string, string>): string | null {
  const joined = row['last_name, first_name'];
  if (joined) return joined;
  const last = row['last_name'];
  const first = row['first_name'];
  return last && first ? `${last}, ${first}` : null;
}

/** Header names trimmed (the 2022 export has " first_name"). */
function trimKeys(rows: Record<string, string>[]): Record<string, string>[] {
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k.trim(), v])));
}

export function parseArsenalStatsCsv(text: string, log?: AdapterLog): ArsenalStatRow[] | null {
  const raw = readCsv(text, 'savant arsenal stats', log);
  if (!raw) return null;
  const rows = trimKeys(raw);
  if (rows.length > 0 && !('pitch_type' in rows[0]! && 'player_id' in rows[0]! && 'pitch_usage' in rows[0]!)) {
    log?.warn('savant arsenal stats: unknown columns', { columns: Object.keys(rows[0]!) });
    return null;
  }
  const out: ArsenalStatRow[] = [];
  let skipped = 0;
  for (const r of rows) {
    const id = numOrNull(r['player_id']);
    const name = pitcherNameOf(r);
    const pitchType = r['pitch_type'];
    if (id === null || !name || !pitchType) {
      skipped++;
      continue;
    }
    const savantTeam = r['team_name_alt'] || null;
    out.push({
      mlbamId: id,
      pitcherName: name,
      savantTeam,
      team: savantTeam ? savantToEspn(savantTeam) : null,
      pitchType,
      pitchName: r['pitch_name'] || null,
      pitches: numOrNull(r['pitches']),
      pa: numOrNull(r['pa']),
      usagePct: numOrNull(r['pitch_usage']),
      whiffPct: numOrNull(r['whiff_percent']),
      kPct: numOrNull(r['k_percent']),
    });
  }
  if (skipped > 0) log?.warn(`savant arsenal stats: skipped ${skipped} row(s) without id, name or pitch type`);
  return out;
}

export function parseAvgSpeedCsv(text: string, log?: AdapterLog): AvgSpeedRow[] | null {
  const raw = readCsv(text, 'savant avg speed', log);
  if (!raw) return null;
  const rows = trimKeys(raw);
  if (rows.length > 0 && !('pitcher' in rows[0]!)) {
    log?.warn('savant avg speed: unknown columns', { columns: Object.keys(rows[0]!) });
    return null;
  }
  const out: AvgSpeedRow[] = [];
  for (const r of rows) {
    const id = numOrNull(r['pitcher']);
    const name = pitcherNameOf(r);
    if (id === null || !name) continue;
    const speeds: Record<string, number> = {};
    for (const [col, value] of Object.entries(r)) {
      const m = /^([a-z]+)_avg_speed$/.exec(col);
      const mph = numOrNull(value);
      if (m?.[1] && mph !== null) speeds[m[1]] = mph;
    }
    out.push({ mlbamId: id, pitcherName: name, speeds });
  }
  return out;
}

// ---- join ----

/** Arsenal pitch code -> avg-speed column code (the 2022 export groups CU+KC and SI+FT). */
const SPEED_CODE: Record<string, string> = { CUKC: 'cu', KC: 'cu', SIFT: 'si' };
const speedCodeFor = (pitchType: string): string => SPEED_CODE[pitchType] ?? pitchType.toLowerCase();

export interface ArsenalIndex {
  stats: ReadonlyMap<number, readonly ArsenalStatRow[]>;
  speeds: ReadonlyMap<number, AvgSpeedRow>;
}

export function buildArsenalIndex(stats: readonly ArsenalStatRow[], speeds: readonly AvgSpeedRow[]): ArsenalIndex {
  const byPitcher = new Map<number, ArsenalStatRow[]>();
  for (const row of stats) {
    const list = byPitcher.get(row.mlbamId) ?? [];
    list.push(row);
    byPitcher.set(row.mlbamId, list);
  }
  return { stats: byPitcher, speeds: new Map(speeds.map((s) => [s.mlbamId, s])) };
}

function weightedStrikeoutPct(rows: readonly ArsenalStatRow[]): number | null {
  let strikeouts = 0;
  let pas = 0;
  for (const r of rows) {
    if (r.kPct === null || r.pa === null) return null;
    strikeouts += (r.kPct * r.pa) / 100;
    pas += r.pa;
  }
  return pas > 0 ? Math.round((1000 * strikeouts) / pas) / 10 : null;
}

/** A pitcher's arsenal (by MLBAM id) joined with velocity; `{found:false}` when the pitcher has no rows. */
export function pitcherArsenal(index: ArsenalIndex, mlbamId: number): PitcherArsenal {
  const rows = index.stats.get(mlbamId);
  const first = rows?.[0];
  if (!rows || !first) return { found: false };
  const speeds = index.speeds.get(mlbamId)?.speeds;
  const pitches: ArsenalPitch[] = rows
    .filter((r): r is ArsenalStatRow & { usagePct: number } => r.usagePct !== null)
    .sort((a, b) => b.usagePct - a.usagePct || (b.pitches ?? 0) - (a.pitches ?? 0))
    .map((r) => ({
      pitchType: r.pitchType,
      pitchName: r.pitchName,
      usagePct: r.usagePct,
      whiffPct: r.whiffPct,
      velocity: speeds?.[speedCodeFor(r.pitchType)] ?? null,
      kPct: r.kPct,
    }));
  const n = normalizeName(first.pitcherName);
  return {
    found: true,
    pitcher: { mlbamId, name: n.display, key: n.key, team: first.team },
    pitches,
    strikeoutPct: weightedStrikeoutPct(rows),
  };
}

async function fetchText(transport: Transport, url: string, what: string, log?: AdapterLog): Promise<string | null> {
  const outcome = await transport.fetch({ provider: 'savant', url, accept: 'text' });
  if (!outcome.ok) {
    log?.warn(`${what}: unavailable`, { url, status: outcome.status, reason: outcome.reason });
    return null;
  }
  return outcome.body;
}

/** Both season exports, parsed (plain rows, so a cache can store them); null when either is unavailable or unreadable. */
export async function fetchArsenalRows(transport: Transport, season: number, log?: AdapterLog): Promise<{ stats: ArsenalStatRow[]; speeds: AvgSpeedRow[] } | null> {
  const [statsText, speedText] = await Promise.all([
    fetchText(transport, arsenalStatsUrl(season), 'savant arsenal stats', log),
    fetchText(transport, avgSpeedUrl(season), 'savant avg speed', log),
  ]);
  const stats = statsText === null ? null : parseArsenalStatsCsv(statsText, log);
  const speeds = speedText === null ? null : parseAvgSpeedCsv(speedText, log);
  if (!stats || !speeds) return null;
  return { stats, speeds };
}

/** Both season exports, parsed and joined; null when either is unavailable or unreadable. */
export async function fetchArsenalIndex(transport: Transport, season: number, log?: AdapterLog): Promise<ArsenalIndex | null> {
  const rows = await fetchArsenalRows(transport, season, log);
  return rows === null ? null : buildArsenalIndex(rows.stats, rows.speeds);
}
