import type { GameEvent, GameStatus, PlayerGameStat, PropQuote } from '../domain/entities.js';
import type { InjuryChip, LineupBoard } from '../domain/display-state.js';
import type { GradedSport } from '../domain/sports.js';

/**
 * What the runs need from the outside world, as narrow interfaces. The CLI and the server
 * build them from the provider adapters over a transport; tests build them over a replay.
 * Every method resolves to null (unavailable) rather than throwing.
 */
export interface CreditReport {
  used: number | null;
  remaining: number | null;
  last: number | null;
  spent: number;
}

export interface OddsSource {
  /** Upcoming events of the sport, or null when the feed is unavailable. */
  events(sport: GradedSport): Promise<GameEvent[] | null>;
  /** Prop quotes for one event, or null when unavailable (including a spent budget). */
  propQuotes(sport: GradedSport, event: GameEvent): Promise<PropQuote[] | null>;
  /** Credits spent so far in this process and the provider's last reported quota. */
  credits(): CreditReport | null;
  /** Why the latest failed call failed (provider named, no URL or key), so a failed run can say it; null when none failed. */
  lastFailure?(): string | null;
}

/**
 * Display state around the grades (injury chips, lineups). It never changes a locked grade or
 * the ledger; unavailable data means no chip, never a guessed one.
 */
export interface StatusSource {
  /** Injury chips by player key; null when the feed is unavailable. */
  injuries(sport: GradedSport): Promise<Map<string, InjuryChip> | null>;
  /** Posted lineups for the ET date (MLB); null when unavailable or not applicable. */
  lineups(sport: GradedSport, date: string): Promise<LineupBoard | null>;
}

/** One game's final state from a results provider. `players` null = box score unavailable. */
export interface GameResults {
  gameId: string;
  status: GameStatus;
  homeAbbr: string | null;
  awayAbbr: string | null;
  /** The teams' full names as the provider gives them: settlement finds an entry's event by them. */
  homeTeam?: string | null;
  awayTeam?: string | null;
  players: PlayerGameStat[] | null;
}

export interface ResultsSource {
  /** Games of the sport on an ET date, or null when the provider is unavailable. */
  results(sport: GradedSport, date: string): Promise<GameResults[] | null>;
}

/** What a run's log line may name besides its message (PROPGRADE_LOG_FORMAT=json writes them as fields). */
export interface RunLogFields {
  sport?: string;
  runId?: number;
}

export interface RunLogger {
  info(message: string, fields?: RunLogFields): void;
  warn(message: string, fields?: RunLogFields): void;
}

export const silentLogger: RunLogger = { info: () => {}, warn: () => {} };
