/**
 * MLB figures from ../shared/history (slow: the held-out back-test reads 34,154 quote rows, ~50 s
 * on a loaded 2-core machine). Checked by `node scripts/docs-figures.mjs --check --seasons` (.ci/run).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const GRADES = ['A+', 'A', 'B', 'C', 'F'];

function shared(ctx) {
  const dir = join(ctx.root, '..', 'shared', 'history');
  if (!existsSync(dir)) throw new Error(`the MLB figures read ${dir} (../shared), which is missing`);
  return dir;
}

/** README's and docs/model.md §6b's back-test: the command both print, run once (mlb-close.mjs compares the season with it). */
export function backtest(ctx) {
  return ctx.once('mlb-backtest', () => {
    const h = shared(ctx);
    return ctx.json(
      ['backtest', '--sport', 'mlb', '--gamelogs', join(h, 'mlb_pitcher_game_logs_2025.csv'), '--mlb-strikeouts', join(h, 'mlb_pitcher_strikeouts_props_first_last_pregame_2025.csv'), '--from', '2025-06-03', '--to', '2025-09-28'],
      { db: ctx.store('mlb-backtest') },
    );
  });
}

const ci = (ctx, [lo, hi]) => `${ctx.fmt.pct(lo)} .. ${ctx.fmt.pct(hi)}`;

/** The main-line tiers of the back-test, one row per grade with a bet. */
async function mainRows(ctx) {
  const report = await backtest(ctx);
  const tiers = report.per_tier.main_lines;
  return GRADES.filter((g) => tiers[g] && tiers[g].n > 0).map((g) => ({ grade: g, ...tiers[g] }));
}

export const blocks = [
  {
    name: 'mlb-backtest-main-readme',
    slow: true,
    about: "README: the MLB held-out back-test's main-line tiers (backtest --sport mlb --json, per_tier.main_lines)",
    render: async (ctx) => {
      const rows = await mainRows(ctx);
      return [
        '',
        '| grade | n | claimed EV | realised ROI | 95% CI |',
        '|---|---|---|---|---|',
        ...rows.map((r) => `| ${r.grade} | ${ctx.fmt.int(r.n)} | ${ctx.fmt.pct(r.claimed_ev_pct)} | ${ctx.fmt.pct(r.roi_pct.value)} | ${ci(ctx, r.roi_pct.ci95)} |`),
        '',
      ].join('\n');
    },
  },
  {
    name: 'mlb-backtest-main-model',
    slow: true,
    about: 'docs/model.md §6b: the same run, with hit rates and whether each claim lies inside its interval',
    render: async (ctx) => {
      const rows = await mainRows(ctx);
      return [
        '',
        '| grade | n | hit | claimed EV | realised ROI | 95% CI | claim inside |',
        '|---|---|---|---|---|---|---|',
        ...rows.map(
          (r) =>
            `| ${r.grade} | ${ctx.fmt.int(r.n)} | ${ctx.fmt.share(r.hit_rate)} | ${ctx.fmt.pct(r.claimed_ev_pct)} | ${ctx.fmt.pct(r.roi_pct.value)} | ${ci(ctx, r.roi_pct.ci95)} | ${r.claim_inside ? 'yes' : 'no'} |`,
        ),
        '',
      ].join('\n');
    },
  },
];
