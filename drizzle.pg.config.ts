import { defineConfig } from 'drizzle-kit';

// The PostgreSQL store (issue 35): the tables declared once in src/store/tables, built with pg-core,
// and PostgreSQL's own migration history beside SQLite's.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/store/pg/schema.ts',
  out: './migrations-pg',
});
