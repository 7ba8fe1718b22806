import { defineConfig } from 'drizzle-kit';

// The PostgreSQL store (issue 35): its own schema mirror and migration history beside SQLite's.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/store/pg/schema.ts',
  out: './migrations-pg',
});
