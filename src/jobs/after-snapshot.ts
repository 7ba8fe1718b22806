import type { Env } from '../config.js';
import type { Store } from '../store/db.js';
import type { RunLogger } from '../feeds/sources.js';

/**
 * What a snapshot invocation does once its sports have run (CLI and server alike): end expired
 * billing graces, and announce the day's desk pack once per ET date. Neither can fail the run:
 * each reports what it did, or why not, for the run summary.
 */
export interface AfterSnapshot {
  billing: { downgraded: number; subscriptions: number } | { error: string };
  deskNotice: { status: string; detail: string };
}

/**
 * `now` is the run's data clock (which day's pack); `opts.wallNow` the wall clock, which alone
 * decides when a grace has expired: a run replayed as of a recorded day must not hold graces open
 * (nor end them early). `billing sweep --now` is the operator's explicit override, not this.
 */
export async function afterSnapshotRuns(store: Store, config: Env, now: Date, log: RunLogger, opts: { replay: boolean; wallNow: Date }): Promise<AfterSnapshot> {
  const { sweepExpiredGraces } = await import('../accounts/billing.js');
  let billing: AfterSnapshot['billing'];
  try {
    billing = await sweepExpiredGraces(store, opts.wallNow);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.warn(`billing sweep failed: ${message}`);
    billing = { error: message };
  }
  // A recorded day is never announced as today's pack.
  if (opts.replay) return { billing, deskNotice: { status: 'skipped', detail: 'a replayed run is not announced' } };
  const { notifyDeskPackReady } = await import('./publish/notify.js');
  const notice = await notifyDeskPackReady(store, config, now, log);
  return { billing, deskNotice: notice };
}

export function afterSnapshotLine(a: AfterSnapshot): string {
  const billing = 'error' in a.billing ? `billing sweep failed (${a.billing.error})` : `billing: ${a.billing.downgraded} expired grace(s) ended`;
  return `${billing}; desk notice: ${a.deskNotice.status} (${a.deskNotice.detail})`;
}
