import { gradeSchema, type Grade } from './grades.js';
import { totalOf, type Sums } from './model/resample.js';
import { roiInterval } from './roi-interval.js';
import { americanToDecimal, profitPerUnit } from './odds.js';
import { wilsonInterval } from './record-gate.js';
import { evPctAt } from './claim.js';
import { beatCloseByLead, type BeatCloseByLead } from './close-lead.js';

/**
 * A simulated season's public record per tier (issue 26): n, hit rate, ROI at the locked price with
 * a 95% interval that resamples whole games (bets on one game share its box score, as the back-test
 * does; the record's own interval, domain/roi-interval.ts), what the tier claimed (mean EV of its settled stakes' locked prices at p_win), and the share
 * of entries with a close that beat it, in all and by the close's lead time before the start. Pure.
 */

export interface SeasonEntry {
  grade: string | null;
  outcome: string;
  lockedPrice: number | null;
  clvVerdict: string | null;
  /** Minutes from the close's capture to the start (domain/close-lead.ts). */
  closeLeadMinutes: number | null;
  /** The claim's probability: with lockedPrice, the EV the tier claimed. */
  pWin: number | null;
  /** The game a bet belongs to: the bootstrap's cluster. */
  eventId: string;
  /** The verdict against Pinnacle's own no-vig close, and that close's lead (issue 43); null where Pinnacle never priced the line. */
  pinnacleClvVerdict?: string | null;
  pinnacleCloseLeadMinutes?: number | null;
}

export interface SeasonTier {
  /** Entries of the tier, whatever their outcome. */
  entries: number;
  /** Settled hit + miss + push (the bets ROI is over). */
  n: number;
  hits: number;
  misses: number;
  pushes: number;
  voids: number;
  pending: number;
  hitRate: number | null;
  hitRateCi95: [number, number] | null;
  roiPct: { value: number | null; ci95: [number, number] | null };
  /** Mean EV (percent) of the settled stakes' locked prices at their p_win, over claimedEvN stakes. */
  claimedEvPct: number | null;
  claimedEvN: number;
  /** Entries with a CLV verdict, and the share that beat the close, whatever the close's lead time. */
  withClose: number;
  beatCloseShare: number | null;
  /** The same verdicts by the close's lead time before the start; pct only at n >= 20 per band. */
  beatCloseByLead: BeatCloseByLead;
  /** The second yardstick (issue 43): verdicts against Pinnacle's own no-vig close, by that close's lead. */
  beatClosePinnacleByLead: BeatCloseByLead;
}

const TIERS: readonly (Grade | 'all')[] = ['all', ...gradeSchema.options];

export function seasonRecord(entries: readonly SeasonEntry[]): Partial<Record<Grade | 'all', SeasonTier>> {
  const out: Partial<Record<Grade | 'all', SeasonTier>> = {};
  for (const tier of TIERS) {
    const list = tier === 'all' ? entries : entries.filter((e) => e.grade === tier);
    if (list.length === 0) continue;
    const games = new Map<string, Sums>();
    let voids = 0;
    let pending = 0;
    let withClose = 0;
    let beat = 0;
    let evSum = 0;
    let evN = 0;
    for (const e of list) {
      if (e.clvVerdict !== null) {
        withClose += 1;
        if (e.clvVerdict === 'beat') beat += 1;
      }
      if (e.outcome === 'void') voids += 1;
      if (e.outcome === 'pending') pending += 1;
      if (e.outcome !== 'hit' && e.outcome !== 'miss' && e.outcome !== 'push') continue;
      // A settled entry without a real locked price cannot have an ROI: it is left out of the units, never priced at a default.
      if (e.lockedPrice === null || americanToDecimal(e.lockedPrice) === null) continue;
      const claimed = evPctAt(e.pWin, e.lockedPrice);
      if (claimed !== null) {
        evSum += claimed;
        evN += 1;
      }
      const profit = e.outcome === 'hit' ? profitPerUnit(e.lockedPrice) : e.outcome === 'miss' ? -1 : 0;
      let s = games.get(e.eventId);
      if (!s) games.set(e.eventId, (s = {}));
      s['n'] = (s['n'] ?? 0) + 1;
      s['profit'] = (s['profit'] ?? 0) + profit;
      s['hit'] = (s['hit'] ?? 0) + (e.outcome === 'hit' ? 1 : 0);
      s['miss'] = (s['miss'] ?? 0) + (e.outcome === 'miss' ? 1 : 0);
    }
    const clusters = [...games.values()];
    const t = totalOf(clusters);
    // The record's interval (domain/roi-interval.ts): the same games give the same interval in `record` and here.
    const stakes = new Map([...games].map(([id, g]) => [id, { n: g['n'] ?? 0, profit: g['profit'] ?? 0 }]));
    const n = t['n'] ?? 0;
    const hits = t['hit'] ?? 0;
    const misses = t['miss'] ?? 0;
    const roi = (s: Sums) => ((s['n'] ?? 0) > 0 ? (100 * (s['profit'] ?? 0)) / (s['n'] as number) : null);
    out[tier] = {
      entries: list.length,
      n,
      hits,
      misses,
      pushes: n - hits - misses,
      voids,
      pending,
      hitRate: hits + misses > 0 ? hits / (hits + misses) : null,
      hitRateCi95: hits + misses > 0 ? wilsonInterval(hits, hits + misses) : null,
      roiPct: { value: roi(t), ci95: n > 0 ? roiInterval(stakes) : null },
      claimedEvPct: evN > 0 ? evSum / evN : null,
      claimedEvN: evN,
      withClose: withClose,
      beatCloseShare: withClose > 0 ? beat / withClose : null,
      beatCloseByLead: beatCloseByLead(list.map((e) => ({ verdict: e.clvVerdict, leadMinutes: e.closeLeadMinutes }))),
      beatClosePinnacleByLead: beatCloseByLead(list.map((e) => ({ verdict: e.pinnacleClvVerdict ?? null, leadMinutes: e.pinnacleCloseLeadMinutes ?? null }))),
    };
  }
  return out;
}
