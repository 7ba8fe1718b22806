import type { GameEvent } from '../domain/entities.js';
import type { GradedSport } from '../domain/sports.js';
import { readReplayManifest } from '../feeds/transport/replay.js';

/**
 * Which games a close run fetches (issue 43): those starting in (now, now + within] whose close
 * was not yet taken inside that lead. Pure arithmetic on ISO times, plus the one question a replay
 * must answer from its manifest: when its answer for an event's odds was recorded.
 */

/** Default and bound of `--within`, in minutes: a run every 5-10 minutes keeps each close within 15 of the start. */
export const CLOSE_WITHIN_DEFAULT = 15;
export const CLOSE_WITHIN_MAX = 120;

const MINUTE_MS = 60_000;

/** The window a run at `now` covers: games starting strictly after now and at most `within` minutes later. */
export function closeWindow(now: Date, withinMinutes: number): { from: string; to: string } {
  return { from: now.toISOString(), to: new Date(now.getTime() + withinMinutes * MINUTE_MS).toISOString() };
}

export function inCloseWindow(commenceTime: string, now: Date, withinMinutes: number): boolean {
  const start = Date.parse(commenceTime);
  return Number.isFinite(start) && start > now.getTime() && start <= now.getTime() + withinMinutes * MINUTE_MS;
}

/** A capture at `capturedAt` is a close inside the lead: strictly before the start and at most `within` minutes before it. */
export function closeTakenWithin(capturedAt: string | null, commenceTime: string, withinMinutes: number): boolean {
  if (capturedAt === null) return false;
  const at = Date.parse(capturedAt);
  const start = Date.parse(commenceTime);
  if (!Number.isFinite(at) || !Number.isFinite(start)) return false;
  return at < start && start - at <= withinMinutes * MINUTE_MS;
}

/** The games a snapshot graded, one per event, from its rows (each row names its game and start). */
export function snapshotGames(
  sport: GradedSport,
  rows: ReadonlyArray<{ eventId: string; commenceTime: string; homeTeam: string; awayTeam: string }>,
): GameEvent[] {
  const out = new Map<string, GameEvent>();
  for (const r of rows) {
    // Abbreviations are not stored with a snapshot's rows: absent, never guessed.
    if (!out.has(r.eventId)) out.set(r.eventId, { provider: 'odds-api', id: r.eventId, sport, commenceTime: r.commenceTime, homeTeam: r.homeTeam, awayTeam: r.awayTeam, homeAbbr: null, awayAbbr: null });
  }
  return [...out.values()].sort((a, b) => a.commenceTime.localeCompare(b.commenceTime) || a.id.localeCompare(b.id));
}

/**
 * When a replay folder recorded the Odds API's answer for an event's odds, as the replay transport
 * would serve it at `now` (its newest recording at or before now); null when it holds none. A
 * replayed close is stamped with that time, never with the run's clock: a 17:00 recording read at
 * 23:45 is a close taken at 17:00. One read of the manifest answers for every event and clock, so
 * a run builds it once.
 */
export function recordedOddsClock(replayDir: string): (eventId: string, now: Date) => string | null {
  const times = new Map<string, number[]>();
  for (const e of readReplayManifest(replayDir).entries) {
    // A key is `<provider> <method> <url>` (feeds/transport/replay-key.ts); the event's odds path ends `/events/<id>/odds`.
    const [provider, , url] = e.key.split(' ');
    if (provider !== 'odds-api' || url === undefined || e.recordedAt === undefined || !URL.canParse(url)) continue;
    const eventId = /\/events\/([^/]+)\/odds$/.exec(new URL(url).pathname)?.[1];
    if (eventId === undefined) continue;
    const at = Date.parse(e.recordedAt);
    const list = times.get(eventId);
    if (list) list.push(at);
    else times.set(eventId, [at]);
  }
  return (eventId, now) => {
    let best: number | null = null;
    for (const at of times.get(eventId) ?? []) if (at <= now.getTime() && (best === null || at > best)) best = at;
    return best === null ? null : new Date(best).toISOString();
  };
}
