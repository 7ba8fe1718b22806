#!/usr/bin/env node
/**
 * Issue 42 part B: an honest fair price for one-sided EPL player markets, fitted on 2024-25 and
 * tested held out on 2025-26 (docs/model.md, "Soccer: a fair price for one-sided markets").
 *
 *   node scripts/research/epl-one-sided.mjs [--history ../shared/history] [--json | --markdown] [--boot 2000]
 *
 * Plain Node, reads the shared gz CSVs with zlib, deterministic (seeded bootstrap). The method:
 * each book's over/yes price r = 1/decimal is de-vigged one-sided by one of three one-parameter
 * families (FAMILIES; chosen per market inside 2024-25, fitTable), the parameter fitted per
 * (market, book) by maximum likelihood on 2024-25 outcomes (books with fewer than MIN_BOOK_ROWS
 * training quotes, or unseen ones, take the market's pooled value); the fair is the mean of the
 * books' de-vigged probabilities. Baseline: the mean of the books' plain implied r.
 * Output: the fitted table (src/domain/model/fitted-one-sided-soccer.ts copies it) and, per
 * market, the held-out n, log loss, Brier, calibration slope with a 95% match-bootstrap interval,
 * and the gate (slope interval contains 1 AND log loss no worse than the baseline).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const HISTORY = opt('--history', new URL('../../../shared/history', import.meta.url).pathname);
const BOOT = Number(opt('--boot', '2000'));
const SEED = 20250801;
/** Training quotes a book needs for its own k; fewer take the market's pooled k. */
const MIN_BOOK_ROWS = 200;
/** Dabble is pick'em at about 1.8/1.8 (NOTES.md): not a market. */
const LEFT_OUT_BOOKS = new Set(['dabble']);
export const MARKETS = ['anytime_goal', 'goals_2plus', 'shots', 'shots_on_target', 'assists', 'tackles'];
const STAT_COLUMN = { anytime_goal: 'goals', goals_2plus: 'goals', shots: 'total_shots', shots_on_target: 'shots_on_target', assists: 'assists', tackles: 'tackles' };

function marketOf(market, line) {
  if (market === 'player_goals') return line === 0.5 ? 'anytime_goal' : 'goals_2plus';
  if (market === 'player_shots') return 'shots';
  if (market === 'player_shots_on_target') return 'shots_on_target';
  if (market === 'player_assists') return 'assists';
  if (market === 'player_tackles') return 'tackles';
  return null; // passes, fouls, saves: not in this study
}

// ---------- CSV and names ----------
const readCsv = (path) => {
  const raw = path.endsWith('.gz') ? gunzipSync(readFileSync(path)).toString('utf8') : readFileSync(path, 'utf8');
  const lines = raw.split('\n');
  const header = lines[0].split(',');
  const rows = [];
  // The three files quote no field (checked: no '"' in any of them), so a comma split is exact.
  for (let i = 1; i < lines.length; i++) if (lines[i]) rows.push(lines[i].split(','));
  return { col: Object.fromEntries(header.map((h, i) => [h, i])), rows };
};

/** `<c3><a9>` byte escapes decoded (NOTES.md quirks), accents folded, lowercase, punctuation dropped. */
const decodeEscapes = (s) => (s.includes('<') ? Buffer.from(s.replace(/<([0-9a-f]{2})>/gi, (_, h) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8') : s);
const nameTokens = (s) =>
  decodeEscapes(s)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ø/g, 'o')
    .replace(/Ø/g, 'O')
    .toLowerCase()
    .replace(/[-]/g, ' ')
    .replace(/[^a-z ]/g, '')
    .split(/\s+/)
    .filter(Boolean);

const TEAM = {
  'AFC Bournemouth': 'Bournemouth', 'Brighton & Hove Albion': 'Brighton', 'Brighton and Hove Albion': 'Brighton', 'Everton FC': 'Everton', 'Ipswich Town': 'Ipswich',
  'Leeds United': 'Leeds', 'Leicester City': 'Leicester', 'Manchester City': 'Man City', 'Manchester United': 'Man Utd', 'Newcastle United': 'Newcastle',
  'Nottingham Forest': "Nott'm Forest", 'Southampton FC': 'Southampton', 'Sunderland AFC': 'Sunderland', 'Tottenham Hotspur': 'Spurs', 'West Ham United': 'West Ham',
  'Wolverhampton Wanderers': 'Wolves',
};
const teamOf = (s) => {
  const t = s.replace(/\u00a0/g, ' ').replace(/\s+v\s*$/, '').trim();
  return TEAM[t] ?? t;
};

// ---------- load ----------
export function loadData(history = HISTORY) {
  const m = readCsv(join(history, 'epl_matches_2024-25_2025-26.csv'));
  const matches = new Map();
  const byTeams = new Map();
  for (const r of m.rows) {
    const match = { id: r[m.col.match_id], season: r[m.col.season], kickoff: Date.parse(r[m.col.kickoff_utc]), home: r[m.col.home_team], away: r[m.col.away_team], players: [] };
    matches.set(match.id, match);
    const k = `${match.home}|${match.away}`;
    (byTeams.get(k) ?? byTeams.set(k, []).get(k)).push(match);
  }
  const s = readCsv(join(history, 'epl_player_match_stats_2024-25_2025-26.csv.gz'));
  const seasonNames = new Map(); // season -> Set of FPL name token strings, to tell "did not play" from "unresolved"
  for (const r of s.rows) {
    const match = matches.get(r[s.col.match_id]);
    if (!match) continue;
    const full = nameTokens(r[s.col.player_name]);
    const web = nameTokens(r[s.col.web_name]);
    const stats = {};
    for (const c of Object.values(STAT_COLUMN)) stats[c] = Number(r[s.col[c]]);
    const p = { tokens: new Set([...full, ...web]), surname: full.at(-1), first: full[0] ?? '', webLast: web.at(-1), minutes: Number(r[s.col.minutes_played]), stats };
    match.players.push(p);
    // One entry per FPL name a season: the same player in many matches is one candidate, not many.
    const names = seasonNames.get(match.season) ?? seasonNames.set(match.season, new Map()).get(match.season);
    names.set(full.join(' '), p);
  }
  return { matches, byTeams, seasonNames: new Map([...seasonNames].map(([season, names]) => [season, [...names.values()]])) };
}

/** NOTES.md recipe: all book tokens in the FPL tokens; else a unique surname with the same initial; else a unique surname. */
function resolvePlayer(players, tokens) {
  if (tokens.length === 0) return null;
  const all = players.filter((p) => tokens.every((t) => p.tokens.has(t)));
  if (all.length === 1) return all[0];
  if (all.length > 1) return null;
  const last = tokens.at(-1);
  const sur = players.filter((p) => p.surname === last || p.webLast === last);
  const initial = sur.filter((p) => p.first[0] === tokens[0][0]);
  if (initial.length === 1) return initial[0];
  if (sur.length === 1) return sur[0];
  return null;
}

// ---------- quotes: each book's last pre-kickoff price per (match, player, market, line) ----------
export function loadKeys(data, history = HISTORY) {
  const buf = gunzipSync(readFileSync(join(history, 'epl_player_props_2024-08_to_2026-01.csv.gz'))).toString('utf8');
  const lines = buf.split('\n');
  const col = Object.fromEntries(lines[0].split(',').map((h, i) => [h, i]));
  const keys = new Map();
  const counts = { rows: 0, noMatch: 0, afterKickoff: 0, noPrice: 0, void: 0, unresolved: 0, used: 0 };
  const resolved = new Map();
  for (let i = 1; i < lines.length; i++) {
    if (!lines[i]) continue;
    const r = lines[i].split(',');
    const book = r[col.book_key];
    if (LEFT_OUT_BOOKS.has(book)) continue;
    const line = Number(r[col.line]);
    const market = marketOf(r[col.market], line);
    if (market === null || !(line % 1 === 0.5)) continue;
    counts.rows++;
    const snap = Date.parse(r[col.snapshot_utc]);
    const [h, a] = r[col.match].split(/\s+v\s+|\u00a0v\u00a0/);
    const cands = data.byTeams.get(`${teamOf(h ?? '')}|${teamOf(a ?? '')}`) ?? [];
    let match = null;
    for (const c of cands) if (match === null || Math.abs(c.kickoff - snap) < Math.abs(match.kickoff - snap)) match = c;
    if (match === null) { counts.noMatch++; continue; }
    if (!(snap < match.kickoff)) { counts.afterKickoff++; continue; }
    const over = r[col.over_price] === '' ? null : Number(r[col.over_price]);
    const under = r[col.under_price] === '' ? null : Number(r[col.under_price]);
    if (!(over > 1) && !(under > 1)) { counts.noPrice++; continue; }
    const rawName = r[col.player_name];
    const rk = `${match.id}|${rawName}`;
    let player = resolved.get(rk);
    if (player === undefined) {
      const tokens = nameTokens(rawName);
      const p = resolvePlayer(match.players, tokens);
      if (p && p.minutes > 0) player = p;
      else if (p || resolvePlayer(data.seasonNames.get(match.season) ?? [], tokens)) player = 'void';
      else player = 'unresolved';
      resolved.set(rk, player);
    }
    if (player === 'void') { counts.void++; continue; }
    if (player === 'unresolved') { counts.unresolved++; continue; }
    counts.used++;
    const key = `${match.id}|${market}|${line}|${[...player.tokens].sort().join(' ')}`;
    let k = keys.get(key);
    if (!k) keys.set(key, (k = { match, market, line, y: player.stats[STAT_COLUMN[market]] > line ? 1 : 0, books: new Map() }));
    const prev = k.books.get(book);
    // The last price before kickoff; ties (bet365's repeated all-props file) keep the first row.
    if (!prev || snap > prev.snap) k.books.set(book, { snap, over: over > 1 ? over : null, under: under > 1 ? under : null });
  }
  return { keys: [...keys.values()], counts };
}

// ---------- the method ----------
/** One-sided keys: no book quotes both sides, at least one quotes the over (two-sided keys use the ordinary de-vig). */
export function oneSidedRows(keys) {
  const out = [];
  for (const k of keys) {
    const books = [...k.books.entries()].filter(([, q]) => q.over !== null);
    if (books.length === 0 || [...k.books.values()].some((q) => q.over !== null && q.under !== null)) continue;
    books.sort(([a], [b]) => (a < b ? -1 : 1));
    out.push({ matchId: k.match.id, kickoff: k.match.kickoff, season: k.match.season, market: k.market, y: k.y, quotes: books.map(([book, q]) => ({ book, r: 1 / q.over })) });
  }
  return out;
}

/**
 * The one-sided de-vig families (src/domain/devig/one-sided.ts has the same three): each maps a
 * book's implied r = 1/decimal to a fair p with one margin parameter m, and m at its no-margin
 * value (power 1, odds_ratio 0, multiplicative 1) gives p = r, the ordinary de-vig of a fair book.
 */
export const FAMILIES = {
  power: { lo: 0.2, hi: 6, p: (r, m) => r ** m },
  odds_ratio: { lo: -2, hi: 4, p: (r, m) => 1 / (1 + Math.exp(m) * ((1 - r) / r)) },
  multiplicative: { lo: 1, hi: 5, p: (r, m) => r / m },
};

const logLik = (f, m, rs, ys) => {
  let s = 0;
  for (let i = 0; i < rs.length; i++) {
    const p = f(rs[i], m);
    s += ys[i] ? Math.log(p) : Math.log(1 - p);
  }
  return s;
};
/** Maximum-likelihood margin parameter (golden section; each family's log-likelihood is unimodal in m). */
function fitParam(family, rs, ys) {
  const { lo: lo0, hi: hi0, p } = FAMILIES[family];
  let lo = lo0;
  let hi = hi0;
  const g = (Math.sqrt(5) - 1) / 2;
  let c = hi - g * (hi - lo);
  let d = lo + g * (hi - lo);
  let fc = logLik(p, c, rs, ys);
  let fd = logLik(p, d, rs, ys);
  while (hi - lo > 1e-10) {
    if (fc > fd) { hi = d; d = c; fd = fc; c = hi - g * (hi - lo); fc = logLik(p, c, rs, ys); }
    else { lo = c; c = d; fc = fd; d = lo + g * (hi - lo); fd = logLik(p, d, rs, ys); }
  }
  return Number(((lo + hi) / 2).toFixed(4));
}

/** Per book (MIN_BOOK_ROWS training quotes or more) and pooled over the market's books. */
function fitFamily(family, rows) {
  const all = { rs: [], ys: [] };
  const per = new Map();
  for (const r of rows)
    for (const q of r.quotes) {
      all.rs.push(q.r); all.ys.push(r.y);
      const b = per.get(q.book) ?? per.set(q.book, { rs: [], ys: [] }).get(q.book);
      b.rs.push(q.r); b.ys.push(r.y);
    }
  if (all.rs.length < MIN_BOOK_ROWS) return null;
  const books = {};
  for (const [book, b] of [...per.entries()].sort(([a], [c]) => (a < c ? -1 : 1))) if (b.rs.length >= MIN_BOOK_ROWS) books[book] = { m: fitParam(family, b.rs, b.ys), n: b.rs.length };
  return { family, pooled: fitParam(family, all.rs, all.ys), books, quotes: all.rs.length };
}

/** Share of 2024-25 matches (by kickoff) the family choice is fitted on; the rest validates it. */
const CHOICE_SPLIT = 0.7;

/**
 * The family per market is chosen inside 2024-25 only: fitted on its first 70% of matches by
 * kickoff, scored (log loss of the consensus) on the last 30%, the lowest wins; the winner is then
 * refitted on all of 2024-25. 2025-26 plays no part in any choice.
 */
export function fitTable(rows) {
  const table = {};
  for (const market of MARKETS) {
    const train = rows.filter((r) => r.market === market && r.season === '2024-25');
    const kickoffs = [...new Set(train.map((r) => r.kickoff))].sort((a, b) => a - b);
    const cut = kickoffs[Math.floor(CHOICE_SPLIT * kickoffs.length)];
    const early = train.filter((r) => r.kickoff < cut);
    const late = train.filter((r) => r.kickoff >= cut);
    const validation = {};
    let family = null;
    for (const name of Object.keys(FAMILIES)) {
      const fit = fitFamily(name, early);
      if (fit === null || late.length === 0) continue;
      const ll = scores(late.map((r) => methodP(fit, r.quotes)), late.map((r) => r.y)).logLoss;
      validation[name] = r4(ll);
      if (family === null || ll < validation[family]) family = name;
    }
    const fit = family === null ? null : fitFamily(family, train);
    table[market] = fit === null ? { family: null, pooled: null, books: {}, trainKeys: train.length, trainQuotes: 0, validation } : { family, pooled: fit.pooled, books: fit.books, trainKeys: train.length, trainQuotes: fit.quotes, validation };
  }
  return table;
}

const paramFor = (t, book) => t.books[book]?.m ?? t.pooled;
export const methodP = (t, quotes) => quotes.reduce((s, q) => s + FAMILIES[t.family].p(q.r, paramFor(t, q.book)), 0) / quotes.length;
export const baselineP = (quotes) => quotes.reduce((s, q) => s + q.r, 0) / quotes.length;

// ---------- metrics ----------
const clip = (p) => Math.min(1 - 1e-9, Math.max(1e-9, p));
const logit = (p) => Math.log(clip(p) / (1 - clip(p)));
function scores(ps, ys, w) {
  let ll = 0, br = 0, n = 0;
  for (let i = 0; i < ps.length; i++) {
    const wi = w ? w[i] : 1;
    if (!wi) continue;
    const p = clip(ps[i]);
    ll -= wi * (ys[i] ? Math.log(p) : Math.log(1 - p));
    br += wi * (p - ys[i]) ** 2;
    n += wi;
  }
  return { logLoss: ll / n, brier: br / n };
}
/** Logistic regression of y on logit(p) (Newton): [intercept, calibration slope]. */
function slope(xs, ys) {
  let a = 0, b = 1;
  for (let it = 0; it < 50; it++) {
    let g0 = 0, g1 = 0, h00 = 0, h01 = 0, h11 = 0;
    for (let i = 0; i < xs.length; i++) {
      const p = 1 / (1 + Math.exp(-(a + b * xs[i])));
      const e = ys[i] - p, v = p * (1 - p);
      g0 += e; g1 += e * xs[i];
      h00 += v; h01 += v * xs[i]; h11 += v * xs[i] * xs[i];
    }
    const det = h00 * h11 - h01 * h01;
    const da = (h11 * g0 - h01 * g1) / det, db = (h00 * g1 - h01 * g0) / det;
    a += da; b += db;
    if (Math.abs(da) + Math.abs(db) < 1e-9) break;
  }
  return [a, b];
}
/** Per match, the logistic score (g0, g1) and Hessian (h00, h01, h11) at the fit [a, b]. */
function matchSums(xs, ys, of, matches, [a, b]) {
  const s = Array.from({ length: 5 }, () => new Float64Array(matches));
  for (let i = 0; i < xs.length; i++) {
    const p = 1 / (1 + Math.exp(-(a + b * xs[i])));
    const e = ys[i] - p, v = p * (1 - p), j = of[i];
    s[0][j] += e; s[1][j] += e * xs[i]; s[2][j] += v; s[3][j] += v * xs[i]; s[4][j] += v * xs[i] * xs[i];
  }
  return s;
}
/**
 * A resample's slope by one Newton step from the full-sample fit (the one-step bootstrap): the
 * resample's optimum lies close to the full-sample one, where Newton converges quadratically.
 */
function oneStep(sums, counts, [, b]) {
  let g0 = 0, g1 = 0, h00 = 0, h01 = 0, h11 = 0;
  for (let j = 0; j < counts.length; j++) {
    const c = counts[j];
    if (!c) continue;
    g0 += c * sums[0][j]; g1 += c * sums[1][j]; h00 += c * sums[2][j]; h01 += c * sums[3][j]; h11 += c * sums[4][j];
  }
  return b + (h00 * g1 - h01 * g0) / (h00 * h11 - h01 * h01);
}
function mulberry32(seed) {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let x = Math.imul(t ^ (t >>> 15), 1 | t);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const pct = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.floor(q * s.length)))];
};
const r4 = (x) => Number(x.toFixed(4));

export function heldOut(rows, table, boot = BOOT) {
  const out = {};
  const groups = [...MARKETS, 'overall'];
  for (const market of groups) {
    const test = rows.filter((r) => r.season === '2025-26' && (market === 'overall' || r.market === market) && table[r.market].family !== null);
    if (test.length === 0) { out[market] = { n: 0 }; continue; }
    const ys = test.map((r) => r.y);
    const pm = test.map((r) => methodP(table[r.market], r.quotes));
    const pb = test.map((r) => baselineP(r.quotes));
    const xm = pm.map(logit), xb = pb.map(logit);
    const matchIds = [...new Set(test.map((r) => r.matchId))].sort();
    const idx = new Map(matchIds.map((m, i) => [m, i]));
    const of = test.map((r) => idx.get(r.matchId));
    const fm = slope(xm, ys), fb = slope(xb, ys);
    const rand = mulberry32(SEED);
    const sm = [], sb = [], dl = [];
    const counts = new Float64Array(matchIds.length);
    // Per match: the score and Hessian of the slope regression at the full-sample fit, and the
    // summed log-loss difference, so each resample costs O(matches), not O(rows).
    const gm = matchSums(xm, ys, of, matchIds.length, fm), gb = matchSums(xb, ys, of, matchIds.length, fb);
    const rowsOf = new Float64Array(matchIds.length), diffOf = new Float64Array(matchIds.length);
    for (let i = 0; i < test.length; i++) {
      rowsOf[of[i]] += 1;
      diffOf[of[i]] += scores([pm[i]], [ys[i]]).logLoss - scores([pb[i]], [ys[i]]).logLoss;
    }
    for (let b = 0; b < boot; b++) {
      counts.fill(0);
      for (let j = 0; j < matchIds.length; j++) counts[Math.floor(rand() * matchIds.length)]++;
      sm.push(oneStep(gm, counts, fm)); sb.push(oneStep(gb, counts, fb));
      let d = 0, n = 0;
      for (let j = 0; j < matchIds.length; j++) { d += counts[j] * diffOf[j]; n += counts[j] * rowsOf[j]; }
      dl.push(d / n);
    }
    const m = scores(pm, ys), bl = scores(pb, ys);
    const method = { logLoss: r4(m.logLoss), brier: r4(m.brier), slope: r4(fm[1]), slopeLo: r4(pct(sm, 0.025)), slopeHi: r4(pct(sm, 0.975)), meanP: r4(pm.reduce((s, x) => s + x, 0) / pm.length) };
    const baseline = { logLoss: r4(bl.logLoss), brier: r4(bl.brier), slope: r4(fb[1]), slopeLo: r4(pct(sb, 0.025)), slopeHi: r4(pct(sb, 0.975)), meanP: r4(pb.reduce((s, x) => s + x, 0) / pb.length) };
    const passed = method.slopeLo <= 1 && 1 <= method.slopeHi && m.logLoss <= bl.logLoss;
    out[market] = { n: test.length, matches: matchIds.length, hitRate: r4(ys.reduce((s, y) => s + y, 0) / ys.length), method, baseline, logLossDiff: r4(m.logLoss - bl.logLoss), diffLo: r4(pct(dl, 0.025)), diffHi: r4(pct(dl, 0.975)), passed };
  }
  return out;
}

export function markdown(table, held) {
  const f = (x) => x.toFixed(4);
  const lines = [
    '| market | n (matches) | hit rate | log loss: method / baseline (diff, 95% CI) | Brier: method / baseline | slope, method (95% CI) | slope, baseline (95% CI) | gate |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const [market, h] of Object.entries(held)) {
    if (!h.n) { lines.push(`| ${market} | 0 | | | | | | fails (no held-out keys) |`); continue; }
    const gate = market === 'overall' ? (h.passed ? 'passes' : 'fails') + ' (pooled; not used)' : h.passed ? '**passes**' : '**fails**';
    lines.push(`| ${market} | ${h.n} (${h.matches}) | ${(100 * h.hitRate).toFixed(1)}% | ${f(h.method.logLoss)} / ${f(h.baseline.logLoss)} (${h.logLossDiff >= 0 ? '+' : ''}${f(h.logLossDiff)}, ${f(h.diffLo)} .. ${f(h.diffHi)}) | ${f(h.method.brier)} / ${f(h.baseline.brier)} | ${f(h.method.slope)} (${f(h.method.slopeLo)} .. ${f(h.method.slopeHi)}) | ${f(h.baseline.slope)} (${f(h.baseline.slopeLo)} .. ${f(h.baseline.slopeHi)}) | ${gate} |`);
  }
  lines.push('', '| market | 2024-25 keys (quotes) | validation log loss, late 2024-25: power / odds_ratio / multiplicative | family | pooled m | per-book m (training quotes) |', '|---|---|---|---|---|---|');
  for (const [market, t] of Object.entries(table)) {
    const books = Object.entries(t.books).map(([b, v]) => `${b} ${v.m} (${v.n})`).join(', ');
    const v = ['power', 'odds_ratio', 'multiplicative'].map((n) => (t.validation[n] === undefined ? '—' : f(t.validation[n]))).join(' / ');
    lines.push(`| ${market} | ${t.trainKeys} (${t.trainQuotes}) | ${v} | ${t.family ?? 'none'} | ${t.pooled ?? 'none'} | ${books || '—'} |`);
  }
  return lines.join('\n');
}

export function run(history = HISTORY, boot = BOOT) {
  const data = loadData(history);
  const { keys, counts } = loadKeys(data, history);
  const rows = oneSidedRows(keys);
  const table = fitTable(rows);
  const held = heldOut(rows, table, boot);
  const twoSided = keys.length - rows.length;
  return { counts: { ...counts, keys: keys.length, oneSidedKeys: rows.length, twoSidedOrUnderOnlyKeys: twoSided }, boot, seed: SEED, minBookRows: MIN_BOOK_ROWS, table, heldOut: held };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = run();
  if (!args.includes('--markdown')) console.log(JSON.stringify(result, null, 2));
  if (!args.includes('--json')) console.log(`\n${markdown(result.table, result.heldOut)}`);
}
