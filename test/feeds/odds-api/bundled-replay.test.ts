import { describe, expect, it } from 'vitest';
import { marketsForSport } from '../../../src/domain/stats.js';
import { createBudget } from '../../../src/feeds/odds-api/credits.js';
import { fetchEventPropQuotes, fetchEvents } from '../../../src/feeds/odds-api/fetch.js';
import { createCollectingLogger } from '../../../src/feeds/transport/log.js';
import { createReplayTransport, readReplayManifest } from '../../../src/feeds/transport/replay.js';

/** The bundled demo folder (data/README.md documents its snapshots); read-only here. */
const DIR = new URL('../../../data/replay/', import.meta.url).pathname;

async function slate(nowIso: string) {
  const log = createCollectingLogger();
  const transport = createReplayTransport(DIR, { now: () => new Date(nowIso) });
  const budget = createBudget(null);
  const { events } = await fetchEvents(transport, 'basketball_nba', { log });
  const quotes = [];
  for (const e of events) {
    const r = await fetchEventPropQuotes(transport, 'basketball_nba', e.id, marketsForSport('nba'), { log, books: { regions: ['us'] }, budget });
    quotes.push(...r.quotes);
  }
  return { events, quotes, budget: budget.state(), warnings: log.warnings };
}

describe('data/replay through this adapter (URLs built here match the recorded keys)', () => {
  it('defaultNow is 2025-11-05T17:05Z: 11 events, 13,012 quotes, 7 credits per event, no warnings', async () => {
    expect(readReplayManifest(DIR).defaultNow).toBe('2025-11-05T17:05:00Z');
    const late = await slate('2025-11-05T17:05:00Z');
    expect(late.events).toHaveLength(11);
    expect(late.quotes).toHaveLength(13_012);
    expect(late.budget.spent).toBe(77);
    expect(late.warnings).toEqual([]);
  });

  it('the clock picks the snapshot: Jalen Brunson threes 2.5 at DraftKings +110/-143 at 15:00, -101/-128 at 17:00', async () => {
    const brunson = (quotes: Awaited<ReturnType<typeof slate>>['quotes']) =>
      quotes
        .filter((q) => q.player === 'Jalen Brunson' && q.book === 'draftkings' && q.stat === 'threes' && q.line === 2.5)
        .map((q) => [q.side, q.price]);
    const early = await slate('2025-11-05T15:05:00Z');
    expect(early.quotes.every((q) => q.stat === 'threes')).toBe(true);
    expect(early.quotes).toHaveLength(1_460);
    expect(brunson(early.quotes)).toEqual([
      ['over', 110],
      ['under', -143],
    ]);
    expect(brunson((await slate('2025-11-05T17:05:00Z')).quotes)).toEqual([
      ['over', -101],
      ['under', -128],
    ]);
  });
});
