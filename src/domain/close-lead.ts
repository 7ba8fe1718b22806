/**
 * How close a close was (issue 33, problem 5): the lead time of a captured close before its game's
 * start, and the band every beat-close share is split by. A beat-close rate against a close taken
 * six hours before the start and one taken ten minutes before it measure different things, so no
 * surface pools them under one heading. The one band function the ledger, the record, the content
 * desk, `simulate` and the back-tests call.
 */
import { z } from 'zod';
import { mainLineOf, pairOverProbability, type FairOver, type LadderLine } from './model/market.js';
import { gateRate, MIN_SAMPLE } from './record-gate.js';

/** Ordered nearest the start first. Edges: within_30m is lead <= 30 min; 30m_to_3h is 30 < lead <= 180. */
export const CLOSE_LEAD_BANDS = ['within_30m', '30m_to_3h', 'over_3h'] as const;
export const closeLeadBandSchema = z.enum(CLOSE_LEAD_BANDS);
export type CloseLeadBand = z.infer<typeof closeLeadBandSchema>;

/** Words for a band, as tables and copy print them. */
export const CLOSE_LEAD_LABEL: Readonly<Record<CloseLeadBand, string>> = {
  within_30m: 'within 30 min of the start',
  '30m_to_3h': '30 min to 3 h before the start',
  over_3h: 'more than 3 h before the start',
};

/** Short column heads for a band. */
export const CLOSE_LEAD_SHORT: Readonly<Record<CloseLeadBand, string>> = {
  within_30m: '≤30m',
  '30m_to_3h': '30m–3h',
  over_3h: '>3h',
};

const WITHIN_MIN = 30;
const NEAR_MIN = 180;

/**
 * Minutes from the capture to the start, whole seconds (SQLite's backfill in migration 0009 computes
 * the same figure); null when either time does not parse or the capture is not strictly before the
 * start (then it is no close).
 */
export function closeLeadMinutes(capturedAt: string | null, commenceTime: string | null): number | null {
  if (capturedAt === null || commenceTime === null) return null;
  const captured = Date.parse(capturedAt);
  const start = Date.parse(commenceTime);
  if (!Number.isFinite(captured) || !Number.isFinite(start)) return null;
  const seconds = Math.round((start - captured) / 1000);
  return seconds > 0 ? seconds / 60 : null;
}

/** The band of a lead time; null for no lead (no close, or none recorded). */
export function closeLeadBand(minutes: number | null | undefined): CloseLeadBand | null {
  if (minutes === null || minutes === undefined || !Number.isFinite(minutes) || minutes <= 0) return null;
  if (minutes <= WITHIN_MIN) return 'within_30m';
  return minutes <= NEAR_MIN ? '30m_to_3h' : 'over_3h';
}

/** "10 min", "2 h 05 min": a lead time as a reader reads it. */
export function leadText(minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined || !Number.isFinite(minutes)) return '-';
  const m = Math.round(minutes);
  if (m < 60) return `${m} min`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/**
 * One band's beat-close count: n = entries with a verdict whose close has a lead in this band; pct
 * is the beat share gated at n >= 20 like every record percentage.
 */
export interface BeatCloseBand {
  band: CloseLeadBand;
  n: number;
  beat: number;
  faded: number;
  flat: number;
  /** Percent of n that beat the close; null below n = 20. */
  pct: number | null;
  /** Wilson 95% interval of pct, percent; null below n = 20. */
  ci95: [number, number] | null;
}

export type BeatCloseByLead = BeatCloseBand[];

/** Counts beat / faded / flat per band; verdicts whose close has no lead are counted apart. */
export interface LeadTally {
  add(band: CloseLeadBand | null, verdict: string | null): void;
  result(): BeatCloseByLead;
  /** Verdicts whose close carries no lead time (a store older than migration 0009 without the times). */
  unbanded(): number;
}

export function createLeadTally(): LeadTally {
  const counts = CLOSE_LEAD_BANDS.map(() => ({ beat: 0, faded: 0, flat: 0 }));
  let unbanded = 0;
  return {
    add(band, verdict) {
      if (verdict !== 'beat' && verdict !== 'faded' && verdict !== 'flat') return;
      if (band === null) {
        unbanded++;
        return;
      }
      const c = counts[CLOSE_LEAD_BANDS.indexOf(band)];
      if (c) c[verdict]++;
    },
    result() {
      return CLOSE_LEAD_BANDS.map((band, i) => {
        const c = counts[i] ?? { beat: 0, faded: 0, flat: 0 };
        const n = c.beat + c.faded + c.flat;
        const rate = gateRate(c.beat, n);
        return { band, n, beat: c.beat, faded: c.faded, flat: c.flat, pct: rate.pct, ci95: rate.ci95 };
      });
    },
    unbanded: () => unbanded,
  };
}

/** The beat-close split of a list of closes: each one's verdict and lead time. */
export function beatCloseByLead(closes: Iterable<{ verdict: string | null; leadMinutes: number | null }>): BeatCloseByLead {
  const t = createLeadTally();
  for (const c of closes) t.add(closeLeadBand(c.leadMinutes), c.verdict);
  return t.result();
}

/** A band's table cell: "85.0% (n=40) [70.9–92.9]" at n >= 20, "record building: 12 of 20 needed" below (the record's one wording), "-" with no close in the band. */
export function beatCloseCell(b: BeatCloseBand): string {
  if (b.n === 0) return '-';
  if (b.pct === null) return `record building: ${b.n} of ${MIN_SAMPLE} needed`;
  const ci = b.ci95 ? ` [${b.ci95[0].toFixed(1)}–${b.ci95[1].toFixed(1)}]` : '';
  return `${b.pct.toFixed(1)}% (n=${b.n})${ci}`;
}

/** The sharp book whose own no-vig close is the record's second yardstick (issue 43). */
export const PINNACLE = 'pinnacle';

/**
 * The books whose pairs formed a close's fair, by the rule that formed it (model/market.ts
 * fairOverForBook): the other books quoting both sides of the line (a consensus), every such book
 * with the locked one when the consensus is thin, the main line's books for a market-implied rung,
 * the locked book alone for its own pair. Sorted and comma-joined; null when none can be named.
 */
export function closeBooksOf(lines: readonly LadderLine[], line: number, lockedBook: string, fair: Pick<FairOver, 'source' | 'thin'>): string | null {
  const pairsAt = (l: LadderLine | null | undefined) => (l ? l.quotes.filter((q) => pairOverProbability(q) !== null).map((q) => q.book) : []);
  let books: string[];
  if (fair.source === 'book') books = [lockedBook];
  else if (fair.source === 'market_implied') books = pairsAt(mainLineOf(lines));
  else {
    const at = pairsAt(lines.find((l) => l.line === line));
    books = fair.thin ? at : at.filter((b) => b !== lockedBook);
  }
  const sorted = [...new Set(books)].sort();
  return sorted.length === 0 ? null : sorted.join(',');
}
