import { afterEach, describe, expect, it } from 'vitest';
import { kvGet } from '../../src/store/repo/kv.js';
import { addCreditsSpent, creditsSpentToday, logFuturesCredits, readFuturesCredits } from '../../src/store/repo/odds-credits.js';
import { tempStore } from '../helpers/replay-store.js';

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

function store() {
  const t = tempStore();
  cleanup = t.cleanup;
  return t.store;
}

describe('the Odds API daily credit count (odds-api:credits:<ET date>)', () => {
  it('no record is a real zero; each run adds its own spend to the ET day it ran on', async () => {
    const s = store();
    const morning = new Date('2025-11-05T15:00:00Z'); // 10:00 ET, Nov 5
    expect(await creditsSpentToday(s, morning)).toBe(0);
    expect(await addCreditsSpent(s, morning, 12)).toBe(12);
    expect(await addCreditsSpent(s, new Date('2025-11-05T20:00:00Z'), 2)).toBe(14);
    expect(await kvGet(s, 'odds-api:credits:2025-11-05', morning)).toBe(14);
    // 03:00 UTC on Nov 6 is still Nov 5 in New York: the same day's count.
    expect(await creditsSpentToday(s, new Date('2025-11-06T03:00:00Z'))).toBe(14);
    // The next ET day starts from nothing.
    expect(await creditsSpentToday(s, new Date('2025-11-06T15:00:00Z'))).toBe(0);
  });

  it('a run that spent nothing leaves the count as it was', async () => {
    const s = store();
    const now = new Date('2025-11-05T15:00:00Z');
    await addCreditsSpent(s, now, 9);
    expect(await addCreditsSpent(s, now, 0)).toBe(9);
  });
});

describe('the futures credit log (odds-api:futures-credits:<ET date>)', () => {
  it('counts calls and credits, keeps the latest remaining quota the provider sent', async () => {
    const s = store();
    const t0 = new Date('2021-11-14T18:00:00Z');
    await logFuturesCredits(s, t0, { sport: 'nba', key: 'basketball_nba_championship_winner', credits: 1, remaining: 480 });
    await logFuturesCredits(s, new Date('2021-11-14T19:00:00Z'), { sport: 'mlb', key: 'baseball_mlb_world_series_winner', credits: 1, remaining: null });
    const log = await readFuturesCredits(s, '2021-11-14', new Date('2021-11-14T20:00:00Z'));
    expect(log).toMatchObject({ date: '2021-11-14', calls: 2, credits: 2, remaining: 480 });
    expect(log!.entries.map((e) => e.sport)).toEqual(['nba', 'mlb']);
    // The futures log is outside the daily budget: the daily count is untouched.
    expect(await creditsSpentToday(s, t0)).toBe(0);
  });
});
