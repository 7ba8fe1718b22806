import { describe, expect, it } from 'vitest';
import { MODEL_FIELDS, shapeRow } from '../../src/domain/tiers.js';
import { toWire, wireKey } from '../../src/wire.js';

// A graded row as the view builders make it (camelCase): the market's side and the projection's view.
const market = {
  player: 'Jalen Brunson',
  bookOdds: -110,
  fairProb: 0.5123,
  modelOdds: -105,
  pWin: 0.5123,
  evPct: -2.2,
  value: 0,
  takeable: false,
  evNowPct: -2.2,
  edgeNow: null,
  gradedAt: '2025-11-05T17:05:00.000Z',
};
const row = { ...market, projectionProb: 0.5741, projectionOdds: -135, projectionEvPct: 9.6, projectionRecord: null };

describe('tier shaping on camelCase values', () => {
  it("the withheld fields are, on the wire, the projection's view the API documents", () => {
    expect(MODEL_FIELDS.map(wireKey)).toEqual(['projection_prob', 'projection_odds', 'projection_ev_pct', 'projection_record']);
  });

  it("free: the projection's view removed, the market's side kept whole, stamped locked", () => {
    const shaped = shapeRow(row, 'free');
    expect(shaped).toEqual({ ...market, modelPriceLocked: true });
    expect(toWire(shaped)).toMatchObject({ player: 'Jalen Brunson', book_odds: -110, fair_prob: 0.5123, p_win: 0.5123, ev_pct: -2.2, model_price_locked: true });
  });

  it('analyst and desk: the row whole, stamped unlocked, model_price_locked last on the wire', () => {
    for (const tier of ['analyst', 'desk'] as const) {
      const wire = toWire(shapeRow(row, tier)) as Record<string, unknown>;
      expect(wire).toMatchObject({ p_win: 0.5123, ev_pct: -2.2, projection_prob: 0.5741, projection_odds: -135, projection_ev_pct: 9.6, model_price_locked: false });
      expect(Object.keys(wire).at(-1)).toBe('model_price_locked');
    }
  });
});
