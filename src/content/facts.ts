/**
 * What the content desk knows about a day: plain records read from the store (src/content/read.ts)
 * and handed to the pure builders (report, pack, drafts). Nothing here is computed or defaulted;
 * a field the store does not hold is null.
 */

/** One graded row of a stored snapshot: the fields a free caller may see, plus the ranking inputs. */
export interface SlateRowFact {
  id: number;
  sport: string;
  eventId: string;
  commenceTime: string;
  homeTeam: string;
  awayTeam: string;
  player: string;
  playerKey: string;
  team: string | null;
  opponent: string | null;
  statType: string;
  line: number;
  side: 'over' | 'under';
  grade: string | null;
  projection: number | null;
  book: string | null;
  bookOdds: number | null;
  fairOdds: number | null;
  consensusBooks: number | null;
  thinConsensus: boolean | null;
  outlierPrice: boolean | null;
  fairSource: string | null;
  isMainLine: boolean | null;
  archetype: string | null;
  previousLine: number | null;
  lineDelta: number | null;
  lineDirection: 'toward' | 'away' | null;
  /** Games of the player's history behind the projection (model detail `sampleSize`), when stored. */
  sampleSize: number | null;
  /**
   * The model's EV % against the market. Used only to rank reads inside a grade; never printed
   * in public copy (it is withheld from free API callers, and the daily report and tweets are public).
   */
  evPct: number | null;
}

export interface SlateFact {
  sport: string;
  snapshotId: number;
  takenAt: string;
  slateDate: string;
  gradedCount: number;
  rowCount: number;
  /** The snapshot before it (same sport), which the line deltas were measured against; null for the first. */
  previous: { snapshotId: number; takenAt: string } | null;
  rows: SlateRowFact[];
}

/** One public ledger entry (user_id null). `price` is the book price the grade was given at. */
export interface LedgerFact {
  id: number;
  sport: string;
  eventId: string;
  commenceTime: string;
  gameDate: string;
  player: string;
  playerKey: string;
  team: string | null;
  opponent: string | null;
  statType: string;
  line: number;
  side: 'over' | 'under';
  grade: string | null;
  book: string | null;
  price: number | null;
  gradedAt: string;
  outcome: 'pending' | 'hit' | 'miss' | 'push' | 'void';
  actualValue: number | null;
  clvVerdict: 'beat' | 'faded' | 'flat' | null;
  /** The archetype the grade carried (grade_locks), when the lock stored one. */
  archetype: string | null;
}

export interface ContentFacts {
  /** The ET date the documents are for. */
  date: string;
  /** The clock, ISO-8601 UTC. */
  now: string;
  /** Per graded sport, the newest stored snapshot of `date`'s slate; sports without one are absent. */
  slates: SlateFact[];
  /**
   * The settle the documents report: the public entries of `settleDate`, which is `date` when any
   * entry of that date is settled, else the day before when any of its entries is, else null.
   */
  settleDate: string | null;
  settle: LedgerFact[];
  /** The 30-day record window ending on `date` (inclusive ET dates). */
  window: { from: string; to: string };
  /** Every public entry with a game date in the window (settled or not). */
  record: LedgerFact[];
}
