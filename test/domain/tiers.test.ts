import { describe, expect, it } from 'vitest';
import { MODEL_FIELDS, shapeRow } from '../../src/domain/tiers.js';
import { toWire, wireKey } from '../../src/wire.js';

// A graded row as the view builders make it (camelCase), with every model field set.
const row = {
  player: 'Jalen Brunson',
  bookOdds: -110,
  fairProb: 0.5123,
  modelOdds: -135,
  pWin: 0.5741,
  evPct: 9.6,
  value: 0.062,
  takeable: true,
  evNowPct: 4.2,
  edgeNow: 'reduced',
  gradedAt: '2025-11-05T17:05:00.000Z',
};

describe('tier shaping on camelCase values', () => {
  it('the model fields are, on the wire, the names the API documents as withheld', () => {
    expect(MODEL_FIELDS.map(wireKey)).toEqual(['model_odds', 'p_win', 'ev_pct', 'value', 'takeable', 'ev_now_pct', 'edge_now']);
  });

  it('free: every model field removed, book and fair prices kept, stamped locked', () => {
    const shaped = shapeRow(row, 'free');
    expect(shaped).toEqual({ player: 'Jalen Brunson', bookOdds: -110, fairProb: 0.5123, gradedAt: '2025-11-05T17:05:00.000Z', modelPriceLocked: true });
    expect(toWire(shaped)).toEqual({ player: 'Jalen Brunson', book_odds: -110, fair_prob: 0.5123, gradedAt: '2025-11-05T17:05:00.000Z', model_price_locked: true });
  });

  it('analyst and desk: the row whole, stamped unlocked, model_price_locked last on the wire', () => {
    for (const tier of ['analyst', 'desk'] as const) {
      const wire = toWire(shapeRow(row, tier)) as Record<string, unknown>;
      expect(wire).toMatchObject({ model_odds: -135, p_win: 0.5741, ev_pct: 9.6, ev_now_pct: 4.2, edge_now: 'reduced', model_price_locked: false });
      expect(Object.keys(wire).at(-1)).toBe('model_price_locked');
    }
  });
});
