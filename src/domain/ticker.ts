/** Fewer real items than this and the ticker hides entirely. */
export const TICKER_MIN_ITEMS = 4;

export interface TickerItem {
  kind: 'MOVE' | 'PIN';
  text: string;
  sport: string | null;
  at: string | null;
  source: 'snapshot' | 'manual' | 'env';
}

export interface Ticker {
  visible: boolean;
  count: number;
  items: TickerItem[];
}

/** Pins first (an operator chose them), then line moves newest first. */
export function buildTicker(moves: readonly TickerItem[], pins: readonly TickerItem[]): Ticker {
  const items = [...pins, ...[...moves].sort((a, b) => (b.at ?? '').localeCompare(a.at ?? ''))];
  const visible = items.length >= TICKER_MIN_ITEMS;
  return { visible, count: items.length, items: visible ? items : [] };
}
