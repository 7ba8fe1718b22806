import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { gradedSportSchema } from '../../domain/sports.js';
import { AppError } from '../../errors.js';
import type { Store } from '../../store/db.js';
import { latestSnapshot, snapshotRows, type GradedRowRecord } from '../../store/repo/snapshots.js';
import { playerGameStats } from '../../store/schema.js';
import type { ServerDeps } from '../context.js';
import { defineRoute, type Route } from '../route.js';
import { injuriesSchema, lineupsSchema, pitchersSchema } from '../wire/answers-core.js';

export const scheduleParamsSchema = z.object({ sport: gradedSportSchema });

/** One row per (game, player): the snapshot stores one per stat/line/side. */
function perPlayer(rows: readonly GradedRowRecord[]): GradedRowRecord[] {
  const seen = new Map<string, GradedRowRecord>();
  for (const r of rows) {
    const k = `${r.eventId}|${r.playerKey}`;
    if (!seen.has(k)) seen.set(k, r);
  }
  return [...seen.values()].sort((a, b) => a.commenceTime.localeCompare(b.commenceTime) || (a.team ?? '').localeCompare(b.team ?? '') || a.player.localeCompare(b.player));
}

function latestRows(store: Store, sport: string) {
  const snapshot = latestSnapshot(store.db, sport);
  return snapshot ? { snapshot, rows: snapshotRows(store.db, snapshot.id) } : null;
}

const hidden = (sport: string, reason: string) => ({ sport, available: false, reason });

/** Best-effort season ERA from stored box-score lines: 9 x ER / IP, only when both are real. */
export function eraFrom(lines: ReadonlyArray<{ extras: Record<string, number | null> }>): number | null {
  let er = 0;
  let ip = 0;
  for (const l of lines) {
    const e = l.extras['earned_runs'];
    const i = l.extras['innings_pitched'];
    if (typeof e !== 'number' || typeof i !== 'number') continue;
    er += e;
    ip += i;
  }
  return ip > 0 ? Math.round(((9 * er) / ip) * 100) / 100 : null;
}

export function scheduleRoutes(deps: ServerDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/schedule/:sport/lineups',
      tag: 'schedule',
      access: 'public',
      response: lineupsSchema,
      summary: 'Lineup status per player (CONFIRMED with batting slot, NOT_IN, PROJECTED)',
      description: 'From what the latest snapshot stored; no provider call. Nothing stored: available false.',
      params: scheduleParamsSchema,
      maxAge: 600,
      handle: ({ params }) => {
        const latest = latestRows(deps.store, params.sport);
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
      description: 'From what the latest snapshot stored; an unknown status has no chip. Nothing stored: available false.',
      params: scheduleParamsSchema,
      maxAge: 600,
      handle: ({ params }) => {
        const latest = latestRows(deps.store, params.sport);
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
        "A pitcher is listed when the latest MLB snapshot priced his strikeouts (books post that market for the probable starter). ERA is 9 x ER / IP over his stored box-score lines, null when they don't carry both. Other sports: 404.",
      params: scheduleParamsSchema,
      maxAge: 600,
      errors: [404],
      handle: ({ params }) => {
        if (params.sport !== 'mlb') throw new AppError('NOT_FOUND', 'probable pitchers exist for mlb only');
        const latest = latestRows(deps.store, 'mlb');
        if (!latest) return hidden('mlb', 'no snapshot stored for mlb');
        const starters = perPlayer(latest.rows.filter((r) => r.statType === 'strikeouts'));
        if (starters.length === 0) return hidden('mlb', 'the latest snapshot priced no pitcher strikeouts');
        const keys = [...new Set(starters.map((r) => r.playerKey))];
        const lines = deps.store.db
          .select({ playerKey: playerGameStats.playerKey, extras: playerGameStats.extras, date: playerGameStats.date })
          .from(playerGameStats)
          .where(and(eq(playerGameStats.sport, 'mlb'), inArray(playerGameStats.playerKey, keys)))
          // By player key and date, one date's games in id order: the ERA sums them in this order.
          .orderBy(playerGameStats.playerKey, playerGameStats.date, playerGameStats.id)
          .all();
        const season = latest.snapshot.slateDate.slice(0, 4);
        const games = new Map<string, { eventId: string; game: string; commenceTime: string; pitchers: Array<{ player: string; team: string | null; era: number | null }> }>();
        for (const r of starters) {
          const g = games.get(r.eventId) ?? { eventId: r.eventId, game: `${r.awayTeam} @ ${r.homeTeam}`, commenceTime: r.commenceTime, pitchers: [] };
          const own = lines.filter((l) => l.playerKey === r.playerKey && l.date.startsWith(season));
          g.pitchers.push({ player: r.player, team: r.team, era: eraFrom(own) });
          games.set(r.eventId, g);
        }
        return { sport: 'mlb', available: true, snapshotId: latest.snapshot.id, takenAt: latest.snapshot.takenAt, games: [...games.values()] };
      },
    }),
  ];
}
