/**
 * Pinning a manual ticker item (issue 39): the use case `propgrade ticker pin` calls, so the command
 * only parses and renders and the write lives where a route could call it too. The pin is stamped
 * with the data clock the caller reads by, like the MOVEs a snapshot run writes.
 */
import type { Sport } from '../domain/sports.js';
import type { Store } from '../store/db.js';
import { insertTickerEvents } from '../store/repo/ticker.js';

export interface PinRequest {
  text: string;
  sport?: Sport;
  /** Expire after this many hours; without it the pin stays until removed. */
  hours?: number;
}

export interface PinResult {
  pinned: string;
  /** ISO instant, or null for a pin that never expires. */
  expiresAt: string | null;
}

export async function pinTickerItem(store: Store, pin: PinRequest, now: Date): Promise<PinResult> {
  const expiresAt = pin.hours ? new Date(now.getTime() + pin.hours * 3_600_000).toISOString() : null;
  await insertTickerEvents(store, [{ kind: 'PIN', sport: pin.sport ?? null, createdAt: now.toISOString(), text: pin.text, expiresAt }]);
  return { pinned: pin.text, expiresAt };
}
