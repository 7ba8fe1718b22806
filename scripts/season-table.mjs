#!/usr/bin/env node
/**
 * A simulated season's tier table as markdown (issue 33): per tier n, claimed EV, ROI at the locked
 * price with its 95% interval (games resampled), and beat close per lead band of the close
 * (within 30 min of the start, 30 min to 3 h, more than 3 h; a % at n >= 20 per band, else counts).
 *
 *   node scripts/season-table.mjs --json var/sim-nba.json [--db var/sim-nba.sqlite] [--sport nba]
 *
 * --json: the output of `propgrade simulate <sport> --replay <dir> --json` (n, ROI and its interval).
 * --db:   the store that simulation ran on. Claimed EV and the lead bands come from the JSON when it
 *         carries them (claimed_ev_pct, beat_close_by_lead); a JSON from a build before those fields
 *         needs --db, and they are then computed from the store's raw ledger rows (p_win x locked
 *         price; commence_time minus closing_captured_at), so a store made before migration 0009 reads too.
 */
import fs from 'node:fs';

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
function usage(message) {
  process.stderr.write(`${message}\nusage: node scripts/season-table.mjs --json <simulate.json> [--db <store.sqlite>] [--sport <sport>]\n`);
  process.exit(2);
}

const jsonPath = argValue('--json');
const dbPath = argValue('--db');
if (!jsonPath) usage('missing --json');
const report = JSON.parse(fs.readFileSync(jsonPath, 'utf8'));
const sport = argValue('--sport') ?? report.sport;
const TIERS = ['all', 'A+', 'A', 'B', 'C', 'F'];
const BANDS = ['within_30m', '30m_to_3h', 'over_3h'];
const MIN_SAMPLE = 20;

/** The same band rule as src/domain/close-lead.ts. */
function bandOf(minutes) {
  if (minutes === null || !Number.isFinite(minutes) || minutes <= 0) return null;
  if (minutes <= 30) return 'within_30m';
  return minutes <= 180 ? '30m_to_3h' : 'over_3h';
}
function leadMinutes(capturedAt, commenceTime) {
  if (!capturedAt || !commenceTime) return null;
  const seconds = Math.round((Date.parse(commenceTime) - Date.parse(capturedAt)) / 1000);
  return seconds > 0 ? seconds / 60 : null;
}
const decimal = (a) => (typeof a === 'number' && Math.abs(a) >= 100 ? (a > 0 ? 1 + a / 100 : 1 + 100 / -a) : null);

/** Claimed EV and lead bands per tier, from the store's public ledger rows of the sport. */
async function fromStore(path) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const rows = db
    .prepare(`select grade, outcome, p_win as pWin, locked_price as price, clv_verdict as verdict, close_method as method, closing_captured_at as capturedAt, commence_time as commence from ledger_entries where user_id is null and source = 'pipeline' and sport = ?`)
    .all(sport);
  db.close();
  const out = {};
  for (const tier of TIERS) {
    const list = tier === 'all' ? rows : rows.filter((r) => r.grade === tier);
    if (list.length === 0) continue;
    let evSum = 0;
    let evN = 0;
    const bands = Object.fromEntries(BANDS.map((b) => [b, { band: b, n: 0, beat: 0, faded: 0, flat: 0 }]));
    for (const r of list) {
      const d = decimal(r.price);
      if (['hit', 'miss', 'push'].includes(r.outcome) && d !== null && r.pWin > 0 && r.pWin < 1) {
        evSum += 100 * (r.pWin * d - 1);
        evN += 1;
      }
      const verdict = r.method === 'own_book_devig' ? null : r.verdict;
      const band = verdict ? bandOf(leadMinutes(r.capturedAt, r.commence)) : null;
      if (band) {
        bands[band].n += 1;
        bands[band][verdict] += 1;
      }
    }
    out[tier] = { claimed: evN > 0 ? evSum / evN : null, claimedN: evN, bands: BANDS.map((b) => ({ ...bands[b], pct: bands[b].n >= MIN_SAMPLE ? (100 * bands[b].beat) / bands[b].n : null })) };
  }
  return out;
}

const store = dbPath ? await fromStore(dbPath) : null;
const signed = (v, digits = 1) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(digits)}%`;
const thousands = (n) => n.toLocaleString('en-US');
const bandCell = (b) => (b.n === 0 ? '-' : b.pct === null ? `${b.beat} of ${b.n} (n < ${MIN_SAMPLE})` : `${b.pct.toFixed(1)}% of ${thousands(b.n)}`);

const lines = [
  `| tier | n | claimed EV | ROI at the locked price | 95% CI (games) | beat close ≤ 30 min | beat close 30 min–3 h | beat close > 3 h |`,
  '|---|---|---|---|---|---|---|---|',
];
for (const tier of TIERS) {
  const t = report.record?.[tier];
  if (!t) continue;
  const s = store?.[tier];
  const claimed = t.claimed_ev_pct !== undefined ? t.claimed_ev_pct : (s?.claimed ?? null);
  const bands = t.beat_close_by_lead ?? s?.bands ?? null;
  const roi = t.roi_pct?.value;
  const ci = t.roi_pct?.ci95;
  lines.push(
    `| ${tier} | ${thousands(t.n)} | ${claimed === null || claimed === undefined ? '-' : signed(claimed)} | ${roi === null || roi === undefined ? '-' : signed(roi)} | ${ci ? `${signed(ci[0])} .. ${signed(ci[1])}` : '-'} | ${bands ? bands.map(bandCell).join(' | ') : 'no lead data (pass --db) | | '} |`,
  );
}
process.stdout.write(`${sport ?? '?'} season (${report.snapshots} snapshots, ${report.settles} settles): ${jsonPath}${dbPath ? ` + ${dbPath}` : ''}\n${lines.join('\n')}\n`);
