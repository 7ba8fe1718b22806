import { z } from 'zod';
import { gradedSportSchema } from '../../domain/sports.js';
import { easternDate } from '../../domain/time.js';
import { AppError } from '../../errors.js';
import { latestRows, perPlayer, seasonEras } from '../../reads/schedule.js';
import type { ServerDeps } from '../context.js';
import { defineRoute, type Route } from '../route.js';
import { injuriesSchema, lineupsSchema, pitchersSchema } from '../wire/answers-core.js';

export const scheduleParamsSchema = z.object({ sport: gradedSportSchema });

const hidden = (sport: string, reason: string) => ({ sport, available: false, reason });

/**
 * The schedule views read the latest snapshot's rows, held once per snapshot (reads/snapshot-rows.ts),
 * and sit behind the stats limit like every store-derived read (docs/api.md "Limits").
 */
export function scheduleRoutes(deps: ServerDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/schedule/:sport/lineups',
      tag: 'schedule',
      access: 'public',
      response: lineupsSchema,
      summary: 'Lineup status per player (CONFIRMED with batting slot, NOT_IN, PROJECTED)',
      description: 'From what the latest snapshot stored; no provider call. Nothing stored: available false. Rate-limited.',
      statsLimited: true,
      params: scheduleParamsSchema,
      maxAge: 600,
      handle: async ({ params }) => {
        const latest = await latestRows(deps.store, params.sport);
        if (!latest) return hidden(params.sport, 'no snapshot stored for this sport');
        const players = perPlayer(latest.rows.filter((r) => r.lineupStatus !== null)).map((r) => ({
          player: r.player,
          team: r.team,
          eventId: r.eventId,
          game: `${r.awayTeam} @ ${r.homeTeam}`,
          commenceTime: r.commenceTime,
          lineupStatus: r.lineupStatus,
          battingSlot: r.lineupStatus === 'CONFIRMED' ? r.battingSlot : null,
        }));
        if (players.length === 0) return hidden(params.sport, 'the latest snapshot stored no lineup status');
        return { sport: params.sport, available: true, snapshotId: latest.snapshot.id, takenAt: latest.snapshot.takenAt, players };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/schedule/:sport/injuries',
      tag: 'schedule',
      access: 'public',
      response: injuriesSchema,
      summary: 'Injury chips (OUT, GTD, PROB) per player',
      description: 'From what the latest snapshot stored; an unknown status has no chip. Nothing stored: available false. Rate-limited.',
      statsLimited: true,
      params: scheduleParamsSchema,
      maxAge: 600,
      handle: async ({ params }) => {
        const latest = await latestRows(deps.store, params.sport);
        if (!latest) return hidden(params.sport, 'no snapshot stored for this sport');
        const players = perPlayer(latest.rows.filter((r) => r.injuryStatus !== null)).map((r) => ({
          player: r.player,
          team: r.team,
          eventId: r.eventId,
          game: `${r.awayTeam} @ ${r.homeTeam}`,
          injuryStatus: r.injuryStatus,
        }));
        if (players.length === 0) return hidden(params.sport, 'the latest snapshot stored no injury status');
        return { sport: params.sport, available: true, snapshotId: latest.snapshot.id, takenAt: latest.snapshot.takenAt, players };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/schedule/:sport/pitchers',
      tag: 'schedule',
      access: 'public',
      response: pitchersSchema,
      summary: 'Probable starting pitchers per game (MLB only), with a best-effort ERA',
      description:
        "A pitcher is listed when the latest MLB snapshot priced his strikeouts (books post that market for the probable starter). ERA is 9 x ER / IP over his stored box-score lines, null when they don't carry both. Other sports: 404. Rate-limited.",
      statsLimited: true,
      params: scheduleParamsSchema,
      maxAge: 600,
      errors: [404],
      handle: async ({ params }) => {
        if (params.sport !== 'mlb') throw new AppError('NOT_FOUND', 'probable pitchers exist for mlb only');
        const latest = await latestRows(deps.store, 'mlb');
        if (!latest) return hidden('mlb', 'no snapshot stored for mlb');
        const starters = perPlayer(latest.rows.filter((r) => r.statType === 'strikeouts'));
        if (starters.length === 0) return hidden('mlb', 'the latest snapshot priced no pitcher strikeouts');
        // Only games before the clock's ET date count (issue 41 item 5: no read counts a game after its clock).
        const eras = await seasonEras(deps.store, 'mlb', starters.map((r) => r.playerKey), latest.snapshot.slateDate.slice(0, 4), easternDate(deps.now('mlb')));
        const games = new Map<string, { eventId: string; game: string; commenceTime: string; pitchers: Array<{ player: string; team: string | null; era: number | null }> }>();
        for (const r of starters) {
          const g = games.get(r.eventId) ?? { eventId: r.eventId, game: `${r.awayTeam} @ ${r.homeTeam}`, commenceTime: r.commenceTime, pitchers: [] };
          g.pitchers.push({ player: r.player, team: r.team, era: eras.get(r.playerKey) ?? null });
          games.set(r.eventId, g);
        }
        return { sport: 'mlb', available: true, snapshotId: latest.snapshot.id, takenAt: latest.snapshot.takenAt, games: [...games.values()] };
      },
    }),
  ];
}
