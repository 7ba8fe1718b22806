import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleStripeEvent, linkCustomer, type VerifiedEvent } from '../../src/accounts/billing.js';
import { reserveMetered } from '../../src/accounts/meter.js';
import { KNOWN_BOOKS, updatePreferences } from '../../src/accounts/preferences.js';
import { createUser } from '../../src/accounts/users.js';
import { loadConfig } from '../../src/config.js';
import { openStoreAt, type Store } from '../../src/store/db.js';
import { checkStore } from '../../src/store/maintenance.js';
import { ORPHAN_QUERIES } from '../../src/store/orphans.js';
import { copyOn, ENGINES, type EngineName, type EngineStore } from '../helpers/engines.js';
import { replayLoopFiles } from '../helpers/replay-store.js';
import { quiet, startServer } from '../server/_harness.js';

/**
 * Concurrency (issue 19, suite 4; issue 35 on both engines), with real processes over one store (an
 * SQLite file, or a PostgreSQL database, each a copy of the same README-loop store): two snapshot
 * runs at once, a snapshot and a settle at once, a snapshot while the server answers 200
 * concurrent reads, and account writes (meter slots, preferences, Stripe webhooks) racing from two
 * processes. One run waits or exits clearly, readers never see a torn snapshot, no lock error
 * reaches anyone, and the account writes stay exact: no slot over the limit, no lost update, no
 * webhook applied twice.
 */

const BIN = 'bin/propgrade.js';
const LOCK_ERRORS = /SQLITE_BUSY|database is locked|deadlock detected|could not serialize|duplicate key/;

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

type Row = Record<string, unknown>;
/** Raw rows of `sql` from the engine itself: better-sqlite3 on the file, node-postgres on the database. */
async function rows(es: EngineStore, sql: string): Promise<Row[]> {
  const store = es.store;
  return store.engine === 'sqlite' ? (store.sqlite.prepare(sql).all() as Row[]) : (await store.pg.pool.query(sql)).rows;
}

/** What is wrong with the store: SQLite's own checks, the hand-checked relations, a snapshot whose row count disagrees with its rows. */
async function problemsOf(es: EngineStore): Promise<string[]> {
  const out: string[] = [];
  if (es.engine === 'sqlite') {
    const check = checkStore(es.target);
    if (!check.ok) out.push(JSON.stringify(check));
  }
  for (const [relation, sql] of ORPHAN_QUERIES) {
    const n = Number((await rows(es, sql))[0]!['n']);
    if (n > 0) out.push(`${relation}: ${n} orphans`);
  }
  const torn = await rows(es, 'select s.id, s.row_count as "rowCount", count(g.id) as n from snapshots s left join graded_rows g on g.snapshot_id = s.id group by s.id, s.row_count having count(g.id) <> s.row_count');
  for (const t of torn) out.push(`snapshot ${t['id']}: row_count ${t['rowCount']}, ${t['n']} rows`);
  return out;
}

/** The snapshots and the latest NBA snapshot's graded rows, read raw: compared across engines at the end. */
async function slateFigures(es: EngineStore): Promise<unknown> {
  const snaps = await rows(es, 'select id, sport, taken_at as "takenAt", slate_date as "slateDate", graded_count as "graded", row_count as "rowCount", source from snapshots order by id');
  const latest = await rows(es, "select max(id) as id from snapshots where sport = 'nba'");
  const graded = await rows(es, `select player_key as p, stat_type as s, line as l, side as d, grade as g, fair_prob as f from graded_rows where snapshot_id = ${Number(latest[0]!['id'])}`);
  const keyed = graded.map((r) => JSON.stringify([r['p'], r['s'], Number(r['l']), r['d'], r['g'], r['f'] === null ? null : Number(r['f'])])).sort();
  return { snapshots: snaps.map((s) => ({ ...s, id: Number(s['id']), graded: Number(s['graded']), rowCount: Number(s['rowCount']) })), graded: keyed };
}

// --- The account race: one function, run by two processes (or two Store objects) against one store ---

interface RaceLib {
  reserveMetered: typeof reserveMetered;
  updatePreferences: typeof updatePreferences;
  handleStripeEvent: typeof handleStripeEvent;
  books: readonly string[];
}
interface RacePlan {
  userId: number;
  subject: string;
  limit: number;
  tries: number;
  rounds: number;
  now: string;
  events: VerifiedEvent[];
  priceTiers: Record<string, 'free' | 'analyst' | 'desk'>;
}
interface RaceResult {
  slots: number;
  outcomes: Array<[string, string]>;
}

/**
 * All at once: `tries` metered reservations, `rounds` preference updates in turn (racer a sets
 * bankroll_limit to 1..rounds, racer b sets books), and every webhook event delivered at once.
 * Self-contained (its source is sent to the worker processes): everything it uses is a parameter.
 */
async function race(store: Store, who: 'a' | 'b', plan: RacePlan, lib: RaceLib): Promise<RaceResult> {
  const now = new Date(plan.now);
  const meter = Promise.all(Array.from({ length: plan.tries }, () => lib.reserveMetered(store, plan.subject, 'race', plan.limit, now)));
  const prefs = (async () => {
    for (let i = 1; i <= plan.rounds; i += 1) {
      await lib.updatePreferences(store, plan.userId, who === 'a' ? { bankroll_limit: i } : { books: [lib.books[i % lib.books.length]!] as never }, now);
    }
  })();
  const order = who === 'a' ? plan.events : [...plan.events].reverse();
  const hooks = Promise.all(order.map((e) => lib.handleStripeEvent(store, e, { priceTiers: plan.priceTiers, now })));
  const [slots, , results] = await Promise.all([meter, prefs, hooks]);
  return { slots: slots.filter((s) => s.ok).length, outcomes: results.map((r) => [r.eventId, r.outcome]) };
}

/** The worker: opens the store, says `ready`, races on `go` and prints its result. */
const WORKER = `
import { pathToFileURL } from 'node:url';
const root = pathToFileURL(process.cwd() + '/');
const load = (p) => import(new URL(p, root).href);
const [{ openStoreAt }, meter, prefs, billing] = await Promise.all(['src/store/db.ts', 'src/accounts/meter.ts', 'src/accounts/preferences.ts', 'src/accounts/billing.ts'].map(load));
const race = (0, eval)('(' + process.env.RACE_FN + ')');
const store = await openStoreAt(process.env.RACE_TARGET);
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const lib = { reserveMetered: meter.reserveMetered, updatePreferences: prefs.updatePreferences, handleStripeEvent: billing.handleStripeEvent, books: prefs.KNOWN_BOOKS };
const result = await race(store, process.env.RACE_WHO, JSON.parse(process.env.RACE_PLAN), lib);
await store.close();
process.stdout.write(JSON.stringify(result) + '\\n');
process.exit(0);
`;

function worker(target: string, who: 'a' | 'b', plan: RacePlan): { ready: Promise<void>; go(): void; done: Promise<RaceResult> } {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', WORKER], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, RACE_FN: race.toString(), RACE_TARGET: target, RACE_WHO: who, RACE_PLAN: JSON.stringify(plan) },
  });
  let out = '';
  let err = '';
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout.on('data', (d) => {
    out += String(d);
    if (out.startsWith('ready\n')) onReady();
  });
  child.stderr.on('data', (d) => (err += String(d)));
  const done = new Promise<RaceResult>((resolve, reject) =>
    child.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last) as RaceResult);
      else reject(new Error(`worker ${who} exited ${code}: ${err.slice(0, 2000)}`));
    }),
  );
  return { ready, go: () => child.stdin.end('go\n'), done };
}

const T0 = Math.floor(Date.parse('2025-11-05T17:00:00Z') / 1000);
const EVENTS = 6;

/** A user linked to a Stripe customer, and the race over it: 6 subscription events, the newest on the desk price. */
async function racePlan(store: Store, tag: string): Promise<RacePlan> {
  const now = new Date('2025-11-05T17:05:00Z');
  const email = `race-${tag}@concurrency.test`;
  const { user } = await createUser(store, { email, tier: 'free' }, now);
  await linkCustomer(store, email, `cus_${tag}`);
  const events: VerifiedEvent[] = Array.from({ length: EVENTS }, (_, k) => ({
    id: `evt_${tag}_${k}`,
    type: k === 0 ? 'customer.subscription.created' : 'customer.subscription.updated',
    created: T0 + k,
    data: { object: { id: `sub_${tag}`, object: 'subscription', customer: `cus_${tag}`, status: 'active', items: { data: [{ price: { id: k % 2 === 1 ? 'price_desk' : 'price_analyst' } }] } } },
  }));
  return { userId: user.id, subject: `user:${user.id}`, limit: 12, tries: 15, rounds: 10, now: now.toISOString(), events, priceTiers: { price_analyst: 'analyst', price_desk: 'desk' } };
}

/** The race's results held against the raw rows: exact slots, both racers' last writes, each event handled once, the newest state kept. */
async function expectExact(es: EngineStore, plan: RacePlan, results: RaceResult[], tag: string): Promise<void> {
  expect(results.reduce((n, r) => n + r.slots, 0), 'slots taken').toBe(plan.limit);
  expect(Number((await rows(es, `select count(*) as n from usage_events where subject = '${plan.subject}'`))[0]!['n']), 'usage rows').toBe(plan.limit);
  const [pref] = await rows(es, `select bankroll_limit as b, books from preferences where user_id = ${plan.userId}`);
  const books = typeof pref!['books'] === 'string' ? JSON.parse(pref!['books']) : pref!['books'];
  expect({ bankroll: Number(pref!['b']), books }, 'no lost preference update').toEqual({ bankroll: plan.rounds, books: [KNOWN_BOOKS[plan.rounds % KNOWN_BOOKS.length]] });
  const outcomes = results.flatMap((r) => r.outcomes);
  expect(outcomes).toHaveLength(EVENTS * results.length);
  const stored = await rows(es, `select id, outcome from stripe_events where id like 'evt_${tag}_%' order by id`);
  expect(stored.map((s) => s['id'])).toEqual(plan.events.map((e) => e.id));
  for (const e of plan.events) {
    const handled = outcomes.filter(([id, o]) => id === e.id && o !== 'duplicate').map(([, o]) => o);
    expect(handled, `${e.id} handled once`).toHaveLength(1);
    expect(String(stored.find((s) => s['id'] === e.id)!['outcome'])).toMatch(new RegExp(`^${handled[0]}: `));
  }
  expect(outcomes.filter(([, o]) => o === 'applied').length).toBeGreaterThan(0);
  const [user] = await rows(es, `select tier from users where id = ${plan.userId}`);
  const [sub] = await rows(es, `select price_id as p, event_created as c, tier from subscriptions where stripe_subscription_id = 'sub_${tag}'`);
  expect({ tier: user!['tier'], price: sub!['p'], created: Number(sub!['c']), subTier: sub!['tier'] }).toEqual({ tier: 'desk', price: 'price_desk', created: T0 + EVENTS - 1, subTier: 'desk' });
}

let dir: string;
let loop: { presettle: string; settled: string };
const figures: Partial<Record<EngineName, unknown>> = {};
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propgrade-concurrency-'));
  loop = await replayLoopFiles(dir);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(ENGINES)('concurrent runs and reads on one store (%s)', (engine) => {
  /** A copy of the README loop's store before settle on this engine, closed after `fn`. */
  async function withCopy(fn: (es: EngineStore) => Promise<void>): Promise<void> {
    const es = await copyOn(engine, loop.presettle);
    try {
      await fn(es);
    } finally {
      await es.cleanup();
    }
  }

  it('two snapshot runs at once: one runs, the other exits 1 naming the holder; the store stays whole', () =>
    withCopy(async (es) => {
      const args = ['--db', es.target, 'snapshot', 'nba', '--replay', 'data/replay', '--now', '2025-11-05T17:20:00Z', '--quiet'];
      const [a, b] = await Promise.all([run(args), run(args)]);
      const codes = [a.code, b.code].sort();
      // Either both finished one after the other (0, 0) or one found the lock held (0, 1).
      expect([JSON.stringify([0, 0]), JSON.stringify([0, 1])]).toContain(JSON.stringify(codes));
      for (const r of [a, b]) {
        expect(r.stderr).not.toMatch(LOCK_ERRORS);
        if (r.code === 1) expect(r.stderr).toMatch(/holds the lock \((pid:\d+@|another run)/);
      }
      expect(await problemsOf(es)).toEqual([]);
    }), 60_000);

  it('a snapshot and a settle at once both finish (different locks, one store)', () =>
    withCopy(async (es) => {
      const [snap, settle] = await Promise.all([
        run(['--db', es.target, 'snapshot', 'nba', '--replay', 'data/replay', '--now', '2025-11-05T17:20:00Z', '--quiet']),
        run(['--db', es.target, 'settle', 'nba', '--replay', 'data/replay', '--now', '2025-11-06T12:00:00Z']),
      ]);
      expect(snap.code, snap.stderr).toBe(0);
      expect(settle.code, settle.stderr).toBe(0);
      expect(`${snap.stderr}${settle.stderr}`).not.toMatch(LOCK_ERRORS);
      expect(await problemsOf(es)).toEqual([]);
      figures[engine] = await slateFigures(es);
    }), 60_000);

  it('a snapshot while the server answers 200 concurrent reads: every read is whole, none fails', () =>
    withCopy(async (es) => {
      const api = await startServer({ store: es.store, config: loadConfig({}), now: () => new Date('2025-11-05T17:30:00Z'), log: quiet });
      try {
        const snapshot = run(['--db', es.target, 'snapshot', 'nba', '--replay', 'data/replay', '--now', '2025-11-05T17:25:00Z', '--quiet']);
        const statuses: number[] = [];
        const failed: string[] = [];
        let torn = 0;
        const started = Date.now();
        const reads = Array.from({ length: 200 }, async (_, i) => {
          const path = i % 2 === 0 ? '/api/snapshot/nba' : '/api/snapshot/summary';
          try {
            const res = await fetch(`${api.base}${path}`);
            statuses.push(res.status);
            if (path === '/api/snapshot/nba' && res.status === 200) {
              const body = (await res.json()) as { snapshot: { rows: number }; games: Array<{ rows: unknown[] }> };
              // A torn snapshot would serve fewer (or more) rows than the snapshot says it holds.
              if (body.games.reduce((n, g) => n + g.rows.length, 0) !== body.snapshot.rows) torn += 1;
            } else {
              await res.arrayBuffer();
            }
          } catch (error) {
            // Named, so a failure says which read, when, and what the socket had carried.
            const cause = (error as { cause?: { code?: string; socket?: { bytesRead?: number } } }).cause;
            failed.push(`read ${i} ${path} after ${Date.now() - started} ms: ${String(error)} (${cause?.code}, ${cause?.socket?.bytesRead} bytes read)`);
          }
        });
        await Promise.all(reads);
        const r = await snapshot;
        expect(r.code, r.stderr).toBe(0);
        expect(failed).toEqual([]);
        expect(statuses.filter((s) => s !== 200)).toEqual([]);
        expect(torn).toBe(0);
        expect(await problemsOf(es)).toEqual([]);
        console.log(`concurrency (${engine}): 200 reads during a snapshot, ${statuses.length} answered 200, ${torn} torn`);
      } finally {
        await api.close();
      }
    }), 120_000);

  it('account writes racing from two processes stay exact: meter slots, preferences, webhooks', () =>
    withCopy(async (es) => {
      const tag = `proc${engine}`;
      const plan = await racePlan(es.store, tag);
      const racers = (['a', 'b'] as const).map((who) => worker(es.target, who, plan));
      await Promise.all(racers.map((r) => r.ready));
      for (const r of racers) r.go();
      await expectExact(es, plan, await Promise.all(racers.map((r) => r.done)), tag);
    }), 60_000);
});

describe('two Store objects on one PostgreSQL database', () => {
  // Two Store objects in one process: real concurrency on PostgreSQL (each has its own pool). On
  // SQLite the driver is synchronous, so a second connection in the same process waiting on
  // BEGIN IMMEDIATE blocks the thread the first one needs to commit: one process, one Store.
  it('account writes racing from two Store objects on one database stay exact', async () => {
    const es = await copyOn('postgres', loop.presettle);
    try {
      const tag = 'twin';
      const plan = await racePlan(es.store, tag);
      const [a, b] = [await openStoreAt(es.target), await openStoreAt(es.target)];
      const lib: RaceLib = { reserveMetered, updatePreferences, handleStripeEvent, books: KNOWN_BOOKS };
      try {
        await expectExact(es, plan, await Promise.all([race(a, 'a', plan, lib), race(b, 'b', plan, lib)]), tag);
      } finally {
        await a.close();
        await b.close();
      }
    } finally {
      await es.cleanup();
    }
  }, 60_000);
});

describe('both engines end alike', () => {
  it('the snapshot-and-settle race leaves the same snapshots and graded rows on SQLite and PostgreSQL', () => {
    expect(figures.sqlite).toBeDefined();
    expect(figures.postgres).toEqual(figures.sqlite);
  });
});
