/**
 * The bundled EPL matchday (data/replay, 2025-08-30; data/README.md "The EPL matchday"): README's
 * quick-start sentence on what `snapshot all` grades for soccer and what `settle soccer` settles.
 * Fast: one soccer snapshot, its slate and its settle on a fresh store (a few seconds).
 */
const GRADES = ['A+', 'A', 'B', 'C', 'F'];

export const blocks = [
  {
    name: 'soccer-day',
    about: "README quick start: the bundled EPL matchday's letters (slate soccer --all --json) and its settle (settle soccer --json)",
    render: async (ctx) => {
      const db = ctx.store('soccer-day');
      const snap = ctx.json(['snapshot', 'soccer', '--replay', 'data/replay', '--quiet'], { db }).runs.find((r) => r.sport === 'soccer');
      const rows = ctx.json(['slate', 'soccer', '--all'], { db }).games.flatMap((g) => g.rows);
      const settled = ctx.json(['settle', 'soccer', '--replay', 'data/replay', '--now', '2025-08-31T12:00:00Z'], { db }).runs.find((r) => r.sport === 'soccer').settled;
      const letters = GRADES.map((g) => [g, rows.filter((r) => r.grade === g).length]).filter(([, n]) => n > 0);
      const n = settled.hit + settled.miss + settled.push + settled.void;
      const outcomes = [`${settled.hit} hit`, `${settled.miss} miss`, settled.push ? `${settled.push} push` : null, settled.void ? `${settled.void} void` : null].filter(Boolean);
      return (
        `the ${ctx.fmt.int(snap.graded)} graded rows of ${ctx.fmt.int(snap.rows)} are ${letters.map(([g, k]) => `${g} ${ctx.fmt.int(k)}`).join(', ')}; ` +
        '`settle soccer --replay data/replay --now 2025-08-31T12:00:00Z` settles its ' +
        `${n} ledger entries against the real player match stats (${outcomes.join(', ')})`
      );
    },
  },
];
