import { z } from 'zod';
import { hasColumns, numberCell, readCsv, type LoadReport } from './csv.js';

/**
 * `mlb_pitcher_strikeouts_props_first_last_pregame_2025.csv`: one row per (event, pitcher, line,
 * book) with the earliest and the latest pregame snapshot of that quote. It has no outcomes; the
 * back-test uses it only for closing-line value (early price against the later consensus).
 */

export const strikeoutQuoteSchema = z.object({
  eventId: z.string().min(1),
  /** ET date of the feed. */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  pitcher: z.string().min(1),
  line: z.number(),
  book: z.string().min(1),
  snapshots: z.number().int().positive(),
  firstAt: z.string(),
  firstOver: z.number().nullable(),
  firstUnder: z.number().nullable(),
  lastAt: z.string(),
  lastOver: z.number().nullable(),
  lastUnder: z.number().nullable(),
  /** Scheduled first pitch, US Eastern with its offset, as of the last pregame snapshot (absent in older layouts). */
  gameTime: z.string().optional(),
  awayTeam: z.string().optional(),
  homeTeam: z.string().optional(),
});
export type StrikeoutQuote = z.infer<typeof strikeoutQuoteSchema>;

const REQUIRED = [
  'event_id',
  'feed_date',
  'pitcher_name',
  'line',
  'book',
  'n_pregame_snapshots',
  'first_snapshot_at',
  'first_over_odds',
  'first_under_odds',
  'last_snapshot_at',
  'last_over_odds',
  'last_under_odds',
] as const;

export function loadStrikeoutQuotesCsv(text: string): LoadReport<StrikeoutQuote> {
  const csv = readCsv(text);
  if (!csv) return { rows: [], warnings: ['strikeout props: not a readable CSV'] };
  const missing = hasColumns(csv.header, REQUIRED);
  if (missing.length > 0) return { rows: [], warnings: [`strikeout props: unknown header, missing ${missing.join(', ')}`] };
  const rows: StrikeoutQuote[] = [];
  const warnings: string[] = [];
  csv.records.forEach((rec, i) => {
    const parsed = strikeoutQuoteSchema.safeParse({
      eventId: rec.event_id?.trim() ?? '',
      date: rec.feed_date?.trim() ?? '',
      pitcher: rec.pitcher_name?.trim() ?? '',
      line: numberCell(rec.line),
      book: rec.book?.trim() ?? '',
      snapshots: numberCell(rec.n_pregame_snapshots),
      firstAt: rec.first_snapshot_at?.trim() ?? '',
      firstOver: numberCell(rec.first_over_odds),
      firstUnder: numberCell(rec.first_under_odds),
      lastAt: rec.last_snapshot_at?.trim() ?? '',
      lastOver: numberCell(rec.last_over_odds),
      lastUnder: numberCell(rec.last_under_odds),
      ...(rec.game_time?.trim() ? { gameTime: rec.game_time.trim() } : {}),
      ...(rec.away_team?.trim() ? { awayTeam: rec.away_team.trim() } : {}),
      ...(rec.home_team?.trim() ? { homeTeam: rec.home_team.trim() } : {}),
    });
    if (!parsed.success) warnings.push(`strikeout props line ${i + 2}: skipped (${parsed.error.issues.map((x) => x.path.join('.')).join(', ')})`);
    else rows.push(parsed.data);
  });
  return { rows, warnings };
}
