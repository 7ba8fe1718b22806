/**
 * Every table of the store, declared once (issue 39): tables/sqlite.ts builds them with drizzle's
 * sqlite-core and tables/pg.ts with pg-core, and src/store/schema.ts / src/store/pg/schema.ts
 * re-export the built tables under these names. Times are ISO-8601 UTC strings; dates are US
 * Eastern yyyy-mm-dd. Prices are American odds. Every nullable column means "not known from real
 * data"; no column defaults a missing value to 0.
 */

export * from './runs.js';
export * from './slates.js';
export * from './ledger.js';
export * from './stats.js';
export * from './accounts.js';
export * from './content.js';
export * from './data-migrations.js';
