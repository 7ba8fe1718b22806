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
});
