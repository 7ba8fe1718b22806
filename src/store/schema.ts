/**
 * The whole store, one module per table family (src/store/schema/*), re-exported here so queries,
 * tests and drizzle-kit (drizzle.config.ts) see one schema. Times are ISO-8601 UTC strings; dates
 * are US Eastern yyyy-mm-dd. Prices are American odds. Every nullable column means "not known from
 * real data"; no column defaults a missing value to 0.
 */

export * from './schema/runs.js';
export * from './schema/slates.js';
export * from './schema/ledger.js';
export * from './schema/stats.js';
export * from './schema/accounts.js';
export * from './schema/content.js';
