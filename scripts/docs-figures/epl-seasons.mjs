/**
 * README "Real seasons" and docs/model.md §4b: the EPL 2024-25 and 2025-26 seasons through the
 * product's own loop (issue 42 "Season tables"). Each season's folder is built from ../shared/history
 * (scripts/build-season-replay.mjs soccer) and simulated on a fresh store (propgrade simulate soccer
 * --json); the table is the public record per tier, and the funnel (why so few props reach the
 * ledger) and the snapshots' lead before kickoff are read from that store and folder. Slow (two
 * builds and two simulations, ~2 min on a loaded 2-core machine): checked by `--check --seasons`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SEASONS = [
  { name: '2024-25', from: '2024-08-16', to: '2025-01-25' },
  { name: '2025-26', from: '2025-08-14', to: '2025-12-13' },
];
const TIERS = ['all', 'A+', 'A', 'B', 'C'];
const MIN_SAMPLE = 20;

function sharedDir(ctx) {
  const dir = join(ctx.root, '..', 'shared');
  if (!existsSync(join(dir, 'history', 'epl_player_props_2024-08_to_2026-01.csv.gz'))) throw new Error(`the EPL seasons read ${dir}/history (../shared), which is missing`);
  return dir;
}

/** Per priced match, the last recorded snapshot (events list) before its kickoff: the nearest thing to a close the data has. */
function closestLeads(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const last = new Map(); // event id -> { at, commence }
  for (const e of manifest.entries) {
    if (!e.url.endsWith('/events?dateFormat=iso')) continue;
    for (const ev of JSON.parse(readFileSync(join(dir, e.file), 'utf8'))) {
      const prev = last.get(ev.id);
      if (!prev || e.recordedAt > prev.at) last.set(ev.id, { at: e.recordedAt, commence: ev.commence_time });
    }
  }
  const hours = [...last.values()].map((x) => (Date.parse(x.commence) - Date.parse(x.at)) / 3_600_000).sort((a, b) => a - b);
  const mid = hours.length / 2;
  const median = hours.length === 0 ? null : hours.length % 2 ? hours[Math.floor(mid)] : (hours[mid - 1] + hours[mid]) / 2;
  return { matches: hours.length, median, within30: hours.filter((h) => h <= 0.5).length };
}

/** Why so few props reach the ledger: the store's graded rows per prop (game, player, stat). */
async function funnelOf(db) {
  const { default: Database } = await import('better-sqlite3');
  const sql = new Database(db, { readonly: true, fileMustExist: true });
  try {
    const one = (q) => sql.prepare(q).get();
    const prop = "event_id || '|' || player_key || '|' || stat_type";
    const quoted = one(`select count(distinct ${prop}) as n from graded_rows where sport = 'soccer'`).n;
    const graded = one(`select count(distinct ${prop}) as n from graded_rows where sport = 'soccer' and grade is not null`).n;
    // A prop never graded, because at every snapshot its player had fewer than 10 played games (240 days).
    const history = one(
      `select count(*) as n from (select ${prop} as k from graded_rows where sport = 'soccer' and side = 'over' group by k having sum(grade is not null) = 0 and sum(refusal_reason like 'only % played game(s)%') = count(*))`,
    ).n;
    // Main line: the ledger's unit. Each prop's best EV at its main line over all snapshots.
    const best = sql
      .prepare(`select ${prop} as k, max(ev_pct) as ev, max(grade in ('A+','A','B','C')) as pick from graded_rows where sport = 'soccer' and is_main_line = 1 and grade is not null and ev_pct is not null group by k`)
      .all();
    const evs = best.map((b) => b.ev).sort((a, b) => a - b);
    const mid = evs.length / 2;
    const medianEv = evs.length === 0 ? null : evs.length % 2 ? evs[Math.floor(mid)] : (evs[mid - 1] + evs[mid]) / 2;
    const rungOnly = one(
      `select count(*) as n from (select ${prop} as k from graded_rows where sport = 'soccer' and grade is not null group by k having max(is_main_line = 0 and grade in ('A+','A','B','C')) = 1 and max(is_main_line = 1 and grade in ('A+','A','B','C')) = 0)`,
    ).n;
    const list = (q) => sql.prepare(q).all().map((r) => `${r.k} ${r.n}`).join(', ');
    const public_ = "from ledger_entries where user_id is null and source = 'pipeline' and sport = 'soccer'";
    const byStat = list(`select stat_type as k, count(*) as n ${public_} group by k order by n desc, k`);
    const byCap = list(`select cap_reason || ' (' || grade || ', EV earned ' || grade_uncapped || ')' as k, count(*) as n ${public_} and cap_reason is not null group by k order by n desc, k`);
    // The rule the locked price was graded by: the locking snapshot's row's devig_method (one per entry).
    const devig = list(
      `select k, count(*) as n from (select case when (select g.devig_method from graded_rows g where g.sport = e.sport and g.event_id = e.event_id and g.player_key = e.player_key and g.stat_type = e.stat_type and g.line = e.line and g.side = e.side and g.graded_at = e.locked_at order by g.id limit 1) like 'one_sided_%' then 'one-sided' else 'two-sided' end as k from ledger_entries e where e.user_id is null and e.source = 'pipeline' and e.sport = 'soccer') group by k order by n desc, k`,
    );
    return { byStat, byCap, devig, quoted, graded, history, main: best.length, mainPick: best.filter((b) => b.pick === 1).length, mainF: best.filter((b) => b.pick !== 1).length, medianEv, rungOnly };
  } finally {
    sql.close();
  }
}

function season(ctx, s) {
  return ctx.once(`epl-season-${s.name}`, async () => {
    const dir = ctx.path(`epl-${s.name}`);
    const built = JSON.parse(ctx.script('scripts/build-season-replay.mjs', ['soccer', dir, '--from', s.from, '--to', s.to, '--shared', sharedDir(ctx)]));
    const db = ctx.store(`epl-${s.name}`);
    const report = ctx.json(['simulate', 'soccer', '--replay', dir], { db });
    return { built, report, funnel: await funnelOf(db), lead: closestLeads(dir) };
  });
}

function render(ctx, s, { built, report, funnel, lead }) {
  const { int, pct, share } = ctx.fmt;
  const all = report.record.all ?? { entries: 0, n: 0, voids: 0, pending: 0 };
  const band = (b) => (b.n === 0 ? '-' : b.n < MIN_SAMPLE ? `${b.beat} of ${b.n} (n < ${MIN_SAMPLE})` : `${share(b.beat / b.n)} of ${int(b.n)}`);
  const rows = TIERS.filter((t) => report.record[t] && report.record[t].entries > 0).map((t) => {
    const r = report.record[t];
    const roi = r.roi_pct?.value;
    const ci = r.roi_pct?.ci95;
    return `| ${t} | ${int(r.n)} | ${r.hit_rate === null ? '-' : share(r.hit_rate)} | ${r.claimed_ev_pct === null ? '-' : pct(r.claimed_ev_pct)} | ${roi === null || roi === undefined ? '-' : pct(roi)} | ${ci ? `${pct(ci[0])} .. ${pct(ci[1])}` : '-'} | ${r.beat_close_by_lead.map(band).join(' | ')} |`;
  });
  return [
    `**EPL ${s.name}, ${s.from} … ${s.to}** (${int(report.snapshots)} snapshots of ${int(built.matches)} priced matches; ${int(report.settles)} settles reading all ${int(built.summaries)} played matches' stats; ${int(all.entries)} public entries, ${int(all.n)} decided, ${int(all.voids)} void, ${int(all.pending)} pending; ${int(built.unresolvedPlayerNames)} book player names in a match not resolved to a player, their ${int(built.leftOut['rows with an unresolved player name'] ?? 0)} price rows left out). The last snapshot before kickoff is a median ${lead.median === null ? '-' : lead.median.toFixed(1)} h before it (${int(lead.matches)} matches; ${int(lead.within30)} within 30 min), so no close here is near the start.`,
    '',
    '| tier | n | hit | claimed EV | ROI at the locked price | 95% CI (games) | beat close ≤ 30 min | beat close 30 min–3 h | beat close > 3 h |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Why so few: of ${int(funnel.quoted)} props quoted (game, player, stat), ${int(funnel.quoted - funnel.graded)} never got a letter (${int(funnel.history)} because the player had fewer than 10 played games in the 240 days before, the projection's minimum); ${int(funnel.main)} were graded at their main line, where the price is judged against a margin-free fair (a one-sided over against the other books' margin-removed overs, §4b; a bet365 pair against its own de-vig) and so carries its book's margin: the median prop's best main-line EV over all snapshots was ${funnelEv(ctx, funnel.medianEv)}, and ${int(funnel.mainF)} never rose above F (below −4%). ${int(funnel.mainPick)} reached B or C at the main line; ${int(funnel.rungOnly)} more reached it only at an alternate rung, which stays off the record. The entries by market: ${funnel.byStat || 'none'}; by the price they were locked on: ${funnel.devig || 'none'}; capped: ${funnel.byCap || 'none'}.`,
  ].join('\n');
}

const funnelEv = (ctx, ev) => (ev === null ? '-' : ctx.fmt.pct(ev));

export const blocks = [
  {
    name: 'epl-seasons',
    slow: true,
    about: "README Real seasons and docs/model.md §4b: EPL 2024-25 and 2025-26 through build-season-replay soccer and simulate soccer --json, per tier, with the store's funnel and the snapshots' lead",
    render: async (ctx) => {
      const parts = [];
      for (const s of SEASONS) parts.push(render(ctx, s, await season(ctx, s)));
      return `\n${parts.join('\n\n')}\n`;
    },
  },
];
