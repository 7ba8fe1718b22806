/**
 * The SQLite store's tables, built with drizzle's sqlite-core from the one declaration of each
 * table (src/store/tables/, issue 39), under the names queries, tests and drizzle-kit
 * (drizzle.config.ts) use. src/store/pg/schema.ts is the same list built with pg-core.
 */

import * as declared from './tables/index.js';
import { sqliteTables } from './tables/sqlite.js';

// Constants the tables' enums use, re-exported as consts (an `export {} from` would not be readonly in `typeof` this module).
export const tiers = declared.tiers;
export const ledgerOutcomes = declared.ledgerOutcomes;

export const pipelineRuns = sqliteTables.pipelineRuns;
export const kvCache = sqliteTables.kvCache;
export const runLocks = sqliteTables.runLocks;
export const snapshots = sqliteTables.snapshots;
export const gradedRows = sqliteTables.gradedRows;
export const gradeLocks = sqliteTables.gradeLocks;
export const closingPrices = sqliteTables.closingPrices;
export const tickerEvents = sqliteTables.tickerEvents;
export const ledgerEntries = sqliteTables.ledgerEntries;
export const playerGameStats = sqliteTables.playerGameStats;
export const users = sqliteTables.users;
export const subscriptions = sqliteTables.subscriptions;
export const stripeEvents = sqliteTables.stripeEvents;
export const apiTokens = sqliteTables.apiTokens;
export const preferences = sqliteTables.preferences;
export const usageEvents = sqliteTables.usageEvents;
export const contentLog = sqliteTables.contentLog;
export const dataMigrations = sqliteTables.dataMigrations;
