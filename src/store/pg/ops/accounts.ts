import { desc } from 'drizzle-orm';
import type { AccountOps } from '../../engine-ops.js';
import type { StripeEventRow } from '../../repo/billing.js';
import { tokenLookup, type TokenUser } from '../../repo/users.js';
import type { Handle } from '../../shared-db.js';

export class PgAccountOps implements AccountOps {
  constructor(private readonly handle: Handle) {}

  async userByTokenHash(tokenHash: string): Promise<TokenUser | null> {
    const [row] = await tokenLookup(this.handle, tokenHash).limit(1);
    return row ?? null;
  }

  async latestStripeEvents(limit: number): Promise<StripeEventRow[]> {
    const { db, t } = this.handle;
    const e = t.stripeEvents;
    return db.select({ id: e.id, type: e.type, created: e.created, receivedAt: e.receivedAt, outcome: e.outcome }).from(e).orderBy(desc(e.receivedAt), desc(e.created)).limit(limit);
  }
}
