/**
 * One date's pending entries decided against that date's results (docs/ledger.md, "Settlement" and
 * "Closing-line value"). Pure: the settle run read the entries and fetched the games; this finds
 * each entry's result, decides it with settleEntry and its CLV with computeClv, and counts.
 */
import { computeClv, type ClvVerdict } from './clv.js';
import type { GameStatus, PlayerGameStat } from './entities.js';
import type { LedgerEntry, SettledOutcome } from './ledger.js';
import { settleEntry, type GameResult } from './settlement.js';

/** The fields of a pending entry that settlement and CLV read. */
export type PendingEntry = Pick<
  LedgerEntry,
  'id' | 'team' | 'playerKey' | 'statType' | 'line' | 'side' | 'lockedPrice' | 'lockedFairProb' | 'closingLine' | 'closingFairProb' | 'closingCapturedAt' | 'commenceTime'
> &
  Partial<Pick<LedgerEntry, 'eventId'>>;

/**
 * An event's two teams as the odds provider named them (the snapshot's graded rows keep them), and
 * their codes where the team table knows them (not for soccer clubs).
 */
export interface EventTeams {
  homeTeam: string;
  awayTeam: string;
  homeAbbr?: string | null;
  awayAbbr?: string | null;
}

/** What settling writes to an entry (besides the settle time). */
export interface SettledEntry {
  id: number;
  outcome: SettledOutcome;
  actualValue: number | null;
  clv: number | null;
  clvLine: number | null;
  clvVerdict: ClvVerdict | null;
  clvPct: number | null;
}

/** One game of a results provider, as settlement reads it. */
export interface GameBox {
  status: GameStatus;
  homeAbbr: string | null;
  awayAbbr: string | null;
  /** The teams' full names, when the results provider gives them: how an entry's event is found. */
  homeTeam?: string | null;
  awayTeam?: string | null;
  /** Null when the box score could not be read. */
  players: readonly PlayerGameStat[] | null;
}

export type OutcomeCounts = Record<SettledOutcome, number>;
export type ClvCounts = { beat: number; faded: number; flat: number; noClose: number };

export interface DateSettlement {
  settled: SettledEntry[];
  counts: OutcomeCounts;
  clv: ClvCounts;
  /** Entries that stay pending, by reason, in the order the reasons first came up. */
  pendingReasons: Record<string, number>;
  stillPending: number;
}

/**
 * Decides every entry of a date against the date's games: a settlement, or the reason it stays
 * pending. `eventTeams` (event id -> its two teams) lets an entry whose booked team is not in its
 * event's game be found in that game (see resultLookup); without it the booked team decides.
 */
export function settleEntries(entries: readonly PendingEntry[], games: readonly GameBox[], eventTeams: ReadonlyMap<string, EventTeams> = new Map()): DateSettlement {
  const lookup = resultLookup(games);
  const out: DateSettlement = {
    settled: [],
    counts: { hit: 0, miss: 0, push: 0, void: 0 },
    clv: { beat: 0, faded: 0, flat: 0, noClose: 0 },
    pendingReasons: {},
    stillPending: 0,
  };
  for (const e of entries) {
    const event = e.eventId === undefined ? null : (eventTeams.get(e.eventId) ?? null);
    const result = lookup(e.team, e.playerKey, e.statType, event);
    const s = result === null ? null : settleEntry(e, result);
    if (s === null || s.outcome === 'pending') {
      // No game found for an entry with no team of its own whose event's teams were asked for and are not known.
      const reason = s !== null ? s.reason : e.team === null && e.eventId !== undefined && event === null ? 'event_teams_unknown' : 'game_not_found';
      out.pendingReasons[reason] = (out.pendingReasons[reason] ?? 0) + 1;
      out.stillPending += 1;
      continue;
    }
    const clv = computeClv(e);
    out.settled.push({ id: e.id, outcome: s.outcome, actualValue: 'actualValue' in s ? s.actualValue : null, clv: clv.clv, clvLine: clv.clvLine, clvVerdict: clv.verdict, clvPct: clv.clvPct });
    out.counts[s.outcome] += 1;
    out.clv[clv.verdict ?? 'noClose'] += 1;
  }
  return out;
}

/**
 * The event ids whose teams settling these entries needs: an entry its booked team does not find
 * (no team, no game of his team that date, or his team's final box scores without him, which may
 * be a team he has left) is looked for in its event's game. An entry found by its team needs none.
 */
export function entriesNeedingEvent(entries: readonly PendingEntry[], games: readonly GameBox[]): string[] {
  const lookup = resultLookup(games);
  const ids = new Set<string>();
  for (const e of entries) {
    if (e.eventId === undefined) continue;
    const r = lookup(e.team, e.playerKey, e.statType);
    if (r === null || (r.status === 'final' && r.boxScore === null)) ids.add(e.eventId);
  }
  return [...ids];
}

/**
 * An entry's result: the player's line is looked for in every game his team played that date, in
 * the order the results list them (a doubleheader's second game holds the pitcher listed for it);
 * the first game holding his key is his. Not found: a game of the team that is not final keeps the
 * entry pending with its status; otherwise he is not in a final box score. No team match means no
 * result (pending), never a guess. Games are found by team and players by key in maps built once.
 *
 * A prop is priced within one event, so the player's team is one of its two. When the entry's event
 * is known (its two team names equal a game's, in either order) and the booked team is not one of
 * that game's (unknown, or a history team he has left: a transfer, a trade), the player is looked
 * for in that event's game(s) alone: found, his line decides; final and absent, he did not play
 * (void); not final, pending. An event matching no game leaves the booked team to decide.
 */
export function resultLookup(games: readonly GameBox[]): (team: string | null, playerKey: string, statType: string, event?: EventTeams | null) => GameResult | null {
  const gamesOf = new Map<string, GameBox[]>();
  const gamesOfEvent = new Map<string, GameBox[]>();
  for (const g of games) {
    if (g.homeTeam && g.awayTeam) {
      const k = eventKey(g.homeTeam, g.awayTeam);
      const list = gamesOfEvent.get(k);
      if (!list) gamesOfEvent.set(k, [g]);
      else list.push(g);
    }
    for (const abbr of [g.homeAbbr, g.awayAbbr]) {
      if (abbr === null) continue;
      const list = gamesOf.get(abbr);
      if (!list) gamesOf.set(abbr, [g]);
      else if (!list.includes(g)) list.push(g);
    }
  }
  const players = new Map<GameBox, Map<string, PlayerGameStat>>();
  const lineOf = (game: GameBox, playerKey: string): PlayerGameStat | undefined => {
    let byKey = players.get(game);
    if (!byKey) {
      byKey = new Map();
      for (const p of game.players ?? []) if (!byKey.has(p.playerKey)) byKey.set(p.playerKey, p);
      players.set(game, byKey);
    }
    return byKey.get(playerKey);
  };
  const decide = (list: readonly GameBox[], playerKey: string, statType: string): GameResult | null => {
    let open: GameBox | null = null;
    let unread = false;
    for (const game of list) {
      if (game.status !== 'final') {
        open ??= game;
        continue;
      }
      if (game.players === null) {
        unread = true;
        continue;
      }
      const line = lineOf(game, playerKey);
      if (!line) continue;
      const stat = line.stats[statType as keyof typeof line.stats];
      if (statType !== 'strikeouts' && statType !== 'pitcher_outs') return { status: 'final', boxScore: { stat: stat ?? null, minutes: line.minutes } };
      // A pitcher prop needs the starter flag the MLB box score carries (pitchers[0]); unknown stays unknown.
      const flag = line.extras['is_starter'];
      return { status: 'final', boxScore: { stat: stat ?? null, minutes: line.minutes, started: flag === 1 ? true : flag === 0 ? false : null } };
    }
    if (open) return { status: open.status, boxScore: null };
    // A final game whose box score could not be read decides nothing.
    if (unread) return null;
    return { status: 'final', boxScore: null };
  };
  // An event's game(s): by the two codes where both are known (a provider may spell a name its own way), else by the two names.
  const eventGames = (event: EventTeams): GameBox[] | undefined => {
    const { homeAbbr: h, awayAbbr: a } = event;
    if (h && a) {
      const both = (gamesOf.get(h) ?? []).filter((g) => (g.homeAbbr === h && g.awayAbbr === a) || (g.homeAbbr === a && g.awayAbbr === h));
      return both.length > 0 ? both : undefined;
    }
    return gamesOfEvent.get(eventKey(event.homeTeam, event.awayTeam));
  };
  return (team, playerKey, statType, event) => {
    const ofEvent = event ? eventGames(event) : undefined;
    if (ofEvent && (team === null || !ofEvent.some((g) => g.homeAbbr === team || g.awayAbbr === team))) return decide(ofEvent, playerKey, statType);
    const list = team === null ? undefined : gamesOf.get(team);
    if (!list) return null;
    return decide(list, playerKey, statType);
  };
}

/** Case/accent/punctuation-insensitive team name ("Brighton & Hove Albion" = "brighton hove albion"). */
const foldName = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** One key for an event's pair of teams, in either order. */
function eventKey(home: string, away: string): string {
  return [foldName(home), foldName(away)].sort().join('|');
}
