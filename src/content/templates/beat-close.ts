import { CLOSE_LEAD_LABEL, closeLeadBand, type BeatCloseBand, type CloseLeadBand } from '../../domain/close-lead.js';
import type { LedgerFact } from '../../domain/facts.js';
import { MIN_SAMPLE } from '../../domain/record-gate.js';
import { yardstickVerdict } from '../../domain/records.js';
import { rowsSource, type Brief, type FigureSource } from '../document.js';
import { building, count, percent } from '../format.js';

/**
 * Beat the close on the record's two yardsticks (issue 43), as RECEIPTS writes it: the other books'
 * no-vig consensus, and Pinnacle's own no-vig close where Pinnacle priced the graded line. The
 * figures are the record's one tally (domain/records.ts, the bands `propgrade record` prints); the
 * rows here only name each figure's source. Each yardstick leads with the band nearest the start
 * that holds a close; a band with no close is left out, never printed as 0.
 */

export interface Yardstick {
  /** Brief key prefix. */
  key: string;
  /** The verdict and lead time a row carries on this yardstick. */
  verdict(e: LedgerFact): string | null;
  lead(e: LedgerFact): number | null;
  /** The rows counted, in words, for a figure's source. */
  rows: string;
  /** The lead column, for a figure's source. */
  leadColumn: string;
}

export const CONSENSUS_CLOSE: Yardstick = {
  key: 'beat_close',
  verdict: yardstickVerdict,
  lead: (e) => e.closeLeadMinutes,
  rows: 'with a close read on the one yardstick (close_method one_yardstick)',
  leadColumn: 'close_lead_minutes',
};

export const PINNACLE_CLOSE: Yardstick = {
  key: 'beat_close_pinnacle',
  verdict: (e) => e.pinnacleClvVerdict,
  lead: (e) => e.pinnacleCloseLeadMinutes,
  rows: "with a verdict against Pinnacle's own no-vig close (pinnacle_clv_verdict)",
  leadColumn: 'pinnacle_close_lead_minutes',
};

/** What Pinnacle's yardstick is, in the copy. */
export const PINNACLE_IS = "Pinnacle's own no-vig close, over the entries Pinnacle priced at the graded line";

const isVerdict = (v: string | null): boolean => v === 'beat' || v === 'faded' || v === 'flat';

/** The rows a band counts, by the tally's rule (domain/close-lead.ts createLeadTally): a verdict, and a lead in the band. */
export function rowsInBand(rows: readonly LedgerFact[], y: Yardstick, band: CloseLeadBand): LedgerFact[] {
  return rows.filter((e) => isVerdict(y.verdict(e)) && closeLeadBand(y.lead(e)) === band);
}

/** The rows the yardstick's pooled rate counts: a verdict with a lead in some band. */
export function rowsWithClose(rows: readonly LedgerFact[], y: Yardstick): LedgerFact[] {
  return rows.filter((e) => isVerdict(y.verdict(e)) && closeLeadBand(y.lead(e)) !== null);
}

/**
 * A gated share as copy: "55.0% (n=40) [39.6-69.5]" (Wilson 95%) at n >= 20, "record building: 7 of
 * 20" below. The figure goes in the brief either way.
 */
export function shareText(brief: Brief, key: string, label: string, r: { n: number; successes: number; pct: number | null; ci95: [number, number] | null }, source: FigureSource): string {
  if (r.pct === null) return brief.add(key, `${label} (below the n >= ${MIN_SAMPLE} gate: counts only)`, `${r.successes} of ${r.n}`, building(r.n), r.n, source);
  const pct = brief.add(key, label, r.pct, percent(r.pct), r.n, source);
  const ci = r.ci95 ? ` ${brief.add(`${key}.ci95`, `${label}: Wilson 95% interval, percent`, `${r.ci95[0]} to ${r.ci95[1]}`, `[${r.ci95[0].toFixed(1)}-${r.ci95[1].toFixed(1)}]`, r.n, source)}` : '';
  return `${pct} (n=${count(r.n)})${ci}`;
}

/** A band as the share it reports. */
const bandShare = (b: BeatCloseBand) => ({ n: b.n, successes: b.beat, pct: b.pct, ci95: b.ci95 });

/**
 * One yardstick's bands as a clause, nearest the start first, bands without a close left out:
 * "closes taken within 30 min of the start: 55.0% (n=40) [39.6-69.5] beat; closes taken ...". Null
 * when no band holds a close. `key` is the brief key of the bands (`<key>.<band>`).
 */
export function bandsClause(brief: Brief, key: string, label: string, bands: readonly BeatCloseBand[], rows: readonly LedgerFact[], y: Yardstick, where: string): string | null {
  const parts = bandShares(brief, key, label, bands, rows, y, where).map(({ band, share }) => `closes taken ${CLOSE_LEAD_LABEL[band]}: ${share} beat`);
  return parts.length === 0 ? null : parts.join('; ');
}

/** Each band that holds a close, nearest the start first, with its share written into the brief under `<key>.<band>`. */
function bandShares(brief: Brief, key: string, label: string, bands: readonly BeatCloseBand[], rows: readonly LedgerFact[], y: Yardstick, where: string): Array<{ band: CloseLeadBand; share: string }> {
  return bands
    .filter((b) => b.n > 0)
    .map((b) => {
      const src = rowsSource('ledger_entries', rowsInBand(rows, y, b.band), `${where} ${y.rows}, the close taken ${CLOSE_LEAD_LABEL[b.band]} (${y.leadColumn})`);
      return { band: b.band, share: shareText(brief, `${key}.${b.band}`, `${label}, closes taken ${CLOSE_LEAD_LABEL[b.band]}`, bandShare(b), src) };
    });
}

/** A tier's bands on one yardstick, as the tier line's tail: "; beat <what> 55.0% (n=40) [..] (closes within 30 min of the start)". */
export function tierBandsTail(brief: Brief, key: string, label: string, what: string, bands: readonly BeatCloseBand[], rows: readonly LedgerFact[], y: Yardstick, where: string): string {
  return bandShares(brief, key, label, bands, rows, y, where)
    .map(({ band, share }) => `; beat ${what} ${share} (closes ${CLOSE_LEAD_LABEL[band]})`)
    .join('');
}

/** A band or pooled share as the numbers-only variant prints it: "55.0% (n=40) [39.6-69.5]", or the gate's count. */
export function shareNumber(r: { n: number; pct: number | null; ci95: [number, number] | null }): string {
  if (r.pct === null) return building(r.n);
  return `${percent(r.pct)} (n=${r.n})${r.ci95 ? ` [${r.ci95[0].toFixed(1)}-${r.ci95[1].toFixed(1)}]` : ''}`;
}
