/**
 * The PostgreSQL store's tables (issue 35), built with drizzle's pg-core from the one declaration
 * of each table (src/store/tables/, issue 39): the same export names, property names and inferred
 * row types as src/store/schema.ts, and the same SQL tables, columns, indexes, keys and defaults
 * (test/store/tables, and test/store/pg/schema-parity.test.ts on the migrated databases). Read by
 * drizzle-kit through drizzle.pg.config.ts.
 */

import * as declared from '../tables/index.js';
import { pgTables } from '../tables/pg.js';

// Constants the tables' enums use, re-exported as consts (an `export {} from` would not be readonly in `typeof` this module).
export const tiers = declared.tiers;
export const ledgerOutcomes = declared.ledgerOutcomes;

export const pipelineRuns = pgTables.pipelineRuns;
export const kvCache = pgTables.kvCache;
export const runLocks = pgTables.runLocks;
export const snapshots = pgTables.snapshots;
export const gradedRows = pgTables.gradedRows;
export const gradeLocks = pgTables.gradeLocks;
export const closingPrices = pgTables.closingPrices;
export const tickerEvents = pgTables.tickerEvents;
export const ledgerEntries = pgTables.ledgerEntries;
export const playerGameStats = pgTables.playerGameStats;
export const users = pgTables.users;
export const subscriptions = pgTables.subscriptions;
export const stripeEvents = pgTables.stripeEvents;
export const apiTokens = pgTables.apiTokens;
export const preferences = pgTables.preferences;
export const usageEvents = pgTables.usageEvents;
export const contentLog = pgTables.contentLog;
export const dataMigrations = pgTables.dataMigrations;
