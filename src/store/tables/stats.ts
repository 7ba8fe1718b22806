import { integer, json, real, text } from './column.js';
import { table, uniqueIndex } from './table.js';

/** Real box-score lines, the projection input and the settlement truth. */

/** Real per-player, per-game box-score lines: projection input and settlement truth. */
export const playerGameStats = table(
  'player_game_stats',
  {
    id: integer('id').identity(),
    sport: text('sport').notNull(),
    playerKey: text('player_key').notNull(),
    playerName: text('player_name').notNull(),
    team: text('team'),
    opponent: text('opponent'),
    date: text('date').notNull(),
    /** Provider game id, or the date when the source has none (so doubleheaders need an id). */
    gameKey: text('game_key').notNull(),
    minutes: real('minutes'),
    stats: json('stats').notNull().$type<Record<string, number | null>>(),
    extras: json('extras').notNull().$type<Record<string, number | null>>(),
    source: text('source').notNull(),
  },
  // One index: the unique key serves every lookup by sport, player and date (a separate index on
  // that prefix was a second B-tree to write per line, ~3% of a settle; SQLite migration 0007 dropped it).
  // Its order ends in game_key, not in insert order, so a reader whose order matters (same-date
  // lines: MLB doubleheaders, one game from two sources) says it: by id after the columns it sorts by.
  (t) => [uniqueIndex('player_game_stats_key').on(t.sport, t.playerKey, t.date, t.gameKey)],
);
