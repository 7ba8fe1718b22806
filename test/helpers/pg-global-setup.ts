import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

/**
 * vitest globalSetup: the PostgreSQL server the store/pg suites run against (issue 35). With
 * PROPGRADE_TEST_PG_URL set (CI's .ci/run starts one) that server is used; otherwise a throwaway
 * cluster starts here (scripts/pg/cluster.sh, fsync off) and is removed after the run. Missing
 * server binaries fail the run: a PostgreSQL suite that quietly skipped would prove nothing.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    propgradeTestPgUrl: string;
  }
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLUSTER = join(ROOT, 'scripts/pg/cluster.sh');
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const given = process.env.PROPGRADE_TEST_PG_URL;
  if (given) {
    project.provide('propgradeTestPgUrl', given);
    return undefined;
  }
  if (!existsSync(join(PG_BIN, 'initdb')) || !existsSync(join(PG_BIN, 'pg_ctl'))) {
    throw new Error(
      `PostgreSQL 15 server binaries (initdb, pg_ctl) are not in ${PG_BIN}: the store/pg suites need a real server. ` +
        'Install them (Debian/Ubuntu: apt-get install postgresql-15), point PG_BIN at the folder that holds them, ' +
        'or set PROPGRADE_TEST_PG_URL to an admin URL of a running server (postgres://postgres@127.0.0.1:5432/postgres).',
    );
  }
  // mkdtemp's own folder is the cluster folder: cluster.sh hands it to the postgres user when run as root.
  const dir = mkdtempSync(join(tmpdir(), 'propgrade-pg-'));
  const stop = () => {
    try {
      execFileSync('bash', [CLUSTER, 'stop', dir], { stdio: 'ignore' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  let url: string;
  try {
    url = execFileSync('bash', [CLUSTER, 'start', dir, String(await freePort())], { encoding: 'utf8', env: { ...process.env, PG_BIN } }).trim();
  } catch (error) {
    stop();
    throw error;
  }
  // Workers are forked after globalSetup with an env copied from this process.env (vitest 4's
  // pool), so the suites read the URL as CI passes it; provide/inject carries it for any other pool.
  process.env.PROPGRADE_TEST_PG_URL = url;
  project.provide('propgradeTestPgUrl', url);
  return () => {
    delete process.env.PROPGRADE_TEST_PG_URL;
    stop();
  };
}
