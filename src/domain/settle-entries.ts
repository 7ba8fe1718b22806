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
>;

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

/** Decides every entry of a date against the date's games: a settlement, or the reason it stays pending. */
export function settleEntries(entries: readonly PendingEntry[], games: readonly GameBox[]): DateSettlement {
  const lookup = resultLookup(games);
  const out: DateSettlement = {
    settled: [],
    counts: { hit: 0, miss: 0, push: 0, void: 0 },
    clv: { beat: 0, faded: 0, flat: 0, noClose: 0 },
    pendingReasons: {},
    stillPending: 0,
  };
  for (const e of entries) {
    const result = lookup(e.team, e.playerKey, e.statType);
    const s = result === null ? null : settleEntry(e, result);
    if (s === null || s.outcome === 'pending') {
      const reason = s === null ? 'game_not_found' : s.reason;
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
 * An entry's result: the player's line is looked for in every game his team played that date, in
 * the order the results list them (a doubleheader's second game holds the pitcher listed for it);
 * the first game holding his key is his. Not found: a game of the team that is not final keeps the
 * entry pending with its status; otherwise he is not in a final box score. No team match means no
 * result (pending), never a guess. Games are found by team and players by key in maps built once.
 */
export function resultLookup(games: readonly GameBox[]): (team: string | null, playerKey: string, statType: string) => GameResult | null {
  const gamesOf = new Map<string, GameBox[]>();
  for (const g of games) {
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
  return (team, playerKey, statType) => {
    const list = team === null ? undefined : gamesOf.get(team);
    if (!list) return null;
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
}
