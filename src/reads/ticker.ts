import { buildTicker, type Ticker, type TickerItem } from '../domain/ticker.js';
import type { Store } from '../store/db.js';
import { activeTickerEvents } from '../store/repo/ticker.js';

/** The ticker as readers see it: stored MOVEs and pins plus TICKER_MANUAL pins; store only. */
export async function readTicker(store: Store, now: Date, envPins: readonly string[]): Promise<Ticker> {
  const stored = await activeTickerEvents(store, now);
  const moves: TickerItem[] = stored.filter((e) => e.kind === 'MOVE').map((e) => ({ kind: 'MOVE', text: e.text, sport: e.sport, at: e.createdAt, source: 'snapshot' }));
  const pins: TickerItem[] = [
    ...envPins.map((text): TickerItem => ({ kind: 'PIN', text, sport: null, at: null, source: 'env' })),
    ...stored.filter((e) => e.kind === 'PIN').map((e): TickerItem => ({ kind: 'PIN', text: e.text, sport: e.sport, at: e.createdAt, source: 'manual' })),
  ];
  return buildTicker(moves, pins);
}
