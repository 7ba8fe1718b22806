import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/cli.js';
import { freshPgDatabase, testPgAdminUrl } from '../helpers/pg.js';

/**
 * A PostgreSQL role without a right (SQLSTATE 42501) gets one line naming the right, its object and
 * the GRANT that gives it, exit 2, never drizzle's "Failed query" with the SQL nor the password
 * (issue 41 item 7). A throwaway database and role on the test server, granted one right at a time.
 */
let db: Awaited<ReturnType<typeof freshPgDatabase>>;
const role = `propgrade_t_role_${randomBytes(5).toString('hex')}`;
const password = `pw_${randomBytes(9).toString('hex')}`;
let roleUrl: string;

async function sql(statement: string, database?: string): Promise<void> {
  const url = new URL(testPgAdminUrl());
  if (database) url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString(), application_name: 'propgrade-tests' });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  db = await freshPgDatabase();
  const migrated = await runCli(['--db', db.url, 'db', 'migrate']);
  expect(migrated.code, migrated.stderr).toBe(0);
  await sql(`create role "${role}" login password '${password}'`);
  const url = new URL(db.url);
  url.username = role;
  url.password = password;
  roleUrl = url.toString();
}, 120_000);

afterAll(async () => {
  await db?.drop();
  await sql(`drop role if exists "${role}"`);
});

/** The refusal a command gets as the role: exit 2, one line, no statement text and no password. */
function refusal(run: CliRun): string {
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(run.stderr).not.toMatch(/Failed query|params:|select "|insert into|CREATE SCHEMA IF/);
  expect(run.stderr).not.toContain(password);
  expect(lines[0]).toMatch(new RegExp(`^propgrade: PostgreSQL refused role "${role}": permission denied for (database|schema|table|sequence) \\w+; the role needs .*: GRANT .* TO "${role}".* \\(SQLSTATE 42501\\)$`));
  return lines[0]!;
}

/** The GRANT a refusal names, as the admin runs it. */
const grantOf = (line: string) => /: (GRANT [^(]+? TO "[^"]+")/.exec(line)![1]!;

describe('a PostgreSQL role without a right', () => {
  it('names each missing right in turn, with a GRANT that gives it', async () => {
    const seen: string[] = [];
    // Run as the role, grant what each refusal names, until the read runs; reads only, so writes stay refused.
    for (let i = 0; i < 8; i++) {
      const run = await runCli(['--db', roleUrl, 'record']);
      if (run.code === 0) break;
      const line = refusal(run);
      seen.push(line.replace(/^.*permission denied for (\w+) (\w+).*$/, '$1 $2'));
      const grant = grantOf(line);
      await sql(grant.startsWith('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public') ? `GRANT SELECT ON ALL TABLES IN SCHEMA public TO "${role}"` : grant, db.name);
    }
    const read = await runCli(["--db", roleUrl, "record"]);
    expect(read.code, `${seen.join("\n")}\n${read.stderr}`).toBe(0);
    // Every object is named once, and the reads needed a table right.
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.some((s) => s.startsWith('table '))).toBe(true);
    // A write names INSERT on its table, then (its id) the sequence; each GRANT as printed lets it through.
    for (let i = 0; i < 4; i++) {
      const run = await runCli(['--db', roleUrl, 'ticker', 'pin', 'Doubleheader today']);
      if (run.code === 0) break;
      const line = refusal(run);
      if (line.includes('for table ')) expect(line).toMatch(/the role needs INSERT on table \w+: GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public/);
      await sql(grantOf(line), db.name);
    }
    expect((await runCli(['--db', roleUrl, 'ticker', 'pin', 'Doubleheader today'])).code).toBe(0);
  }, 120_000);

  it('without TEMPORARY on the database (revoked from PUBLIC), a snapshot names it; granted, the snapshot runs', async () => {
    await sql(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO "${role}"`, db.name);
    await sql(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO "${role}"`, db.name);
    await sql(`REVOKE TEMPORARY ON DATABASE "${db.name}" FROM PUBLIC`, db.name);
    const snapshot = ['--db', roleUrl, 'snapshot', 'nba', '--replay', 'data/replay', '--quiet'];
    const run = await runCli(snapshot);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).not.toMatch(/Failed query|create temporary table "|copy "/);
    expect(run.stderr).not.toContain(password);
    // Progress lines first; the refusal is the last line.
    expect(run.stderr.trim().split('\n').at(-1)).toBe(
      `propgrade: PostgreSQL refused role "${role}": permission denied to create temporary tables in database ${db.name}; ` +
        `the role needs TEMPORARY on database ${db.name}: GRANT TEMPORARY ON DATABASE ${db.name} TO "${role}" (bulk writes stage their rows in a temporary table) (SQLSTATE 42501)`,
    );
    await sql(grantOf(run.stderr), db.name);
    const again = await runCli(snapshot);
    expect(again.code, again.stderr).toBe(0);
  }, 120_000);
});
