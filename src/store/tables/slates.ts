import { bigint, boolean, integer, json, real, text } from './column.js';
import { index, table, uniqueIndex } from './table.js';
import { pipelineRuns } from './runs.js';

/** Graded slates: each snapshot, its rows, the first grade kept per prop, the closing prices and the ticker. */

/** Every stored snapshot of a sport's graded slate; the newest two are "latest" and "previous". */
export const snapshots = table(
  'snapshots',
  {
    id: integer('id').identity(),
    sport: text('sport').notNull(),
    runId: integer('run_id').references(() => pipelineRuns.id),
    takenAt: text('taken_at').notNull(),
    slateDate: text('slate_date').notNull(),
    gradedCount: integer('graded_count').notNull(),
    rowCount: integer('row_count').notNull(),
    /** 'replay' when the run read a recorded folder (read commands then default to its clock), else 'live'. */
    source: text('source', { enum: ['live', 'replay'] }),
  },
  (t) => [index('snapshots_sport_taken').on(t.sport, t.takenAt)],
);

/** One row per player, stat, line, side (and game) in a snapshot. */
export const gradedRows = table(
  'graded_rows',
  {
    // Every snapshot writes a full slate of rows: the one id that could pass 2^31 (bigint on PostgreSQL; SQLite's are 64-bit).
    id: bigint('id').identity(),
    snapshotId: integer('snapshot_id')
      .notNull()
      .references(() => snapshots.id, { onDelete: 'cascade' }),
    sport: text('sport').notNull(),
    eventId: text('event_id').notNull(),
    commenceTime: text('commence_time').notNull(),
    homeTeam: text('home_team').notNull(),
    awayTeam: text('away_team').notNull(),
    player: text('player').notNull(),
    playerKey: text('player_key').notNull(),
    team: text('team'),
    opponent: text('opponent'),
    statType: text('stat_type').notNull(),
    line: real('line').notNull(),
    side: text('side', { enum: ['over', 'under'] }).notNull(),
    grade: text('grade'),
    /** The letter the EV earns by the bands alone; differs from grade only when cap_reason says why (null: not recorded). */
    gradeUncapped: text('grade_uncapped'),
    /** The cap holding grade below grade_uncapped, or null when the letter is not capped. */
    capReason: text('cap_reason', { enum: ['thin_consensus', 'alternate_rung', 'not_backtested', 'outlier_price', 'own_book_only', 'one_sided_market'] }),
    insufficientData: boolean('insufficient_data').notNull(),
    refusalReason: text('refusal_reason'),
    projection: real('projection'),
    book: text('book'),
    overOdds: real('over_odds'),
    underOdds: real('under_odds'),
    bookOdds: real('book_odds'),
    fairOdds: real('fair_odds'),
    fairProb: real('fair_prob'),
    overround: real('overround'),
    devigMethod: text('devig_method'),
    /** Where fair_prob came from: 'consensus' (other books at the line), 'market_implied' (alt rung), 'book' (own pair). */
    fairSource: text('fair_source', { enum: ['consensus', 'market_implied', 'book'] }),
    /** Books behind fair_prob (other books at the line, or at the main line for market_implied). */
    consensusBooks: integer('consensus_books'),
    thinConsensus: boolean('thin_consensus'),
    /** A quote for this side was set aside as an outlier (or is the only price): the grade does not rest on it. */
    outlierPrice: boolean('outlier_price'),
    outlierBook: text('outlier_book'),
    outlierOdds: real('outlier_odds'),
    modelOdds: real('model_odds'),
    pWin: real('p_win'),
    evPct: real('ev_pct'),
    value: real('value'),
    takeable: boolean('takeable'),
    archetype: text('archetype'),
    gradedAt: text('graded_at').notNull(),
    /** The line offered by the most books for this player and stat in this game (ladders are not). */
    isMainLine: boolean('is_main_line'),
    previousLine: real('previous_line'),
    lineDelta: real('line_delta'),
    lineDirection: text('line_direction', { enum: ['toward', 'away'] }),
    lineupStatus: text('lineup_status', { enum: ['CONFIRMED', 'NOT_IN', 'PROJECTED'] }),
    battingSlot: integer('batting_slot'),
    injuryStatus: text('injury_status', { enum: ['OUT', 'GTD', 'PROB'] }),
    /** Model inputs worth showing (sample size, recent form...), for scan intel and audits. */
    modelDetail: json('model_detail').$type<Record<string, unknown>>(),
    /** The price the grade, p_win and ev_pct were computed on (its lock's), at graded_at; book/book_odds are the market now. */
    lockedBook: text('locked_book'),
    lockedOdds: real('locked_odds'),
    /** The market's fair probability of the side when the grade was locked (fair_prob is the fair now). */
    lockedFairProb: real('locked_fair_prob'),
    /** The current best price's EV against the current fair, by the grade's rule; null without a grade or a market. */
    evNowPct: real('ev_now_pct'),
    /** Whether a locked claim of positive EV still stands at the current price (A+, A, B only). */
    edgeNow: text('edge_now', { enum: ['holds', 'reduced', 'gone'] }),
    /** False when the projection lies on the other side of the line from the graded side. */
    projectionAgrees: boolean('projection_agrees'),
  },
  (t) => [
    uniqueIndex('graded_rows_snapshot_key').on(t.snapshotId, t.eventId, t.playerKey, t.statType, t.line, t.side),
    index('graded_rows_lookup').on(t.sport, t.playerKey, t.statType, t.line, t.side),
  ],
);

/**
 * The grades cache and lock: the first grade given to (event, player, stat, line, side)
 * is kept for good. Later snapshots reuse it; a moved line is a new key.
 */
export const gradeLocks = table(
  'grade_locks',
  {
    id: integer('id').identity(),
    sport: text('sport').notNull(),
    eventId: text('event_id').notNull(),
    playerKey: text('player_key').notNull(),
    statType: text('stat_type').notNull(),
    line: real('line').notNull(),
    side: text('side', { enum: ['over', 'under'] }).notNull(),
    grade: text('grade'),
    gradeUncapped: text('grade_uncapped'),
    capReason: text('cap_reason', { enum: ['thin_consensus', 'alternate_rung', 'not_backtested', 'outlier_price', 'own_book_only', 'one_sided_market'] }),
    projection: real('projection'),
    pWin: real('p_win'),
    modelOdds: real('model_odds'),
    archetype: text('archetype'),
    gradedAt: text('graded_at').notNull(),
    snapshotId: integer('snapshot_id').references(() => snapshots.id),
    modelDetail: json('model_detail').$type<Record<string, unknown>>(),
    /** The book and American price the grade was computed on, and the market's fair for the side then. */
    lockedBook: text('locked_book'),
    lockedOdds: real('locked_odds'),
    lockedFairProb: real('locked_fair_prob'),
  },
  (t) => [uniqueIndex('grade_locks_key').on(t.eventId, t.playerKey, t.statType, t.line, t.side)],
);

/** Last price captured before start for each (event, player, stat, side): the close. */
export const closingPrices = table(
  'closing_prices',
  {
    id: integer('id').identity(),
    sport: text('sport').notNull(),
    eventId: text('event_id').notNull(),
    playerKey: text('player_key').notNull(),
    statType: text('stat_type').notNull(),
    side: text('side', { enum: ['over', 'under'] }).notNull(),
    line: real('line').notNull(),
    price: real('price'),
    fairProb: real('fair_prob'),
    book: text('book'),
    capturedAt: text('captured_at').notNull(),
    commenceTime: text('commence_time').notNull(),
    /** Minutes from captured_at to commence_time (src/domain/close-lead.ts): how close this close was. */
    closeLeadMinutes: real('close_lead_minutes'),
  },
  (t) => [uniqueIndex('closing_prices_key').on(t.eventId, t.playerKey, t.statType, t.side, t.line)],
);

export const tickerEvents = table(
  'ticker_events',
  {
    id: integer('id').identity(),
    kind: text('kind', { enum: ['MOVE', 'PIN'] }).notNull(),
    sport: text('sport'),
    createdAt: text('created_at').notNull(),
    text: text('text').notNull(),
    runId: integer('run_id').references(() => pipelineRuns.id),
    expiresAt: text('expires_at'),
    payload: json('payload').$type<Record<string, unknown>>(),
  },
  (t) => [index('ticker_events_created').on(t.createdAt)],
);
