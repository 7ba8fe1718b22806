import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** The admin URL of the test server (test/helpers/pg-global-setup.ts starts it or takes CI's). */
export function testPgAdminUrl(): string {
  const url = process.env.PROPGRADE_TEST_PG_URL ?? inject('propgradeTestPgUrl');
  if (!url) throw new Error('PROPGRADE_TEST_PG_URL is not set and no test PostgreSQL server was started (is pg-global-setup.ts in vitest.config.ts?)');
  return url;
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testPgAdminUrl(), application_name: 'propgrade-tests' });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A new empty database on the test server, unique to this call; `drop()` removes it, connections and all. */
export async function freshPgDatabase(): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `propgrade_t_${process.pid}_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`create database "${name}"`));
  const url = new URL(testPgAdminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    // FORCE ends a pool the test left open, so one failed test cannot block the drop.
    drop: () => admin((c) => c.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}
