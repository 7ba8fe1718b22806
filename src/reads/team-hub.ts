import { classifyPlayer } from '../domain/archetypes/index.js';
import { GRADED_SPORTS, type GradedSport } from '../domain/sports.js';
import { seasonStart } from '../domain/season.js';
import { easternDate } from '../domain/time.js';
import { MLB_TEAMS, NBA_TEAMS, WNBA_TEAMS, teamAbbr } from '../feeds/teams/index.js';
import type { Store } from '../store/db.js';
import { hasTeamLines, historyForPlayers, sportLinesSince, type GameStatRow } from '../store/repo/game-stats.js';
import { teamRows } from '../store/repo/graded-rows.js';
import { kvGetAsOf, kvSet } from '../store/repo/kv.js';
import { latestSnapshot } from '../store/repo/snapshots.js';
import { gradedRowView, type GradedRowView } from './views.js';

/**
 * The team hub (GET /api/team/:abbr) from the store only: roster, per-player season averages,
 * archetype, tonight's graded props (unshaped: the route shapes them per caller).
 */

/** Spec Limits: team hub cached 15 minutes. */
export const TEAM_HUB_TTL_SECONDS = 15 * 60;

export interface TeamRef {
  sport: GradedSport;
  abbr: string;
  name: string;
  /** Every code the store may hold for this team (ESPN, NBA.com or Savant). */
  codes: string[];
}

function teamRef(sport: GradedSport, input: string): TeamRef | null {
  const abbr = teamAbbr(sport, input);
  if (!abbr) return null;
  if (sport === 'mlb') {
    const t = MLB_TEAMS.find((x) => x.espn === abbr);
    return t ? { sport, abbr, name: t.name, codes: [...new Set([t.espn, t.savant])] } : null;
  }
  const t = (sport === 'nba' ? NBA_TEAMS : WNBA_TEAMS).find((x) => x.espn === abbr);
  return t ? { sport, abbr, name: t.name, codes: [...new Set([t.espn, t.nbaCom])] } : null;
}

function hasStoredPlayers(store: Store, ref: TeamRef): Promise<boolean> {
  return hasTeamLines(store, ref.sport, ref.codes);
}

/** Which team an abbreviation means: the asked sport, else the tabled sport that has stored players. */
export async function resolveTeam(store: Store, input: string, sport: GradedSport | undefined): Promise<TeamRef | null> {
  const refs = (sport ? [sport] : GRADED_SPORTS).map((s) => teamRef(s, input)).filter((r) => r !== null);
  for (const r of refs) if (await hasStoredPlayers(store, r)) return r;
  return refs[0] ?? null;
}

interface RosterPlayer {
  player: string;
  key: string;
  seasonGames: number;
  minutesAvg: number | null;
  averages: Record<string, number | null>;
  archetype: { primary: string; secondary: string | null; blend: Array<{ id: string; weight: number }> } | null;
}

export interface TeamHub {
  sport: GradedSport;
  team: { abbr: string; name: string };
  seasonFrom: string;
  asOf: string;
  roster: RosterPlayer[];
  /** Unshaped here; shaped per caller at response time. */
  props: GradedRowView[];
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * The team hub from the store only: roster = players whose latest stored game this season was
 * for the team, plus players the latest snapshot graded for it; season averages from their
 * stored box-score lines (a stat with no real value has a null average, never 0); archetype from
 * their history; tonight's graded props from the latest snapshot taken by `now` when it is today's.
 */
export async function buildTeamHub(store: Store, ref: TeamRef, now: Date): Promise<TeamHub> {
  const today = easternDate(now);
  const from = seasonStart(ref.sport, today);
  // Newest first; one date's lines by player key, then id (the order this sort always gave them).
  // Only games before the hub's ET date: tonight's game, once settled into the store, has not been
  // played as of a clock earlier that day (issue 41 item 5), and every other view stops there too.
  const lines = (await sportLinesSince(store, ref.sport, from)).filter((l) => l.date < today);
  const byPlayer = new Map<string, GameStatRow[]>();
  for (const l of lines) {
    const list = byPlayer.get(l.playerKey) ?? [];
    list.push(l);
    byPlayer.set(l.playerKey, list);
  }
  // Tonight's props from the newest snapshot taken by the clock, never a later one (issue 41 item 5).
  const snapshot = await latestSnapshot(store, ref.sport, now);
  const tonight =
    snapshot && snapshot.slateDate === today
      ? (await teamRows(store, snapshot.id, ref.codes)).filter((r) => r.grade !== null)
      : [];
  const names = new Map<string, string>();
  for (const [key, list] of byPlayer) if (list[0] && list[0].team !== null && ref.codes.includes(list[0].team)) names.set(key, list[0].playerName);
  for (const r of tonight) if (!names.has(r.playerKey)) names.set(r.playerKey, r.player);

  // Every player's history in one read (on PostgreSQL one round trip, not one per player).
  const history = await historyForPlayers(store, ref.sport, [...names.keys()], today);
  const roster: RosterPlayer[] = [...names.entries()].map(([key, player]): RosterPlayer => {
    const own = byPlayer.get(key) ?? [];
    const sums = new Map<string, { total: number; n: number }>();
    let minutes = 0;
    let minutesN = 0;
    for (const l of own) {
      if (l.minutes !== null) {
        minutes += l.minutes;
        minutesN += 1;
      }
      for (const [stat, v] of Object.entries(l.stats)) {
        const s = sums.get(stat) ?? { total: 0, n: 0 };
        if (typeof v === 'number' && Number.isFinite(v)) {
          s.total += v;
          s.n += 1;
        }
        sums.set(stat, s);
      }
    }
    const averages: Record<string, number | null> = {};
    for (const [stat, s] of sums) averages[stat] = s.n === 0 ? null : round2(s.total / s.n);
    const c = classifyPlayer(ref.sport, history.get(key) ?? []);
    return {
      player,
      key,
      seasonGames: own.length,
      minutesAvg: minutesN === 0 ? null : round2(minutes / minutesN),
      averages,
      archetype: c ? { primary: c.primary, secondary: c.secondary, blend: c.blend.map((b) => ({ id: b.id, weight: b.weight })) } : null,
    };
  });
  roster.sort((a, b) => (b.minutesAvg ?? -1) - (a.minutesAvg ?? -1) || a.player.localeCompare(b.player));
  return {
    sport: ref.sport,
    team: { abbr: ref.abbr, name: ref.name },
    seasonFrom: from,
    asOf: now.toISOString(),
    roster,
    props: tonight.map(gradedRowView),
  };
}

/**
 * The hub of a team as of `now`, cached (kv_cache) for TEAM_HUB_TTL_SECONDS, keyed by the snapshot
 * it was built from and read as of the clock: a hub cached under one clock or snapshot is never
 * served under another. v2: the hub's rows are camelCase since issue 28; a v1 hub (snake_case
 * rows) would escape tier shaping. v3: a hub counts no game of its own ET date (a v2 hub could).
 */
export async function readTeamHub(store: Store, ref: TeamRef, now: Date): Promise<TeamHub> {
  const key = `team-hub:v3:${ref.sport}:${ref.abbr}:${(await latestSnapshot(store, ref.sport, now))?.id ?? 'none'}`;
  let hub = await kvGetAsOf<TeamHub>(store, key, now);
  if (!hub) {
    hub = await buildTeamHub(store, ref, now);
    await kvSet(store, key, hub, now, TEAM_HUB_TTL_SECONDS);
  }
  return hub;
}
