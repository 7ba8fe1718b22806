import type { AnyColumn, SQL } from 'drizzle-orm';
import type { PlayerGameStat } from '../domain/entities.js';
import type { Grade } from '../domain/grades.js';
import type { CapReason } from '../domain/model/grading.js';
import type { RecordTally } from '../domain/records.js';
import type { PendingEntry, SettledEntry } from '../domain/settle-entries.js';
import type { CloseContext } from '../domain/settlement.js';
import type { GradedSport } from '../domain/sports.js';
import type { StripeEventRow } from './repo/billing.js';
import type { GameStatsWriter } from './repo/game-stats-write.js';
import type { HeldRunLock } from './repo/health.js';
import type { ClosingCapture, PinnacleCapture, LedgerEntry, NewClosingPrice, NewLedgerEntry } from './repo/ledger.js';
import type { SettledTotals } from './repo/ledger-record.js';
import type { PendingDateRow } from './repo/ledger-settle.js';
import type { RecordFilter } from './repo/record-sql.js';
import type { RunFigures } from './repo/run-figures.js';
import type { RunLock, RunLockRefusal } from './repo/run-lock.js';
import type { SnapshotHead } from './repo/snapshot-watch.js';
import type { GradedRowRecord, LockedGrade, NewGradedRow, NewGradeLock, NewSnapshot, SortKeys } from './repo/snapshots.js';
import type { TokenUser } from './repo/users.js';
import type { Handle } from './shared-db.js';
import type { Store } from './store.js';

/**
 * One store interface, one adapter per engine (issue 39). Repo code (store/repo/*) is written once:
 * queries both engines run alike go through drizzle's builder on `handle`; everything an engine does
 * its own way (SQLite's prepared hot paths and aggregates, PostgreSQL's multi-row SQL, advisory
 * locks, unnest) is an operation named here and implemented in store/sqlite/ops and store/pg/ops.
 * The adapter is attached to the store when it opens, and to each transaction's handle when the
 * transaction begins, bound to that handle's connection: repo code never asks which engine it holds.
 */
export interface EngineOps {
  /** The drizzle handle and tables for queries written once (store/shared-db.ts). */
  readonly handle: Handle;
  /** Runs `fn` in a new transaction on this store (repo/tx.ts decides when; joining one is its job). */
  transaction<T>(fn: (tx: Store) => Promise<T>, exclusive: boolean): Promise<T>;
  /** Of the failures of statement chains run side by side in one transaction, the cause to report (repo/tx.ts transactionFailure). */
  causeOf(failures: readonly unknown[]): unknown;
  /** Journal migrations this store has not applied. */
  pendingMigrations(): Promise<string[]>;
  /** A text column ordered by bytes, as SQLite orders text (PostgreSQL's collation may not). */
  byBytes<C extends AnyColumn>(col: C): C | SQL;
  /** After rows were copied in with their ids: the next generated id follows the largest one. */
  syncIdentities(): Promise<void>;
  /** Whether several server processes answer from this store at once (repo/rate-windows.ts). */
  readonly sharedAcrossServers: boolean;
  readonly runs: RunOps;
  readonly snapshots: SnapshotOps;
  readonly ledger: LedgerOps;
  readonly records: RecordOps;
  readonly settle: SettleOps;
  readonly history: HistoryOps;
  readonly gameStats: GameStatOps;
  readonly accounts: AccountOps;
}

/** repo/run-lock.ts, repo/health.ts, repo/run-figures.ts: each as the repo function of the same name says. */
export interface RunOps {
  /** A lock that dies with its holder: a run_locks row and lease on SQLite, a session advisory lock on PostgreSQL. */
  acquireRunLock(name: string, owner: string, now: () => Date): Promise<RunLock | RunLockRefusal>;
  heldRunLocks(): Promise<HeldRunLock[]>;
  newestRunPerJob(): Promise<RunFigures[]>;
  lastSuccessPerJob(): Promise<Array<{ kind: string; sport: string; at: string }>>;
}

/** repo/snapshots.ts, repo/snapshot-watch.ts: each as the repo function of the same name says. */
export interface SnapshotOps {
  newestSnapshotPerSport(): Promise<Array<{ sport: string; takenAt: string; source: string | null }>>;
  /** In the order of the (snapshot, event, player, stat, line, side) index, as are sortKeys and mainLineRows. */
  snapshotRows(snapshotId: number): Promise<GradedRowRecord[]>;
  snapshotSortKeys(snapshotId: number): Promise<SortKeys[]>;
  snapshotRowsById(ids: readonly number[]): Promise<Map<number, GradedRowRecord>>;
  mainLineRows(snapshotId: number): Promise<Array<{ eventId: string; playerKey: string; statType: string; line: number }>>;
  /** On a transaction's handle (repo/tx.ts write). */
  insertSnapshot(snapshot: NewSnapshot, rows: readonly NewGradedRow[]): Promise<number>;
  lockedGrades(eventIds: readonly string[]): Promise<Map<string, LockedGrade>>;
  /** On a transaction's handle (repo/tx.ts write). */
  insertLocks(locks: readonly NewGradeLock[]): Promise<void>;
  snapshotHeadById(id: number): Promise<SnapshotHead | null>;
  latestSnapshotWatcher(): (sport: string) => Promise<number | undefined>;
}

/** repo/ledger.ts: each as the repo function of the same name says. */
export interface LedgerOps {
  /** On a transaction's handle; how many were new. */
  insertLedgerEntries(entries: readonly NewLedgerEntry[]): Promise<number>;
  /** At least one event id; ordered by lock time, then id. */
  publicEntriesForEvents(eventIds: readonly string[]): Promise<LedgerEntry[]>;
  pendingBeforeStart(sport: string, now: Date): Promise<LedgerEntry[]>;
  /** On a transaction's handle. */
  writeClosings(captures: readonly ClosingCapture[], pinnacle: readonly PinnacleCapture[]): Promise<void>;
  /** On a transaction's handle. */
  upsertClosingPrices(rows: readonly NewClosingPrice[]): Promise<void>;
  /** The close contexts of `need` (entries that need one), whose sports are `sports` (repo/close-contexts.ts counts). */
  closeContexts(need: readonly LedgerEntry[], sports: string[]): Promise<Map<number, CloseContext>>;
}

/** repo/ledger-record.ts: the public record's statements over the rows `filter` selects. */
export interface RecordOps {
  /** Each row's coded columns (repo/record-sql.ts) added to `tally` in game-date, then id, order. */
  tallyRecordRows(filter: RecordFilter, tally: RecordTally): Promise<void>;
  settledTotals(filter: RecordFilter): Promise<SettledTotals | null>;
  /** (letter, uncapped letter, reason, count) in that order, text by bytes, a null uncapped letter first. */
  cappedCounts(filter: RecordFilter): Promise<Array<[Grade, Grade | null, CapReason, number]>>;
}

/** repo/ledger-settle.ts: each as the repo function of the same name says. */
export interface SettleOps {
  /** One row per game date of the sport's pending entries, in no particular order. */
  pendingDates(sport: string, at: string, today: string): Promise<PendingDateRow[]>;
  pendingOfDate(sport: string, date: string): Promise<PendingEntry[]>;
  /** (event id, home team, away team) of each asked event the sport's snapshots recorded, in no particular order. */
  eventTeams(sport: string, eventIds: readonly string[]): Promise<Array<[string, string, string]>>;
  /** On a transaction's handle (repo/tx.ts write); how many rows changed. */
  writeSettlements(settledAt: string, entries: readonly SettledEntry[]): Promise<number>;
}

/** repo/game-stats-history.ts: every asked player's at once, each key mapped as the one-player read gives it. */
export interface HistoryOps {
  historyForPlayers(sport: GradedSport, playerKeys: readonly string[], beforeDate: string, limit: number): Promise<Map<string, PlayerGameStat[]>>;
  latestTeams(sport: GradedSport, playerKeys: readonly string[], beforeDate: string): Promise<Map<string, string | null>>;
}

/** repo/game-stats.ts, repo/game-stats-write.ts: each as the repo function of the same name says. */
export interface GameStatOps {
  gameStatsOn(sport: GradedSport, date: string): Promise<PlayerGameStat[]>;
  /** storedNames of one player key. */
  storedNamesOf(sport: GradedSport, playerKey: string): Promise<string[]>;
  /** storedNames of the whole sport. */
  allStoredNames(sport: GradedSport): Promise<string[]>;
  storedLinesVersion(sport: GradedSport): Promise<string>;
  /** On a transaction's handle: its lines are written inside that transaction. */
  gameStatsWriter(): Promise<GameStatsWriter>;
  /** On a transaction's handle (repo/tx.ts write). */
  upsertGameStats(rows: readonly PlayerGameStat[]): Promise<number>;
}

/** repo/users.ts, repo/billing.ts. */
export interface AccountOps {
  /** The user behind a live (unrevoked) token hash, with its onboarding flag (users.ts tokenLookup); null when none. */
  userByTokenHash(tokenHash: string): Promise<TokenUser | null>;
  /** The newest handled Stripe events (by received time, then event time). */
  latestStripeEvents(limit: number): Promise<StripeEventRow[]>;
}

/** Where a store keeps its adapter: a symbol, so nothing above the store reaches it by name. */
export const OPS: unique symbol = Symbol('propgrade.store.ops');

/** The adapter of this store or transaction handle. */
export function opsOf(store: Store): EngineOps {
  return store[OPS];
}

/** A store or transaction handle with its adapter attached; how each adapter finishes the handles it builds. */
export function withOps<S extends Store>(base: Omit<S, typeof OPS>, make: (store: S) => EngineOps): S {
  const store = base as S;
  (store as { [OPS]: EngineOps })[OPS] = make(store);
  return store;
}
