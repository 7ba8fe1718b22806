import { badInput } from '../errors.js';
import type { PlayerGameStat } from './entities.js';
import type { GradeOutput } from './model/index.js';
import type { PlayerSuggestion } from './name-suggest.js';
import { STATS, type StatType } from './stats.js';
import type { GradedSport, Side } from './sports.js';

/**
 * The shapes of one prop graded on the store (reads/evaluate-prop.ts): here, below both floors
 * that use them, so jobs/scan.ts (which writes the scan to the ledger) and reads/parlay.ts share
 * them without importing each other.
 */

/** One prop as the engine sees it; shared by scan and parlay legs. */
export interface PropQuery {
  player: string;
  stat: StatType;
  line: number;
  side: Side;
  sport?: GradedSport | undefined;
}

/** A player a typed name may mean, in the sport the store holds him for. */
export interface PlayerCandidate {
  name: string;
  key: string;
  sport: GradedSport;
}

export interface GameRef {
  eventId: string;
  /** "Away @ Home" as the board names the teams. */
  label: string;
  commenceTime: string;
  opponent: string | null;
}

/** `Row` is the store's board row: the domain names its shape without importing the store. */
export type PropEvaluation<Row> =
  | { resolved: false; status: 'ambiguous' | 'unknown_player'; candidates: PlayerCandidate[]; suggestions?: PlayerSuggestion[] }
  | {
      resolved: true;
      status: 'graded' | 'refused';
      sport: GradedSport;
      /** The data clock the sport was read at. */
      now: Date;
      player: { name: string; key: string };
      team: string | null;
      game: GameRef | null;
      /** ET date the prop was graded for: the game's date, else today. */
      gameDate: string;
      /** The latest snapshot's row for exactly this player, stat, line and side in the game, if the board had it. */
      boardRow: Row | null;
      history: PlayerGameStat[];
      outcome: GradeOutput;
    };

/** Sports in which the stat is graded, narrowed by an explicit sport; a stat foreign to that sport is bad input. */
export function sportsForStat(stat: StatType, sport?: GradedSport): GradedSport[] {
  const sports = STATS[stat].sports.filter((s) => sport === undefined || s === sport);
  if (sports.length === 0) throw badInput(`${stat} is not a ${sport} stat (it is graded for ${STATS[stat].sports.join(', ')})`);
  return [...sports];
}
