import { gateRate, MIN_SAMPLE } from '../../domain/record-gate.js';
import { rowsSource, type Brief, type FigureSource } from '../document.js';
import type { SlateRowFact } from '../facts.js';
import { american, building, count, lineText, oneDecimal, percent, statWords } from '../format.js';

/** A read as one sentence ("A+ Jalen Brunson (NY) under 2.5 rebounds at +155 (bovada); fair price +135 from 4 other books; projection 3.0"), every figure recorded in the brief. */
export function readSentence(brief: Brief, key: string, r: SlateRowFact): string {
  const src = rowsSource('graded_rows', [r], `graded row ${r.id}`);
  const line = brief.add(`${key}.line`, `${r.player} ${r.statType} line`, r.line, lineText(r.line), null, src);
  const price = brief.add(`${key}.price`, `${r.player} ${r.side} price at ${r.book}`, r.bookOdds ?? '', american(r.bookOdds ?? 0), null, src);
  const fair = brief.add(`${key}.fair_price`, `${r.player} ${r.side} fair price (no-vig consensus)`, r.fairOdds ?? '', american(r.fairOdds ?? 0), r.consensusBooks, src);
  const books = brief.add(`${key}.consensus_books`, 'other books in the consensus', r.consensusBooks ?? 0, count(r.consensusBooks ?? 0), null, src);
  const team = r.team ? ` (${r.team})` : '';
  const projection =
    r.projection === null ? '' : `; projection ${brief.add(`${key}.projection`, `${r.player} ${r.statType} projection`, r.projection, oneDecimal(r.projection), r.sampleSize, src)}`;
  return `${r.grade} ${r.player}${team} ${r.side} ${line} ${statWords(r.statType)} at ${price} (${r.book}); fair price ${fair} from ${books} other books${projection}`;
}

/**
 * A gated rate as copy: "49.8% (n=309)" at n >= 20, "record building: 7 of 20" below (counts only,
 * spec: records under n of 20 show counts only). The figure goes in the brief either way.
 */
export function rateText(brief: Brief, key: string, label: string, successes: number, n: number, source: FigureSource): string {
  const rate = gateRate(successes, n);
  if (rate.pct === null) return brief.add(key, `${label} (below the n >= ${MIN_SAMPLE} gate: counts only)`, `${successes} of ${n}`, building(n), n, source);
  return `${brief.add(key, label, rate.pct, percent(rate.pct), n, source)} (n=${count(n)})`;
}

/** "Hits-misses" as a figure: "154-155". */
export function recordText(brief: Brief, key: string, label: string, hits: number, misses: number, source: FigureSource): string {
  return brief.add(key, `${label} (hits-misses)`, `${hits}-${misses}`, `${hits}-${misses}`, hits + misses, source);
}
