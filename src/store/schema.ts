import { sql } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * The whole store. Times are ISO-8601 UTC strings; dates are US Eastern yyyy-mm-dd.
 * Prices are American odds. Every nullable column means "not known from real data"; no
 * column defaults a missing value to 0.
 */

/** One row per scheduled or manual run of a pipeline (snapshot, settle), the run log. */
export const pipelineRuns = sqliteTable(
  'pipeline_runs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind', { enum: ['snapshot', 'settle'] }).notNull(),
    sport: text('sport').notNull(),
    startedAt: text('started_at').notNull(),
    finishedAt: text('finished_at'),
    status: text('status', { enum: ['running', 'ok', 'empty', 'failed'] }).notNull(),
    /** Slate date (ET) the run was pinned to. */
    slateDate: text('slate_date'),
    eventsCount: integer('events_count'),
    gradedCount: integer('graded_count'),
    refusedCount: integer('refused_count'),
    droppedCount: integer('dropped_count'),
    settledCount: integer('settled_count'),
    creditsUsed: integer('credits_used'),
    creditsRemaining: integer('credits_remaining'),
    message: text('message'),
    details: text('details', { mode: 'json' }).$type<Record<string, unknown>>(),
  },
  (t) => [index('pipeline_runs_kind_sport_started').on(t.kind, t.sport, t.startedAt)],
);

/** Every stored snapshot of a sport's graded slate; the newest two are "latest" and "previous". */
export const snapshots = sqliteTable(
  'snapshots',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
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
export const gradedRows = sqliteTable(
  'graded_rows',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
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
    insufficientData: integer('insufficient_data', { mode: 'boolean' }).notNull(),
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
    thinConsensus: integer('thin_consensus', { mode: 'boolean' }),
    /** A quote for this side was set aside as an outlier (or is the only price): the grade does not rest on it. */
    outlierPrice: integer('outlier_price', { mode: 'boolean' }),
    outlierBook: text('outlier_book'),
    outlierOdds: real('outlier_odds'),
    modelOdds: real('model_odds'),
    pWin: real('p_win'),
    evPct: real('ev_pct'),
    value: real('value'),
    takeable: integer('takeable', { mode: 'boolean' }),
    archetype: text('archetype'),
    gradedAt: text('graded_at').notNull(),
    /** The line offered by the most books for this player and stat in this game (ladders are not). */
    isMainLine: integer('is_main_line', { mode: 'boolean' }),
    previousLine: real('previous_line'),
    lineDelta: real('line_delta'),
    lineDirection: text('line_direction', { enum: ['toward', 'away'] }),
    lineupStatus: text('lineup_status', { enum: ['CONFIRMED', 'NOT_IN', 'PROJECTED'] }),
    battingSlot: integer('batting_slot'),
    injuryStatus: text('injury_status', { enum: ['OUT', 'GTD', 'PROB'] }),
    /** Model inputs worth showing (sample size, recent form...), for scan intel and audits. */
    modelDetail: text('model_detail', { mode: 'json' }).$type<Record<string, unknown>>(),
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
    projectionAgrees: integer('projection_agrees', { mode: 'boolean' }),
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
export const gradeLocks = sqliteTable(
  'grade_locks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sport: text('sport').notNull(),
    eventId: text('event_id').notNull(),
    playerKey: text('player_key').notNull(),
    statType: text('stat_type').notNull(),
    line: real('line').notNull(),
    side: text('side', { enum: ['over', 'under'] }).notNull(),
    grade: text('grade'),
    projection: real('projection'),
    pWin: real('p_win'),
    modelOdds: real('model_odds'),
    archetype: text('archetype'),
    gradedAt: text('graded_at').notNull(),
    snapshotId: integer('snapshot_id').references(() => snapshots.id),
    modelDetail: text('model_detail', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** The book and American price the grade was computed on, and the market's fair for the side then. */
    lockedBook: text('locked_book'),
    lockedOdds: real('locked_odds'),
    lockedFairProb: real('locked_fair_prob'),
  },
  (t) => [uniqueIndex('grade_locks_key').on(t.eventId, t.playerKey, t.statType, t.line, t.side)],
);

export const ledgerOutcomes = ['pending', 'hit', 'miss', 'push', 'void'] as const;

/** The ledger: public pre-grades (user_id null) and users' own scans. */
export const ledgerEntries = sqliteTable(
  'ledger_entries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
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
    projection: real('projection'),
    pWin: real('p_win'),
    book: text('book'),
    lockedPrice: real('locked_price'),
    lockedFairProb: real('locked_fair_prob'),
    /** How the locked fair was formed (graded row's fair_source); the close is read the same way. */
    lockedFairSource: text('locked_fair_source', { enum: ['consensus', 'market_implied', 'book'] }),
    lockedAt: text('locked_at').notNull(),
    closingLine: real('closing_line'),
    closingPrice: real('closing_price'),
    closingFairProb: real('closing_fair_prob'),
    /** Book the close was read at: the locked book when it still quotes the line. */
    closingBook: text('closing_book'),
    closingCapturedAt: text('closing_captured_at'),
    /** How closing_fair_prob was formed at the close: the lock's rule applied to the closing market. */
    closingFairSource: text('closing_fair_source', { enum: ['consensus', 'market_implied', 'book'] }),
    /**
     * one_yardstick: the close is the market's fair at the locked line by the lock's own rule (one
     * yardstick). own_book_devig: a close captured before migration 0008 that could not be re-read
     * that way (the graded book's own pair); kept, marked, and left out of the beat-close rate.
     */
    closeMethod: text('close_method', { enum: ['one_yardstick', 'own_book_devig'] }),
    clv: real('clv'),
    /** The locked price's EV at the closing fair, percent of stake (the verdict follows it). */
    clvPct: real('clv_pct'),
    clvLine: real('clv_line'),
    clvVerdict: text('clv_verdict', { enum: ['beat', 'faded', 'flat'] }),
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

/** Last price captured before start for each (event, player, stat, side): the close. */
export const closingPrices = sqliteTable(
  'closing_prices',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
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
  },
  (t) => [uniqueIndex('closing_prices_key').on(t.eventId, t.playerKey, t.statType, t.side, t.line)],
);

export const tickerEvents = sqliteTable(
  'ticker_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind', { enum: ['MOVE', 'PIN'] }).notNull(),
    sport: text('sport'),
    createdAt: text('created_at').notNull(),
    text: text('text').notNull(),
    runId: integer('run_id').references(() => pipelineRuns.id),
    expiresAt: text('expires_at'),
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>(),
  },
  (t) => [index('ticker_events_created').on(t.createdAt)],
);

/** Real per-player, per-game box-score lines: projection input and settlement truth. */
export const playerGameStats = sqliteTable(
  'player_game_stats',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sport: text('sport').notNull(),
    playerKey: text('player_key').notNull(),
    playerName: text('player_name').notNull(),
    team: text('team'),
    opponent: text('opponent'),
    date: text('date').notNull(),
    /** Provider game id, or the date when the source has none (so doubleheaders need an id). */
    gameKey: text('game_key').notNull(),
    minutes: real('minutes'),
    stats: text('stats', { mode: 'json' }).notNull().$type<Record<string, number | null>>(),
    extras: text('extras', { mode: 'json' }).notNull().$type<Record<string, number | null>>(),
    source: text('source').notNull(),
  },
  // One index: the unique key serves every lookup by sport, player and date (a separate index on
  // that prefix was a second B-tree to write per line, ~3% of a settle; migration 0007 drops it).
  // Its order ends in game_key, not in insert order, so a reader whose order matters (same-date
  // lines: MLB doubleheaders, one game from two sources) says it: by id after the columns it sorts by.
  (t) => [uniqueIndex('player_game_stats_key').on(t.sport, t.playerKey, t.date, t.gameKey)],
);

export const tiers = ['free', 'analyst', 'desk'] as const;

export const users = sqliteTable('users', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  email: text('email').notNull().unique(),
  tier: text('tier', { enum: tiers }).notNull(),
  createdAt: text('created_at').notNull(),
  founderPricing: integer('founder_pricing', { mode: 'boolean' }).notNull().default(false),
  subscriptionStatus: text('subscription_status'),
  graceUntil: text('grace_until'),
  /** The Stripe customer (cus_...) this user pays as; null until linked. */
  stripeCustomerId: text('stripe_customer_id').unique(),
  /** The founder code the user redeemed, when any (its expiry is checked at use). */
  founderCode: text('founder_code'),
});

/**
 * A user's Stripe subscription as the webhooks last described it. `eventCreated` is the created
 * time of the event that wrote this state, so an older event never overwrites a newer one.
 */
export const subscriptions = sqliteTable(
  'subscriptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    stripeSubscriptionId: text('stripe_subscription_id').notNull().unique(),
    stripeCustomerId: text('stripe_customer_id').notNull(),
    status: text('status').notNull(),
    priceId: text('price_id'),
    /** The tier the price maps to (STRIPE_PRICE_TIERS); null for a price the map does not know. */
    tier: text('tier', { enum: tiers }),
    graceUntil: text('grace_until'),
    eventCreated: integer('event_created').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('subscriptions_user').on(t.userId)],
);

/** Stripe events already handled, by id: a replayed event changes nothing. */
export const stripeEvents = sqliteTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  created: integer('created').notNull(),
  receivedAt: text('received_at').notNull(),
  /** What handling did: applied, ignored (with why), stale (an older event than the stored state). */
  outcome: text('outcome').notNull(),
});

/**
 * Outbound content, one row per (kind, key): the desk-pack-ready notice per ET date, the Ghost
 * draft per date and kind, the listmonk campaign per report date. Idempotency and audit in one place.
 */
export const contentLog = sqliteTable(
  'content_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    /** The platform's id for what was created (Ghost post id, listmonk campaign id); null when nothing was. */
    externalId: text('external_id'),
    status: text('status').notNull(),
    detail: text('detail', { mode: 'json' }).$type<Record<string, unknown>>(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [uniqueIndex('content_log_kind_key').on(t.kind, t.key)],
);

export const apiTokens = sqliteTable(
  'api_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** sha256 of the token; the token itself is shown once and never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: text('created_at').notNull(),
    revokedAt: text('revoked_at'),
  },
  (t) => [index('api_tokens_user').on(t.userId)],
);

export const preferences = sqliteTable('preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  sports: text('sports', { mode: 'json' }).$type<string[]>(),
  books: text('books', { mode: 'json' }).$type<string[]>(),
  bankrollLimit: real('bankroll_limit'),
  onboardingComplete: integer('onboarding_complete', { mode: 'boolean' }).notNull().default(false),
  updatedAt: text('updated_at').notNull(),
});

/** Metered actions (scan reads, slip parses, subscribes) for rolling-window limits. */
export const usageEvents = sqliteTable(
  'usage_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    subject: text('subject').notNull(),
    kind: text('kind').notNull(),
    at: text('at').notNull(),
  },
  (t) => [index('usage_events_subject').on(t.subject, t.kind, t.at)],
);

/** Key-value cache with expiry, for the TTL caches of the spec's Limits table and for meta. */
export const kvCache = sqliteTable('kv_cache', {
  key: text('key').primaryKey(),
  value: text('value', { mode: 'json' }).notNull(),
  updatedAt: text('updated_at').notNull(),
  expiresAt: text('expires_at'),
});

/** Cross-process run lock: one snapshot/settle run per sport at a time. Leases expire. */
export const runLocks = sqliteTable('run_locks', {
  name: text('name').primaryKey(),
  owner: text('owner').notNull(),
  acquiredAt: text('acquired_at').notNull(),
  leaseUntil: text('lease_until').notNull(),
});
