import type Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import type { AccountOps } from '../../engine-ops.js';
import type { StripeEventRow } from '../../repo/billing.js';
import { tokenLookup, type TokenUser } from '../../repo/users.js';
import type { Handle } from '../../shared-db.js';
import type { SqliteStore } from '../../store.js';
import { prepared } from '../_raw.js';

/** A drizzle statement prepared once, run with its placeholders' values. */
interface PreparedLookup<R> {
  get(values: Record<string, unknown>): R | undefined;
}

/**
 * On SQLite the lookup is prepared once per connection: every request with a token resolves it, and
 * building and preparing the query each time cost ~60 us of the ~66 us a resolution took
 * (docs/performance.md). Keyed by the connection, since a transaction's handle is a copy of its
 * store. A closed store's statement throws like the query did.
 */
function prepareTokenLookup(handle: Handle): PreparedLookup<TokenUser> {
  // Under this adapter the shared handle is better-sqlite3's drizzle, whose queries prepare (the shared type hides it).
  const query = tokenLookup(handle, sql.placeholder('tokenHash')) as unknown as { prepare(): PreparedLookup<TokenUser> };
  return query.prepare();
}
const tokenLookups = new WeakMap<Database.Database, PreparedLookup<TokenUser>>();

export class SqliteAccountOps implements AccountOps {
  constructor(
    private readonly store: SqliteStore,
    private readonly handle: Handle,
  ) {}

  async userByTokenHash(tokenHash: string): Promise<TokenUser | null> {
    const s = this.store.conn;
    let lookup = tokenLookups.get(s.sqlite);
    if (lookup === undefined) tokenLookups.set(s.sqlite, (lookup = prepareTokenLookup(this.handle)));
    return lookup.get({ tokenHash }) ?? null;
  }

  async latestStripeEvents(limit: number): Promise<StripeEventRow[]> {
    const s = this.store.conn;
    return prepared(s.sqlite, 'select id, type, created, received_at as receivedAt, outcome from stripe_events order by received_at desc, created desc limit ?').all(limit) as StripeEventRow[];
  }
}
