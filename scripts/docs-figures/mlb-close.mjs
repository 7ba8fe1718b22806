/**
 * README "Real seasons" and docs/model.md §8: the MLB season through the product's loop with every
 * snapshot we have (issue 43: Pinnacle's and the Australian books' prices merged with the US
 * strikeout history), per tier, with beat close by the close's lead band and by yardstick (the
 * other books' no-vig consensus, and Pinnacle's own no-vig close where Pinnacle priced the line).
 * Slow: the season folder is built from ../shared (scripts/build-season-replay.mjs mlb, ~30 s) and
 * simulated (~1-5 min on a loaded 2-core machine); `--write --seasons` regenerates it, e.g. after
 * the builder gains a market. The same block stands in both docs (one run, one text).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { backtest } from './mlb.mjs';

const GRADES = ['all', 'A+', 'A', 'B', 'C', 'F'];
const BANDS = [
  ['within_30m', '≤ 30 min'],
  ['30m_to_3h', '30 min–3 h'],
  ['over_3h', '> 3 h'],
];
const YARDSTICKS = [
  ['beat_close_by_lead', 'consensus'],
  ['beat_close_pinnacle_by_lead', 'Pinnacle'],
];

/** The season folder's summary (the builder's stdout) and its simulate report, run once per figures run. */
function season(ctx) {
  return ctx.once('mlb-close-season', () => {
    const shared = join(ctx.root, '..', 'shared');
    if (!existsSync(join(shared, 'history'))) throw new Error(`the MLB season reads ${shared}/history (../shared), which is missing`);
    const dir = ctx.path('season-mlb');
    const folder = JSON.parse(ctx.script('scripts/build-season-replay.mjs', ['mlb', dir, '--shared', shared]));
    const report = ctx.json(['simulate', 'mlb', '--replay', dir], { db: ctx.store('mlb-close') });
    return { folder, report };
  });
}

/** "51.5% of 66 (39.7–63.2)", "1 of 3 (n < 20)", "-" for no close in the band. */
function cell(ctx, b) {
  if (!b || b.n === 0) return '-';
  if (b.pct === null) return `${b.beat} of ${ctx.fmt.int(b.n)} (n < 20)`;
  const ci = b.ci95 ? ` (${b.ci95[0].toFixed(1)}–${b.ci95[1].toFixed(1)})` : '';
  return `${b.pct.toFixed(1)}% of ${ctx.fmt.int(b.n)}${ci}`;
}

const band = (list, name) => (list ?? []).find((b) => b.band === name);
const orDash = (v, f) => (v === null || v === undefined ? '-' : f(v));

function table(ctx, folder, report) {
  const rows = GRADES.filter((g) => report.record[g] && report.record[g].entries > 0).map((g) => ({ grade: g, ...report.record[g] }));
  const all = report.record.all;
  const heads = YARDSTICKS.flatMap(([, y]) => BANDS.map(([, b]) => `${y} ${b}`));
  return [
    '',
    `**MLB, ${folder.from} … ${folder.to}** (${ctx.fmt.int(folder.days)} game days; ${ctx.fmt.int(report.snapshots)} snapshots, ${ctx.fmt.int(report.settles)} settles; ` +
      `${ctx.fmt.int(all.entries)} public entries: ${ctx.fmt.int(all.n)} settled, ${ctx.fmt.int(all.voids)} void, ${ctx.fmt.int(all.pending)} pending):`,
    '',
    `| tier | n | hit | claimed EV | ROI at the locked price | 95% CI (games) | ${heads.join(' | ')} |`,
    `|${'---|'.repeat(6 + heads.length)}`,
    ...rows.map((r) => {
      const roi = r.roi_pct ?? {};
      const ci = roi.ci95 ? `${ctx.fmt.pct(roi.ci95[0])} .. ${ctx.fmt.pct(roi.ci95[1])}` : '-';
      const closes = YARDSTICKS.flatMap(([key]) => BANDS.map(([b]) => cell(ctx, band(r[key], b))));
      return `| ${r.grade} | ${ctx.fmt.int(r.n)} | ${orDash(r.hit_rate, (v) => ctx.fmt.share(v))} | ${orDash(r.claimed_ev_pct, (v) => ctx.fmt.pct(v))} | ${orDash(roi.value, (v) => ctx.fmt.pct(v))} | ${ci} | ${closes.join(' | ')} |`;
    }),
    '',
    '*tier*: the letter locked with the entry (all: every tier). *n*: settled bets (hit, miss or push). *hit*: hits ÷ (hits + misses). *claimed EV*: mean EV of those bets\' locked prices at their stored p_win. ' +
      '*ROI at the locked price*: profit of 1-unit stakes at the locked price ÷ n. *95% CI (games)*: that ROI\'s interval, resampling whole games (2,000 replicates). ' +
      '*consensus ≤ 30 min*, *30 min–3 h*, *> 3 h*: the share of entries whose locked price beat the close on the one CLV yardstick (docs/ledger.md: the market\'s no-vig fair at the locked line without the locked book, by the rule that priced the lock), by how long before first pitch that close was taken. ' +
      '*Pinnacle ≤ 30 min*, *30 min–3 h*, *> 3 h*: the same against Pinnacle\'s own no-vig close at the locked line, only where Pinnacle priced both sides of it. ' +
      'Each beat-close cell: % of n closes with its Wilson 95% interval (a % at n ≥ 20, else the count); "-" no close in that band.',
    '',
  ].join('\n');
}

const range = (ctx, [lo, hi]) => `${ctx.fmt.pct(lo)} .. ${ctx.fmt.pct(hi)}`;
const where = (v, [lo, hi]) => (v < lo ? 'below' : v > hi ? 'above' : 'inside');
const inside = (b, other) => b.ci95 !== null && other.ci95 !== null && other.pct >= b.ci95[0] && other.pct <= b.ci95[1];

/**
 * The prose beside the table, as figures: each tier's ROI against the back-test's (main lines, the
 * same days) both ways, and whether the two yardsticks agree within 30 minutes of first pitch.
 */
async function reading(ctx) {
  const [{ report }, bt] = await Promise.all([season(ctx), backtest(ctx)]);
  const tiers = GRADES.filter((g) => g !== 'all' && report.record[g]?.roi_pct?.ci95 && bt.per_tier.main_lines[g]?.n > 0);
  const roi = tiers.map((g) => {
    const s = report.record[g].roi_pct;
    const b = bt.per_tier.main_lines[g].roi_pct;
    return `${g}'s back-test ROI ${ctx.fmt.pct(b.value)} lies ${where(b.value, s.ci95)} the season's interval ${range(ctx, s.ci95)}, and the season's ${ctx.fmt.pct(s.value)} lies ${where(s.value, b.ci95)} the back-test's ${range(ctx, b.ci95)}`;
  });
  const near = GRADES.filter((g) => report.record[g]).map((g) => {
    const c = band(report.record[g].beat_close_by_lead, 'within_30m');
    const p = band(report.record[g].beat_close_pinnacle_by_lead, 'within_30m');
    return { g, c, p, both: c?.pct != null && p?.pct != null };
  });
  const read = near.filter((t) => t.both);
  const agree = read.filter((t) => inside(t.c, t.p) && inside(t.p, t.c));
  const shares = read.map((t) => `${t.g} ${t.c.pct.toFixed(1)}% on the consensus, ${t.p.pct.toFixed(1)}% on Pinnacle`).join('; ');
  const verdict =
    read.length === 0
      ? 'no tier has 20 closes within 30 minutes of first pitch on both yardsticks'
      : agree.length === read.length
        ? `in every tier with 20 closes on both, each yardstick's share lies inside the other's interval (${shares})`
        : `the shares differ beyond an interval in ${read.filter((t) => !agree.includes(t)).map((t) => t.g).join(', ')} (${shares})`;
  return `Against the back-test of the same days (main lines, above): ${roi.join('; ')}. Within 30 minutes of first pitch, ${verdict}.`;
}

export const blocks = [
  {
    name: 'mlb-close',
    slow: true,
    about: 'README Real seasons and docs/model.md §8: MLB per tier with beat close by lead band and yardstick (simulate mlb --json on the merged season folder)',
    render: async (ctx) => {
      const { folder, report } = await season(ctx);
      return table(ctx, folder, report);
    },
  },
  {
    name: 'mlb-close-reading',
    slow: true,
    about: "README Real seasons and docs/model.md §6b: the MLB season's ROI per tier against the back-test's (both ways) and the two yardsticks within 30 min (simulate mlb --json, backtest --sport mlb --json)",
    render: reading,
  },
];
