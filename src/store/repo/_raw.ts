// Transitional (issue 39): the SQLite hot paths' helpers moved to sqlite/_raw.ts, the column mappings to _columns.ts.
export * from '../_columns.js';
export { clientOf, insertSql, prepared } from '../sqlite/_raw.js';
