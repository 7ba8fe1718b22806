/**
 * The Pinnacle and Australian books' MLB pitcher strikeouts and outs (../shared/history
 * `mlb_player_props_pinnacle_au_2025.csv.gz`, PROVENANCE.md Source 7, NOTES.md §9) in the shape the
 * season builder (mlb.mjs) merges into its Odds API event-odds bodies. Nothing here is computed
 * from the prices; rows are tied to games and pitchers, and each price is written as the adapter
 * reads it.
 *
 * - Versions: the source repository overwrites one CSV per book and commits; each row carries its
 *   version's time (`snapshot_utc`) and the time that file next changed (`file_next_change_utc`).
 *   At a recording time t a book's quotes are those of its version standing at t (written at or
 *   before t, next change after t; the last version stands to the end), which is what the repository
 *   held at t. The market's `last_update` is that version's own time, so a standing version says how
 *   old its prices are.
 * - Book keys (The Odds API's): Pinnacle -> `pinnacle` (region eu); Neds -> `neds`, Pointsbet ->
 *   `pointsbetau`, Sportsbet -> `sportsbet`, TAB -> `tab`, Bet365 -> `bet365_au` (region au; The
 *   Odds API documents bet365_au for AFL/NRL main markets only, so a live `au` request would not
 *   return its MLB strikeouts: the key is the API's, the market coverage is the scraper's). The
 *   book's display name from the file is the title.
 * - Prices: decimal in the file; written as the adapter reads a decimal answer
 *   (src/feeds/odds-api/odds-format.ts toAmerican): American = 100 x (d - 1) for d >= 2, else
 *   -100 / (d - 1), rounded to two decimals. A price of 1 or less (147 Pointsbet rows of 1) is no
 *   price (the adapter drops it too) and its side is absent. TAB is over-only; one-sided quotes stay one-sided.
 * - Markets: `pitcher_strikeouts` (every book) and `pitcher_outs` (Pinnacle two-sided, Neds; issue 43),
 *   with the same conversions. Each book's market is its own file with its own versions (Neds'
 *   outs file changes at other times than its strikeouts file), so versions stand per book and
 *   market. Hits allowed, batter total bases, hits and home runs are left out: their outcomes are
 *   not in the data (the game logs are pitchers' and carry no hits allowed), so the ledger could
 *   not settle them; Sportsbet's combined starters' strikeouts has no Odds API market.
 * - Games: "Home v Away" (G1/G2 marks stripped, full names mapped to the games file's abbreviations).
 *   A row with a `start_time` (Neds, TAB: Adelaide local time, minus 9 h 30 min; Sportsbet: UTC+9
 *   written with a Z, minus 9 h; NOTES.md §9) goes to the pairing's game whose first pitch is
 *   nearest that time; any other row to the pairing's next game starting after its snapshot (a G2
 *   mark: the day's second game). First pitch: `mlb_game_start_times_2025.csv`; a game with no time
 *   there takes the Australian books' shifted time from its latest snapshot (NOTES.md §10).
 * - Pitchers: resolved to a pitcher of that game in `mlb_pitcher_game_logs_2025.csv` by the join's
 *   name key, then by first initial + surname (TAB's "Z. Gallen"), then by a unique surname prefix
 *   (TAB's cut-short "Schwellenbac"). Pinnacle's market suffixes and "(must start)" are stripped,
 *   Neds' U+FFFD read as a space. Unresolved names (Sportsbet's "Over" rows, "12+ SOs", a pitcher
 *   who did not pitch in that game) are dropped and counted.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { nameKey } from '../build-mlb-day-replay.mjs';

const FILE = 'history/mlb_player_props_pinnacle_au_2025.csv.gz';
/** The file's markets the merged folder carries (the ledger grades and settles both). */
export const AU_MARKETS = ['pitcher_outs', 'pitcher_strikeouts'];
export const AU_BOOK_KEYS = { pinnacle: 'pinnacle', neds: 'neds', pointsbet_au: 'pointsbetau', sportsbet: 'sportsbet', tab: 'tab', bet365_au: 'bet365_au' };
/** The Odds API regions the merged folder's books sit in (its event-odds URLs ask for them). */
export const MERGED_REGIONS = ['us', 'eu', 'au'];
const SHIFT_MIN = { neds: 570, tab: 570, sportsbet: 540 };
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** What the adapter reads for a decimal price (odds-format.ts toAmerican): null for no price. */
export function americanFromDecimal(text) {
  if (text === '' || text === undefined) return null;
  const d = Number(text);
  if (!Number.isFinite(d) || d <= 1) return null;
  const american = d >= 2 ? 100 * (d - 1) : -100 / (d - 1);
  return Math.round(american * 100) / 100;
}

/** A local start time minus its offset (NOTES.md §9), as UTC ms; null when the book gives none. */
function shiftedStart(book, text) {
  const shift = SHIFT_MIN[book];
  if (!shift || !text) return null;
  const ms = Date.parse(`${text.replace(' ', 'T').replace(/Z$/, '')}Z`);
  return Number.isFinite(ms) ? ms - shift * 60_000 : null;
}

function cleanName(raw) {
  return raw
    .replace(/\uFFFD/g, ' ')
    .replace(/\(must start\)/i, '')
    .replace(/\s+Total\s+\w+(\s+\w+)?\s*$/i, '')
    .trim();
}

/** The game's pitcher a book's name means, or null. */
function resolvePitcher(name, pitchers) {
  const key = nameKey(cleanName(name));
  if (!key) return null;
  const exact = pitchers.filter((p) => p.key === key);
  if (exact.length === 1) return exact[0];
  const tokens = key.split(' ');
  const pick = (list) => (list.length === 1 ? list[0] : null);
  if (tokens.length === 2 && tokens[0].length === 1) return pick(pitchers.filter((p) => p.key.startsWith(tokens[0]) && p.key.split(' ').at(-1) === tokens[1]));
  if (tokens.length === 1 && tokens[0].length >= 4) return pick(pitchers.filter((p) => p.key.split(' ').at(-1).startsWith(tokens[0])));
  return null;
}

/**
 * Reads the file and ties its strikeout and outs rows to games and pitchers.
 * `games`: game_pk -> { pk, date, home, away, firstPitchMs|null } (abbreviations); `teamAbbr`: full name -> abbreviation;
 * `pitchersOf`: game_pk -> [{ key, name }]. Returns `feeds`, one per book and market
 * ({ book, market, versions }), each version in time order
 * { at, next, byGame: Map(pk -> Map(pitcherKey|line -> quote)) }, the Australian start times of
 * games without one, and drop counts.
 */
export function readPinnacleAu({ shared, games, teamAbbr, pitchersOf }) {
  const text = zlib.gunzipSync(fs.readFileSync(path.join(shared, FILE))).toString('utf8');
  const rows = parse(text, { columns: true, skip_empty_lines: true }).filter((r) => AU_MARKETS.includes(r.market));
  const byPair = new Map();
  for (const g of games.values()) {
    const k = `${g.home}|${g.away}`;
    if (!byPair.has(k)) byPair.set(k, []);
    byPair.get(k).push(g);
  }
  const dropped = {};
  const drop = (why) => (dropped[why] = (dropped[why] ?? 0) + 1);
  // Pass 1: the Australian books' times for games the start-times file has no time for (latest snapshot's wins).
  const auTimes = new Map();
  for (const r of rows) {
    const t = shiftedStart(r.book_key, r.start_time);
    const [home, away] = r.match.split(' v ').map((s) => teamAbbr.get(s.replace(/^G[12] /, '')));
    if (t === null || !home || !away) continue;
    const sameDay = (byPair.get(`${home}|${away}`) ?? []).filter((g) => g.firstPitchMs === null && g.date === etDate(t));
    if (sameDay.length !== 1) continue;
    const prev = auTimes.get(sameDay[0].pk);
    if (!prev || r.snapshot_utc >= prev.at) auTimes.set(sameDay[0].pk, { at: r.snapshot_utc, ms: t });
  }
  const startOf = (g) => g.firstPitchMs ?? auTimes.get(g.pk)?.ms ?? null;
  const versions = new Map(); // book|market -> Map(at -> version)
  let kept = 0;
  const keptByMarket = {};
  for (const r of rows) {
    const book = AU_BOOK_KEYS[r.book_key];
    if (!book) throw new Error(`unknown book key ${r.book_key}`);
    const line = r.line === '' ? NaN : Number(r.line);
    if (!Number.isFinite(line)) {
      drop('no line');
      continue;
    }
    const [homeText, awayText] = r.match.split(' v ');
    const mark = /^G([12]) /.exec(homeText ?? '')?.[1] ?? null;
    const home = teamAbbr.get((homeText ?? '').replace(/^G[12] /, ''));
    const away = teamAbbr.get((awayText ?? '').replace(/^G[12] /, ''));
    const pair = home && away ? (byPair.get(`${home}|${away}`) ?? []).filter((g) => startOf(g) !== null) : [];
    if (pair.length === 0) {
      drop('no game of that pairing with a first-pitch time');
      continue;
    }
    const snap = Date.parse(r.snapshot_utc);
    const stated = shiftedStart(r.book_key, r.start_time);
    let game = null;
    if (stated !== null) {
      game = pair.reduce((best, g) => (best === null || Math.abs(startOf(g) - stated) < Math.abs(startOf(best) - stated) ? g : best), null);
    } else {
      const next = pair.filter((g) => startOf(g) > snap).sort((a, b) => startOf(a) - startOf(b));
      const day = next.length ? next.filter((g) => g.date === next[0].date) : [];
      game = mark === '2' ? (day[1] ?? null) : (day[0] ?? null);
    }
    if (game === null || startOf(game) <= snap) {
      drop('no game ahead of the snapshot');
      continue;
    }
    const pitcher = resolvePitcher(r.player_name, pitchersOf.get(game.pk) ?? []);
    if (pitcher === null) {
      drop('pitcher not resolved to one of the game\u2019s pitchers');
      continue;
    }
    const over = americanFromDecimal(r.over_price);
    const under = americanFromDecimal(r.under_price);
    if (over === null && under === null) {
      drop('no valid price');
      continue;
    }
    const feed = `${book}|${r.market}`;
    if (!versions.has(feed)) versions.set(feed, new Map());
    const byAt = versions.get(feed);
    if (!byAt.has(r.snapshot_utc)) byAt.set(r.snapshot_utc, { at: r.snapshot_utc, next: r.file_next_change_utc || null, title: r.book, byGame: new Map() });
    const v = byAt.get(r.snapshot_utc);
    if (!v.byGame.has(game.pk)) v.byGame.set(game.pk, new Map());
    // One quote per pitcher and line in a version; a repeat keeps the first (the file's order),
    // except that a two-sided row replaces a one-sided one: Pointsbet and Sportsbet list a line both
    // in their over-only "N+" ladder and, with both sides, as the over/under market (same over
    // price), and keeping the ladder's row lost the under (Mitchell Parker 4.5 at 2025-06-13T22:36:27Z).
    const qk = `${pitcher.key}|${line}`;
    const prev = v.byGame.get(game.pk).get(qk);
    const twoSided = over !== null && under !== null;
    if (!prev || (twoSided && (prev.over === null || prev.under === null))) v.byGame.get(game.pk).set(qk, { pitcher, line, over, under });
    kept += 1;
    keptByMarket[r.market] = (keptByMarket[r.market] ?? 0) + 1;
  }
  const feeds = [...versions]
    .sort((a, b) => cmp(a[0], b[0]))
    .map(([feed, byAt]) => {
      const [book, market] = feed.split('|');
      return { book, market, versions: [...byAt.values()].sort((a, b) => cmp(a.at, b.at)) };
    });
  return { feeds, auTimes: new Map([...auTimes].map(([pk, v]) => [pk, v.ms])), rows: rows.length, kept, keptByMarket, dropped };
}

/** The version of a book standing at t (ISO): written at or before t, not yet replaced. */
export function standingAt(list, t) {
  let lo = 0;
  let hi = list.length - 1;
  let found = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].at <= t) {
      found = list[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found && (found.next === null || t < found.next) ? found : null;
}

const ET = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' });
export function etDate(ms) {
  return ET.format(new Date(ms));
}
