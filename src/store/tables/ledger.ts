import { sql } from 'drizzle-orm';
import { integer, real, text } from './column.js';
import { index, table, uniqueIndex } from './table.js';
import { users } from './accounts.js';

/** The ledger: every public pre-grade and user scan, and how it settled. */

export const ledgerOutcomes = ['pending', 'hit', 'miss', 'push', 'void'] as const;

/** The ledger: public pre-grades (user_id null) and users' own scans. */
export const ledgerEntries = table(
  'ledger_entries',
  {
    id: integer('id').identity(),
    userId: integer('user_id').references(() => users.id),
    source: text('source', { enum: ['pipeline', 'scan'] }).notNull(),
    sport: text('sport').notNull(),
    eventId: text('event_id').notNull(),
    commenceTime: text('commence_time').notNull(),
    gameDate: text('game_date').notNull(),
    player: text('player').notNull(),
    playerKey: text('player_key').notNull(),
    team: text('team'),
    /** Set only when the player's team matched a game participant; never guessed. */
    opponent: text('opponent'),
    statType: text('stat_type').notNull(),
    line: real('line').notNull(),
    side: text('side', { enum: ['over', 'under'] }).notNull(),
    grade: text('grade'),
    /** The letter the locked EV earns uncapped, and the cap holding grade below it (null: not capped). */
    gradeUncapped: text('grade_uncapped'),
    capReason: text('cap_reason', { enum: ['thin_consensus', 'alternate_rung', 'not_backtested', 'outlier_price', 'own_book_only', 'one_sided_market'] }),
    projection: real('projection'),
    pWin: real('p_win'),
    book: text('book'),
    lockedPrice: real('locked_price'),
    lockedFairProb: real('locked_fair_prob'),
    /** How the locked fair was formed (graded row's fair_source); the close is read the same way. */
    lockedFairSource: text('locked_fair_source', { enum: ['consensus', 'market_implied', 'book'] }),
    lockedAt: text('locked_at').notNull(),
    /**
     * When the entry was entered on the ledger: the data clock of the run that wrote it (a snapshot
     * run's; a tracked scan's request). A main line that moves onto a rung locked earlier enters
     * later than its lock; as-of reads show an entry only once entered (issue 41 item 5). Entries
     * written before the column: their lock time, the best bound known (data migration
     * ledger-entered-at).
     */
    enteredAt: text('entered_at'),
    closingLine: real('closing_line'),
    closingPrice: real('closing_price'),
    closingFairProb: real('closing_fair_prob'),
    /** Book the close was read at: the locked book when it still quotes the line. */
    closingBook: text('closing_book'),
    closingCapturedAt: text('closing_captured_at'),
    /** Minutes from the close's capture to the game's start (src/domain/close-lead.ts); null without a close. */
    closeLeadMinutes: real('close_lead_minutes'),
    /** How closing_fair_prob was formed at the close: the lock's rule applied to the closing market. */
    closingFairSource: text('closing_fair_source', { enum: ['consensus', 'market_implied', 'book'] }),
    /**
     * one_yardstick: the close is the market's fair at the locked line by the lock's own rule (one
     * yardstick). own_book_devig: a close captured before SQLite migration 0008 that could not be re-read
     * that way (the graded book's own pair); kept, marked, and left out of the beat-close rate.
     */
    closeMethod: text('close_method', { enum: ['one_yardstick', 'own_book_devig'] }),
    clv: real('clv'),
    /** The locked price's EV at the closing fair, percent of stake (the verdict follows it). */
    clvPct: real('clv_pct'),
    clvLine: real('clv_line'),
    clvVerdict: text('clv_verdict', { enum: ['beat', 'faded', 'flat'] }),
    /** The books whose prices formed the close (its fair), sorted book keys joined by commas; null without a close. */
    closeBooks: text('close_books'),
    /**
     * Pinnacle's own no-vig fair for the entry's side at the locked line, from the last capture
     * before the start in which Pinnacle priced both sides of that line; null where it never did.
     * The second yardstick beside the consensus close (issue 43).
     */
    pinnacleClosingFairProb: real('pinnacle_closing_fair_prob'),
    /** Minutes from that Pinnacle capture to the start. */
    pinnacleCloseLeadMinutes: real('pinnacle_close_lead_minutes'),
    /** Pinnacle's closing fair minus the locked fair, and the locked price's EV at it (percent), with its verdict. */
    pinnacleClv: real('pinnacle_clv'),
    pinnacleClvPct: real('pinnacle_clv_pct'),
    pinnacleClvVerdict: text('pinnacle_clv_verdict', { enum: ['beat', 'faded', 'flat'] }),
    outcome: text('outcome', { enum: ledgerOutcomes }).notNull(),
    actualValue: real('actual_value'),
    settledAt: text('settled_at'),
    revisedFromGrade: text('revised_from_grade'),
  },
  (t) => [
    // COALESCE makes the public record (user_id null) unique too: upserts never duplicate.
    uniqueIndex('ledger_entries_key').on(
      sql`coalesce(${t.userId}, 0)`,
      t.eventId,
      t.playerKey,
      t.statType,
      t.line,
      t.side,
    ),
    index('ledger_entries_pending').on(t.outcome, t.sport, t.gameDate),
    index('ledger_entries_date').on(t.gameDate),
  ],
);
