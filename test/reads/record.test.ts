/**
 * readModelRecord / readAccuracy aggregate inside SQLite (a tally fed by an aggregate function, no
 * row objects). They must return exactly what the domain functions return over the same rows read
 * whole: every count, every float sum to the bit, for every scope, odd stored values included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accuracyByTier, modelAggregate, tierCalibration, type RecordRow } from '../../src/domain/records.js';
import { seededRandom } from '../../src/domain/model/resample.js';
import { readAccuracy, readModelRecord } from '../../src/reads/record.js';
import { tempStore } from '../helpers/replay-store.js';

const NOW = new Date('2025-12-15T17:00:00Z');

describe('record reads aggregate in the store exactly as the domain does on the rows', () => {
  let t: ReturnType<typeof tempStore>;
  let rows: RecordRow[];
  beforeAll(() => {
    t = tempStore();
    const { sqlite } = t.store;
    const rand = seededRandom(7);
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
    sqlite.prepare(`insert into users (email, tier, created_at) values ('a@example.invalid', 'free', '2025-01-01T00:00:00Z')`).run();
    const add = sqlite.prepare(
      `insert into ledger_entries (user_id, source, sport, event_id, commence_time, game_date, player, player_key, team, stat_type, line, side, grade, p_win, locked_price, locked_at, outcome, clv_verdict)
       values (?, 'pipeline', ?, ?, '2025-12-01T00:00:00Z', ?, ?, ?, ?, 'points', 10.5, 'over', ?, ?, ?, '2025-12-01T00:00:00Z', ?, ?)`,
    );
    sqlite.transaction(() => {
      for (let i = 0; i < 3000; i++) {
        const day = 1 + Math.floor(rand() * 60);
        const date = new Date(Date.UTC(2025, 9, 20) + day * 86_400_000).toISOString().slice(0, 10);
        const p = Math.floor(rand() * 40);
        add.run(
          rand() < 0.1 ? 1 : null,
          pick(['nba', 'mlb']),
          `e${i}`,
          date,
          `Player ${p}`,
          `player ${p}`,
          pick(['CLE', 'cle', 'NY', null]),
          // Odd stored values on purpose: a grade outside the tiers, an outcome and a verdict the enum does not know.
          pick(['A+', 'A', 'B', 'C', 'F', null, 'Z']),
          pick([null, 0.55, 0.4123456789, Number.NaN, 0.61]),
          pick([null, -110, 150, 135.5, 50, -250]),
          pick(['hit', 'miss', 'push', 'void', 'pending', 'weird']),
          pick([null, 'beat', 'faded', 'flat', 'odd']),
        );
      }
    })();
    rows = sqlite
      .prepare(
        `select user_id as userId, sport, event_id as eventId, game_date as gameDate, team, player, player_key as playerKey, grade, outcome, p_win as pWin, clv_verdict as clvVerdict, locked_price as lockedPrice from ledger_entries where user_id is null order by game_date, id`,
      )
      .all() as RecordRow[];
  });
  afterAll(() => t.cleanup());

  const scopes = [
    { now: NOW },
    { now: NOW, days: 7 },
    { now: NOW, days: 90 },
    { now: NOW, date: '2025-11-20' },
    { now: NOW, team: 'cle' },
    { now: NOW, team: ' CLE ' },
    { now: NOW, player: 'Player 3' },
    { now: NOW, sport: 'mlb' },
    { now: NOW, days: 60, team: 'NY', sport: 'nba' },
  ];
  for (const scope of scopes) {
    it(`readModelRecord ${JSON.stringify(scope)}`, async () => {
      const read = await readModelRecord(t.store, scope);
      // JSON keeps NaN out of the comparison's way only if both agree on where it is: compare both ways.
      expect(JSON.stringify(read.aggregate)).toBe(JSON.stringify(modelAggregate(rows, scope)));
      expect(read.aggregate).toEqual(modelAggregate(rows, scope));
      expect(read.tiers).toEqual(tierCalibration(rows, scope));
    });
  }

  for (const sport of [undefined, 'nba']) {
    it(`readAccuracy sport ${sport ?? 'all'}`, async () => {
      const { settledElsewhere, windows, beatClose, tiers, ...accuracy } = await readAccuracy(t.store, NOW, 30, sport);
      const scope = { now: NOW, days: 30, ...(sport ? { sport } : {}) };
      const beatFields = ({ beatClose, beatCloseByLead, beatClosePinnacle, beatClosePinnacleByLead }: Record<string, unknown>) => ({ beatClose, beatCloseByLead, beatClosePinnacle, beatClosePinnacleByLead });
      const { tiers: expectedTiers, ...expected } = accuracyByTier(rows, scope);
      expect(accuracy).toEqual(expected);
      // Each tier is accuracyByTier's, plus beat close by lead band and yardstick as the record's tiers count it (issue 43).
      const calibration = tierCalibration(rows, scope);
      expect(tiers).toEqual(expectedTiers.map((tier, i) => ({ ...tier, ...beatFields(calibration[i] as unknown as Record<string, unknown>) })));
      expect(beatClose).toEqual(beatFields(modelAggregate(rows, scope) as unknown as Record<string, unknown>));
      // The answer names each sport's window: one clock here, so the same 30 days for each.
      expect(windows).toEqual((sport ? [sport] : ['mlb', 'nba', 'wnba', 'soccer']).map((s) => ({ sport: s, from: '2025-11-16', to: '2025-12-15' })));
      expect(settledElsewhere).toBeNull();
    });
  }
});
