import { z } from 'zod';
import { statForMarket, statTypeSchema } from '../../domain/stats.js';
import { hasColumns, numberCell, readCsv, type LoadReport } from './csv.js';
import { nbaGameDateFromUtc } from './et-date.js';

/**
 * Historical NBA prop prices from shared/history: the all-markets file (noon-ET snapshots, with
 * event ids) and the threes file (15:00 UTC snapshots, no event id). One row per book quote; a
 * missing price stays null.
 */

export const historicalPropSchema = z.object({
  /** US game date of the tip (UTC minus 6 h, NOTES.md join recipe). */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** Scheduled tip, UTC ISO-8601. */
  commenceTime: z.string(),
  eventId: z.string().nullable(),
  /** "<Away> @ <Home>" as the file spells it. */
  game: z.string(),
  /** When the quote was captured (UTC ISO-8601). */
  snapshotAt: z.string(),
  player: z.string().min(1),
  stat: statTypeSchema,
  line: z.number(),
  book: z.string().min(1),
  overOdds: z.number().nullable(),
  underOdds: z.number().nullable(),
});
export type HistoricalProp = z.infer<typeof historicalPropSchema>;

const ALL_MARKETS = ['snapshot_file_label', 'event_id', 'player', 'market', 'line', 'bookmaker', 'game', 'game_time', 'over_odds', 'under_odds'];
const THREES = ['snapshot_date_utc', 'player', 'game', 'game_time', 'market', 'line', 'bookmaker', 'over_odds', 'under_odds'];

/** Either history props file, told apart by its header; an unknown header yields no rows and a warning. */
export function loadHistoricalPropsCsv(text: string): LoadReport<HistoricalProp> {
  const csv = readCsv(text);
  if (!csv) return { rows: [], warnings: ['props: not a readable CSV'] };
  const kind = hasColumns(csv.header, ALL_MARKETS).length === 0 ? 'all' : hasColumns(csv.header, THREES).length === 0 ? 'threes' : null;
  if (kind === null) return { rows: [], warnings: ['props: unknown header (neither the all-markets nor the threes layout)'] };
  const rows: HistoricalProp[] = [];
  const warnings: string[] = [];
  csv.records.forEach((rec, i) => {
    const snapshotAt = kind === 'all' ? labelToIso(rec.snapshot_file_label ?? '') : threesSnapshot(rec.snapshot_date_utc ?? '');
    const commenceTime = rec.game_time?.trim() ?? '';
    const date = nbaGameDateFromUtc(commenceTime);
    const stat = statForMarket(rec.market?.trim() ?? '');
    const parsed = historicalPropSchema.safeParse({
      date,
      commenceTime,
      eventId: kind === 'all' ? rec.event_id?.trim() || null : null,
      game: rec.game?.trim() ?? '',
      snapshotAt,
      player: rec.player?.trim() ?? '',
      stat,
      line: numberCell(rec.line),
      book: rec.bookmaker?.trim() ?? '',
      overOdds: numberCell(rec.over_odds),
      underOdds: numberCell(rec.under_odds),
    });
    if (!parsed.success) warnings.push(`props line ${i + 2}: skipped (${parsed.error.issues.map((x) => x.path.join('.')).join(', ')})`);
    else rows.push(parsed.data);
  });
  return { rows, warnings };
}

/** `20251021_170000` -> `2025-10-21T17:00:00Z`. */
function labelToIso(label: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})(\d{2})$/.exec(label.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z` : null;
}

/** The threes snapshots were requested at 15:00 UTC on the file's day (PROVENANCE.md). */
function threesSnapshot(day: string): string | null {
  return /^\d{4}-\d{2}-\d{2}$/.test(day.trim()) ? `${day.trim()}T15:00:00Z` : null;
}
