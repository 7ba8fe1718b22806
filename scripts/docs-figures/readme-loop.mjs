/**
 * README loop figures on the bundled replay (data/replay): fast, checked by test/docs/figures.test.ts.
 */

/** The README loop's two NBA snapshots (15:05 threes only, 17:05 every market) on one store. */
function nbaLoop(ctx) {
  return ctx.once('nba-loop', () => {
    const db = ctx.store('nba-loop');
    for (const now of ['2025-11-05T15:05:00Z', '2025-11-05T17:05:00Z']) ctx.cli(['snapshot', 'nba', '--replay', 'data/replay', '--now', now, '--quiet'], { db });
    return db;
  });
}

/** The README's bundled MLB day: a snapshot, then the settle the README prints. */
function mlbDay(ctx) {
  return ctx.once('mlb-day', () => {
    const db = ctx.store('mlb-day');
    ctx.cli(['snapshot', 'mlb', '--replay', 'data/replay', '--quiet'], { db });
    return { db, settle: ctx.json(['settle', 'mlb', '--replay', 'data/replay', '--now', '2025-08-17T12:00:00Z'], { db }) };
  });
}

export const blocks = [
  {
    name: 'loop-locked-1505',
    about: 'README: how many of the 17:05 slate rows keep the grade locked at 15:05 (slate nba --all --json, gradedAt)',
    render: async (ctx) => {
      const db = await nbaLoop(ctx);
      const slate = ctx.json(['slate', 'nba', '--all'], { db });
      const rows = slate.games.flatMap((g) => g.rows);
      const morning = rows.filter((r) => r.gradedAt?.startsWith('2025-11-05T15:05')).length;
      return `${ctx.fmt.int(morning)} of the ${ctx.fmt.int(rows.length)} rows were locked at 15:05 (the morning snapshot priced threes only); the rest at 17:05`;
    },
  },
  {
    name: 'mlb-settle-day',
    about: "README: the MLB commands, with the bundled MLB day's settle (settle mlb --json after snapshot mlb)",
    render: async (ctx) => {
      const { settle } = await mlbDay(ctx);
      const run = settle.runs.find((r) => r.sport === 'mlb');
      const s = run.settled;
      const n = s.hit + s.miss + s.push + s.void;
      const extra = [s.push ? `${s.push} push` : null, s.void ? `${s.void} void` : null].filter(Boolean);
      const figure = `${n} entries, ${s.hit} hit, ${s.miss} miss${extra.length ? `, ${extra.join(', ')}` : ''}`;
      // The whole sh block: a marker inside a code fence would print as text.
      return [
        '',
        '```sh',
        'export SHARED=../shared    # where ../shared lives (the commands below read it)',
        'npx propgrade import gamelogs $SHARED/history/mlb_pitcher_game_logs_2025.csv   # detected as MLB: projection history',
        'npx propgrade backtest --sport mlb --gamelogs $SHARED/history/mlb_pitcher_game_logs_2025.csv --mlb-strikeouts $SHARED/history/mlb_pitcher_strikeouts_props_first_last_pregame_2025.csv --from 2025-06-03 --to 2025-09-28',
        `npx propgrade settle mlb --replay data/replay --now 2025-08-17T12:00:00Z        # the bundled MLB day: ${figure}`,
        '```',
        '',
      ].join('\n');
    },
  },
];
