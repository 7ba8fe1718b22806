// Benchmark: how the snapshot run's cost grows with the slate (issue 18).
// Run after `npm run build`: node scripts/bench/snapshot-scaling.mjs [multipliers...]   (default 1 4 16)
//
// REPLICATED EVENTS, FOR COST ONLY: at k× the bundled 2025-11-05 NBA slate (11 events), every
// event is served k times, copy j under the id `<id>~x<j>` with the real recorded quotes of the
// original (the same players, lines and prices). The grades of a copy are those of its original;
// the figures say what a k-times bigger slate costs, nothing about any real slate.
// Each size runs in its own Node process on a byte copy of one seeded store (the replay's history
// imported once, in another child), so each peak RSS is that size's own: runSnapshot cold (grades
// and locks every row) then warm (same clock: every grade from its lock). The exponent is the
// least-squares slope of log(time) on log(rows): 1 is linear.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchResult, childJson, dist, fitExponent, peakRssMb, REPLAY_DIR, round, scalingLine, seededTemplate, silentLog, SMOKE, tempDir, timeOnce } from './_shared.mjs';

const NOW = '2025-11-05T17:05:00Z';

/** Odds over the replay with every event served `k` times under new ids (copy 0 keeps the real id). */
async function replicatedOdds(k, now) {
  const { loadConfig } = await dist('config.js');
  const { buildOddsSource } = await dist('feeds/factory.js');
  const sources = await buildOddsSource(loadConfig({}), { replayDir: REPLAY_DIR, recordDir: null, now, log: silentLog });
  const originals = new Map();
  const odds = {
    async events(sport) {
      const all = await sources.odds.events(sport);
      if (all === null) return null;
      const out = [];
      for (const e of SMOKE ? all.filter((x) => x.commenceTime > now.toISOString()).slice(0, 1) : all) {
        originals.set(e.id, e);
        for (let j = 0; j < k; j++) {
          const id = j === 0 ? e.id : `${e.id}~x${j}`;
          originals.set(id, e);
          out.push({ ...e, id });
        }
      }
      return out;
    },
    async propQuotes(sport, event) {
      const quotes = await sources.odds.propQuotes(sport, originals.get(event.id) ?? event);
      return quotes === null ? null : quotes.map((q) => ({ ...q, eventId: event.id }));
    },
    credits: () => sources.odds.credits(),
  };
  return { odds, close: () => sources.close() };
}

if (process.env.BENCH_ROLE === 'size') {
  const k = Number(process.env.BENCH_K);
  const path = join(process.env.BENCH_DIR, `k${k}.sqlite`);
  copyFileSync(process.env.BENCH_TEMPLATE, path);
  const { openStore } = await dist('store/db.js');
  const { runSnapshot } = await dist('jobs/snapshot-run.js');
  const store = openStore(path);
  const now = new Date(NOW);
  const peakBefore = peakRssMb();
  const run = async () => {
    const { odds, close } = await replicatedOdds(k, now);
    try {
      return await runSnapshot('nba', { store, odds, now, allowedBooks: null, log: silentLog, source: 'replay' });
    } finally {
      await close();
    }
  };
  const cold = await timeOnce(run);
  const peakCold = peakRssMb();
  const warm = await timeOnce(run);
  const peakWarm = peakRssMb();
  await store.close();
  if (cold.value.status !== 'ok' || warm.value.status !== 'ok') throw new Error(`run status ${cold.value.status}/${warm.value.status}`);
  console.log(JSON.stringify({ k, events: cold.value.events, rows: cold.value.rows, graded: cold.value.graded, locks: cold.value.newLocks, ledger: cold.value.ledgerInserted, coldMs: cold.ms, warmMs: warm.ms, warmLocks: warm.value.newLocks, peakBefore, peakCold, peakWarm }));
  process.exit(0);
}

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const K = sizes.length ? sizes : SMOKE ? [1, 2] : [1, 4, 16];
const dir = tempDir('snapshot-scaling');
const template = await seededTemplate(dir);
const self = fileURLToPath(import.meta.url);
const results = [];
for (const k of K) results.push(await childJson(self, 'size', { BENCH_K: String(k), BENCH_DIR: dir, BENCH_TEMPLATE: template.path }));

console.log(
  `${SMOKE ? 'SMOKE MODE (first slate event only; figures meaningless) — ' : ''}REPLICATED EVENTS (cost only): the bundled nba slate of 2025-11-05 at ${K.map((k) => `${k}×`).join(', ')}, ` +
    `each event copied under new ids with its real quotes; store seeded with ${template.games.toLocaleString('en-US')} real player-games; one process per size`,
);
for (const r of results) {
  console.log(scalingLine(`${r.k}× cold`, `${r.rows.toLocaleString('en-US')} rows`, r.coldMs, r.peakCold, `  (${r.events} events, ${r.locks.toLocaleString('en-US')} locks, ledger +${r.ledger}; RSS before ${r.peakBefore} MB)`));
  console.log(scalingLine(`${r.k}× warm`, `${r.rows.toLocaleString('en-US')} rows`, r.warmMs, r.peakWarm, `  (${r.warmLocks} new locks)`));
}
const coldExp = fitExponent(results.map((r) => [r.rows, r.coldMs]));
const warmExp = fitExponent(results.map((r) => [r.rows, r.warmMs]));
const rssExp = fitExponent(results.map((r) => [r.rows, r.peakCold]));
const headline = `snapshot time grows as rows^${coldExp?.toFixed(2)} cold, rows^${warmExp?.toFixed(2)} warm (${K.join('/')}× slate); peak RSS as rows^${rssExp?.toFixed(2)}`;
console.log(headline);
benchResult('snapshot-scaling', headline, coldExp, {
  synthetic: 'replicated events',
  sizes: results.map((r) => ({ k: r.k, rows: r.rows, coldMs: Math.round(r.coldMs), warmMs: Math.round(r.warmMs), peakRssMbCold: r.peakCold, peakRssMbWarm: r.peakWarm })),
  coldExponent: round(coldExp, 2),
  warmExponent: round(warmExp, 2),
  rssExponent: round(rssExp, 2),
});
