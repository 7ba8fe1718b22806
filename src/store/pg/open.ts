import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { PG_MIGRATIONS_DIR } from '../paths.js';
import * as pgSchema from './schema.js';

export type PgDb = NodePgDatabase<typeof pgSchema>;

export interface OpenedPg {
  pool: pg.Pool;
  db: PgDb;
  /** The URL without its password (or query string, which may carry one): safe for any message or log. */
  label: string;
}

export interface OpenPgOptions {
  /** Apply pending migrations (default true). */
  migrate?: boolean;
  /** Pool size (default 10): a CLI run needs one or two connections, `serve` a few. */
  max?: number;
}

/** An unreachable host fails within this, not after the OS's TCP timeout. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * The advisory lock key held while migrating, one fixed number for every propgrade process ("prop"
 * in ASCII): two processes opening a fresh database at once queue here and the second finds the
 * migrations applied. Advisory locks are per database, so stores in other databases never wait.
 */
export const MIGRATION_LOCK_KEY = 0x70726f70;

interface ParsedUrl {
  label: string;
  user: string;
  database: string;
  password: string;
}

const pgUrlSchema = z.string().transform((raw, ctx): ParsedUrl => {
  const fail = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // The text itself is never echoed: it may hold a password.
    return fail('not a URL (expected postgres://user@host:port/database)');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') return fail(`the scheme is ${url.protocol}// (expected postgres:// or postgresql://)`);
  if (!url.hostname) return fail('no host (expected postgres://user@host:port/database)');
  let database: string;
  try {
    database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  } catch {
    return fail('the database name is not valid percent-encoding');
  }
  if (!database || database.includes('/')) return fail('no database name (expected postgres://user@host:port/database)');
  const user = safeDecode(url.username);
  const label = `${url.protocol}//${url.username ? `${url.username}@` : ''}${url.hostname}:${url.port || '5432'}${url.pathname}`;
  return { label, user, database, password: url.password };
});

/** Parses a PostgreSQL store URL; a malformed one is BAD_INPUT with a message that never repeats it. */
export function parsePgUrl(raw: string): ParsedUrl {
  const parsed = pgUrlSchema.safeParse(raw);
  if (!parsed.success) throw new AppError('BAD_INPUT', `invalid PostgreSQL URL: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

/**
 * int8 (count(*), sum of integers, bigint columns) and numeric (sum of int8, avg) arrive as strings
 * by default, where SQLite hands back numbers and the schema says number. Set on pg's global type
 * table, not a per-pool `types`: drizzle's node-postgres session gives every query its own `types`
 * that falls through to the global table, so a per-pool parser would never see drizzle's queries.
 * The store holds no numeric column, so no exact decimal is lost; an int8 beyond 2^53 throws.
 */
function installNumberParsers(): void {
  pg.types.setTypeParser(pg.types.builtins.INT8, (text: string) => {
    const n = Number(text);
    if (!Number.isSafeInteger(n)) throw new RangeError(`PostgreSQL int8 ${text} is beyond JavaScript's exact integers`);
    return n;
  });
  pg.types.setTypeParser(pg.types.builtins.NUMERIC, (text: string) => Number(text));
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);

/** A failed first connection as a message naming the server by its label, the password scrubbed from any text. */
function connectError(error: unknown, url: ParsedUrl): AppError {
  const e = (error ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const secrets = url.password ? [url.password, safeDecode(url.password)] : [];
  const scrub = (text: string) => secrets.reduce((t, secret) => t.split(secret).join('***'), text);
  const reason = scrub(typeof e.message === 'string' ? e.message : String(error));
  const options = { cause: error };
  if (code === '3D000') return new AppError('BAD_INPUT', `database "${url.database}" does not exist at ${url.label}`, options);
  if (code === '28P01') return new AppError('BAD_INPUT', `PostgreSQL at ${url.label} rejected the password of role "${url.user}" (SQLSTATE 28P01)`, options);
  if (code === '28000') return new AppError('BAD_INPUT', `PostgreSQL at ${url.label} refused role "${url.user}": ${reason} (SQLSTATE 28000)`, options);
  if (code === '53300' || code === '57P03') return new AppError('UNAVAILABLE', `PostgreSQL at ${url.label} cannot take a connection now: ${reason} (SQLSTATE ${code})`, options);
  if (UNREACHABLE.has(code) || /timeout|terminated/i.test(reason)) return new AppError('BAD_INPUT', `cannot reach PostgreSQL at ${url.label} (${code || reason})`, options);
  return new AppError('BAD_INPUT', `cannot open PostgreSQL at ${url.label}: ${reason}${code ? ` (${code})` : ''}`, options);
}

/**
 * Opens the PostgreSQL store at `url` (issue 35): validates the URL, proves one connection works,
 * and applies pending migrations (default) under an advisory lock held on that one connection.
 * The caller ends the pool (`pool.end()`).
 */
export async function openPg(url: string, options: OpenPgOptions = {}): Promise<OpenedPg> {
  const parsed = parsePgUrl(url);
  installNumberParsers();
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'propgrade',
  });
  // An idle connection the server drops (restart, pg_terminate_backend) emits here; unhandled it
  // would end the process. The pool discards it and the next query opens a fresh one.
  pool.on('error', () => {});
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    await pool.end().catch(() => {});
    throw connectError(error, parsed);
  }
  // Between two of the migration's queries no query is in flight to receive a dropped connection's
  // error, so the client would emit it unhandled; the next query fails with it instead.
  const ignore = () => {};
  client.on('error', ignore);
  let broken: Error | undefined;
  try {
    if (options.migrate ?? true) await migrateLocked(client);
  } catch (error) {
    broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // A connection that failed mid-migration is destroyed, not reused: the server then frees its lock.
    client.off('error', ignore);
    client.release(broken);
    if (broken) await pool.end().catch(() => {});
  }
  return { pool, db: drizzle(pool, { schema: pgSchema }), label: parsed.label };
}

async function migrateLocked(client: pg.PoolClient): Promise<void> {
  const pending = await client.query(`select pg_advisory_lock(${MIGRATION_LOCK_KEY}); ${MIGRATIONS_TABLE_SQL}; ${LAST_MIGRATION_SQL}`);
  const last = (Array.isArray(pending) ? (pending.at(-1) as pg.QueryResult<{ created_at: string | number }>) : pending).rows[0];
  const unlock = `select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
  const todo = migrationsAfter(last === undefined ? null : Number(last.created_at));
  if (todo === null) return void (await client.query(unlock));
  try {
    await client.query(`begin; ${todo}; commit; ${unlock}`);
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}

/**
 * drizzle's node-postgres migrator (drizzle-orm/pg-core dialect.migrate) keeps its record in
 * drizzle.__drizzle_migrations: each applied journal entry's sha256 and `when` (created_at), and
 * applies the entries newer than the newest recorded, every statement then every record in one
 * transaction. The same here, with the same record (so drizzle, `db status` and an older build read
 * it as theirs), but each step is one multi-statement query: a fresh database's 46 statements were
 * 50 round trips, which on a loaded machine cost more than the server's work on them (issue 39).
 */
const MIGRATIONS_TABLE_SQL =
  'CREATE SCHEMA IF NOT EXISTS "drizzle"; CREATE TABLE IF NOT EXISTS "drizzle"."__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)';
const LAST_MIGRATION_SQL = 'select id, hash, created_at from "drizzle"."__drizzle_migrations" order by created_at desc limit 1';

/** The statements (and records) of the journal entries newer than `lastWhen`, as one text; null when none is. */
function migrationsAfter(lastWhen: number | null): string | null {
  const parts: string[] = [];
  for (const m of readMigrationFiles({ migrationsFolder: PG_MIGRATIONS_DIR })) {
    if (lastWhen !== null && lastWhen >= m.folderMillis) continue;
    // Each breakpoint-separated statement ends its own text; `;` between them keeps a statement whose own `;` is missing apart.
    parts.push(...m.sql.filter((stmt) => stmt.trim().length > 0));
    // The hash is hex and the time an integer: nothing in either to quote.
    parts.push(`insert into "drizzle"."__drizzle_migrations" ("hash", "created_at") values('${m.hash}', ${m.folderMillis})`);
  }
  return parts.length === 0 ? null : parts.join(';\n');
}
