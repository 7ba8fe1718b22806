import type { Command } from 'commander';
import type { CliIO } from './_process-io.js';

/** A subcommand module registers itself on the program. Heavy imports stay inside actions. */
export type RegisterCommand = (program: Command, io: CliIO) => void;

/**
 * Every command module, loaded only when its command runs: `propgrade scan` imports the scan
 * module and nothing else, and top-level help lists the summaries without loading any module.
 * Each summary equals the command's own description (a test holds them together).
 */
export interface CommandModule {
  commands: ReadonlyArray<readonly [name: string, summary: string]>;
  load(): Promise<RegisterCommand>;
}

/** Help lists commands in this order: the runs first, then analysis, content, operations, tools. */
export const COMMANDS: readonly CommandModule[] = [
  { commands: [['snapshot', 'Run the snapshot pipeline: fetch odds, grade and lock props, track line moves, write the ledger']], load: async () => (await import('./snapshot.js')).registerSnapshot },
  { commands: [['slate', 'Show the cached graded slate of the latest snapshot (reads the store only)']], load: async () => (await import('./slate.js')).registerSlate },
  { commands: [['scan', 'Grade one player/stat/line/side with the snapshot engine from stored history (no provider calls)']], load: async () => (await import('./scan.js')).registerScan },
  { commands: [['parlay', 'Grade a parlay of 2 to 6 legs: per-leg grades, pair correlation, combined grade and estimated payout']], load: async () => (await import('./parlay.js')).registerParlay },
  { commands: [['settle', 'Settle pending ledger entries against real box scores and record closing-line value']], load: async () => (await import('./settle.js')).registerSettle },
  { commands: [['close', 'Take the close of each game starting within the next minutes that has none yet: its odds only, the ledger re-priced']], load: async () => (await import('./close.js')).registerClose },
  { commands: [['ledger', 'List ledger entries (the public record unless --user is given)']], load: async () => (await import('./ledger.js')).registerLedger },
  { commands: [['record', 'The public model record: hit and beat-close rates over a window, and the per-tier table']], load: async () => (await import('./record.js')).registerRecord },
  { commands: [['ticker', 'Show the ticker (line MOVEs from snapshot runs plus manual pins; hidden below 4 real items)']], load: async () => (await import('./ticker.js')).registerTicker },
  { commands: [['live', "Live tracking of the day's ledger and slate props: current value and a tracking state (never a grade)"]], load: async () => (await import('./live.js')).registerLive },
  { commands: [['news', 'The news wire from ESPN: newest first, athlete and team only from the item’s own categories']], load: async () => (await import('./news.js')).registerNews },
  { commands: [['futures', 'Championship futures: best price across the allowed books and the move since the previous price']], load: async () => (await import('./futures.js')).registerFutures },
  {
    commands: [
      ['combat', 'MMA fight cards (UFC, PFL) for an ET date with moneyline and round-total odds; empty off-card'],
      ['fight', 'One bout by ESPN id: tale of the tape, best odds, style read'],
    ],
    load: async () => (await import('./combat.js')).registerCombat,
  },
  { commands: [['stats', 'Player, leaders, game, pitcher arsenal, lineup, depth and cascade views from stored real data']], load: async () => (await import('./stats.js')).registerStats },
  { commands: [['showcase', 'The desk showcase: a real alternate-line ladder with its grades, or nothing when none exists']], load: async () => (await import('./showcase.js')).registerShowcase },
  { commands: [['parse-slip', 'Read a bet slip screenshot (or pasted slip text) into legs; fields it cannot vouch for are marked for review']], load: async () => (await import('./parse-slip.js')).registerParseSlip },
  { commands: [['newsletter', 'The daily report: build it (HTML + text) or send it as a listmonk campaign (never scheduled)']], load: async () => (await import('./newsletter.js')).registerNewsletter },
  { commands: [['desk', 'The content desk pack: seven templates with long copy, tweet threads, wire and numbers variants and a data brief']], load: async () => (await import('./desk.js')).registerDesk },
  { commands: [['drafts', 'Save the slate-preview and settle drafts to Ghost (always status draft; a second run updates the same posts)']], load: async () => (await import('./drafts.js')).registerDrafts },
  { commands: [['serve', 'Serve the HTTP API over the store (a replayed store answers context reads from its recording and never calls a provider)']], load: async () => (await import('./serve.js')).registerServe },
  { commands: [['users', 'API users and their bearer tokens (only a hash of each token is stored)']], load: async () => (await import('./users.js')).registerUsers },
  { commands: [['billing', "Stripe billing: end expired graces, show a user's billing state, list received webhook events"]], load: async () => (await import('./billing.js')).registerBilling },
  { commands: [['feeds', 'Inspect the provider feeds']], load: async () => (await import('./feeds.js')).registerFeeds },
  { commands: [['import', 'Import real history into the store']], load: async () => (await import('./import.js')).registerImport },
  { commands: [['backfill', 'Fill projection history from real final box scores over a date range (no ledger changes)']], load: async () => (await import('./backfill.js')).registerBackfill },
  { commands: [['simulate', "Run the cron schedule over a season's replay folder: every recorded snapshot, a settle each morning, then the season's public record"]], load: async () => (await import('./simulate.js')).registerSimulate },
  { commands: [['backtest', 'Replay real historical props through the grading model and score it against real results']], load: async () => (await import('./backtest.js')).registerBacktest },
  { commands: [['devig', 'Remove the vig from a market: fair probabilities, fair odds and overround per method']], load: async () => (await import('./devig.js')).registerDevig },
  { commands: [['status', 'Operator status: store and migrations, each sport’s freshness, last runs, credits and run locks; exit 1 when not ready']], load: async () => (await import('./status.js')).registerStatus },
  { commands: [['db', 'Operate on the store (an SQLite file or a PostgreSQL database)']], load: async () => (await import('./db.js')).registerDb },
];

/** The module that registers `name`, if any. */
export function moduleFor(name: string): CommandModule | undefined {
  return COMMANDS.find((m) => m.commands.some(([n]) => n === name));
}
