import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyPlayer } from '../../src/domain/archetypes/index.js';
import { easternDate } from '../../src/domain/time.js';
import { buildTeamHub, resolveTeam } from '../../src/reads/team-hub.js';
import { historyBefore } from '../../src/store/repo/game-stats.js';
import { loopPair, same, SETUP_TIMEOUT, type LoopPair } from '../store/contract/_pair.js';

/**
 * The team hub (GET /api/team/{code}) on both engines over the README loop's rows (issue 39): its
 * roster's histories are read in one batched read, and every player's archetype must still be
 * what classifying that player's own history (historyBefore, one read per player: how the hub
 * read it before) gives, with the whole hub alike on SQLite and PostgreSQL.
 */

let P: LoopPair;

beforeAll(async () => {
  P = await loopPair();
}, SETUP_TIMEOUT);

afterAll(async () => P?.cleanup(), SETUP_TIMEOUT);

describe('team hub', () => {
  it('archetypes from each player’s own history, the same hub on both engines', async () => {
    let players = 0;
    for (const code of ['IND', 'NYK', 'BOS', 'LAL']) {
      for (const iso of ['2025-11-05T17:05:00Z', '2025-11-06T12:00:00Z']) {
        const now = new Date(iso);
        const hub = await same(P, async (s) => {
          const ref = await resolveTeam(s, code, 'nba');
          if (!ref) throw new Error(`no team ${code}`);
          return buildTeamHub(s, ref, now);
        });
        expect(hub.roster.length).toBeGreaterThan(0);
        for (const p of hub.roster) {
          const c = classifyPlayer('nba', await historyBefore(P.pg, 'nba', p.key, easternDate(now)));
          expect(p.archetype).toEqual(c ? { primary: c.primary, secondary: c.secondary, blend: c.blend.map((b) => ({ id: b.id, weight: b.weight })) } : null);
          players += 1;
        }
      }
    }
    expect(players).toBeGreaterThan(50);
  });

  it('counts no game after its own clock: at 17:05 on 2025-11-05 Brunson has the 7 games before that day, not the one played that night', async () => {
    const now = new Date('2025-11-05T17:05:00Z');
    const hub = await same(P, async (s) => buildTeamHub(s, (await resolveTeam(s, 'NY', 'nba'))!, now));
    const brunson = hub.roster.find((p) => p.player === 'Jalen Brunson')!;
    // The store does hold his 2025-11-05 game (settled the next morning): it must not count.
    const raw = (onOrBefore: string) =>
      P.raw
        .prepare("select count(*) as n, avg(json_extract(stats, '$.points')) as pts from player_game_stats where sport = 'nba' and player_key = ? and date >= ? and date < ?")
        .get(brunson.key, hub.seasonFrom, onOrBefore) as { n: number; pts: number };
    expect(raw('2025-11-06').n).toBe(raw('2025-11-05').n + 1);
    expect(brunson.seasonGames).toBe(raw('2025-11-05').n);
    expect(brunson.seasonGames).toBe(7);
    expect(brunson.averages['points']).toBe(Math.round(raw('2025-11-05').pts * 100) / 100);
    expect(brunson.averages['points']).toBe(29);
  });
});
