/**
 * EPL season replay builder (issue 42 part A): a replay folder for `propgrade simulate soccer` from
 * ../shared/history (PROVENANCE.md Sources 5-6, NOTES.md §6-8), in the providers' own response shapes.
 *
 * - Odds (`epl_player_props_2024-08_to_2026-01.csv.gz`): every version of every book file. At a
 *   recording time t (each distinct `snapshot_utc`) a book file's quotes are those of its version
 *   standing at t (`snapshot_utc <= t < file_next_change_utc`; empty = still current), as the
 *   repository held them. An event's body is written only when it differs from its previous one.
 *   Events list at t: the matches with a body at or before t that kick off after t.
 * - Odds API shapes: sport key `soccer_epl`; event odds asked with regions=au (the manifest's
 *   `oddsRegions`). Book keys (The Odds API's): Neds -> `neds`, Pointsbet -> `pointsbetau`,
 *   Sportsbet -> `sportsbet`, TAB -> `tab`, Bet365 -> `bet365_au` (the API documents bet365_au for
 *   AFL/NRL main markets; the key is the API's, the market coverage is the scraper's). The title
 *   is the file's `book`. Dabble is left out: pick'em at 1.8/1.8 on both sides is not a market.
 * - Markets: `player_goals` at line 0.5 -> `player_goal_scorer_anytime`, written as the API writes
 *   it: outcome `Yes` with the player as description and no point. Goals 2+/3+ (lines 1.5, 2.5) have
 *   no Odds API key and are left out (counted). `player_shots`, `player_shots_on_target`,
 *   `player_assists` are the API's keys; `player_tackles` is not an Odds API key (none exists) and
 *   follows its pattern (src/domain/stats.ts). Over from `over_price`, Under from `under_price`
 *   (bet365 only), at `point` = line. Passes, fouls and saves are not graded (left out, counted).
 * - Prices: decimal in the file; written as American because the URL asks oddsFormat=american, the
 *   same arithmetic the adapter applies to a decimal answer (mlb-pinnacle-au.mjs americanFromDecimal):
 *   100 x (d - 1) for d >= 2, else -100 / (d - 1), rounded to two decimals. A price <= 1 is no price.
 * - Matches: `match` split on " v " (no-break spaces read as spaces), the book's club names mapped to
 *   the matches file's (NOTES.md §6 join 1), the pairing's match nearest the snapshot; only rows
 *   before kickoff. Event id: `epl-<match_id>` without its `&` (the data holds no Odds API id; marked as such).
 *   Teams are written with ESPN's display names, the ones the ESPN scoreboard carries.
 * - Players: `<hh>` byte escapes decoded; resolved to the season's FPL player by NOTES.md §6 join 2
 *   (all book tokens in the FPL name or web name; else a unique surname with the same initial; else
 *   a unique surname), first among the match's rows, then among players of the two clubs that season.
 *   A resolved player is written under his FPL `player_name` (the name his stats carry); a name not
 *   resolved is left out and counted, never guessed. A resolved player with no row in the match did
 *   not play: his quotes stay (the settle voids them). A player whose stats row names no team (86 rows:
 *   FPL's season-end team, see NOTES.md §8) cannot be placed on a side; his quotes are left out (counted).
 * - Results: per ET day with matches, an ESPN eng.1 scoreboard and one summary per match, recorded at
 *   12:00Z the morning after, from `epl_matches_...csv` and `epl_player_match_stats_...csv.gz`.
 *   Summary rosters carry ESPN's per-player stat names (appearances, totalGoals, goalAssists,
 *   totalShots, shotsOnTarget, foulsCommitted, saves: shared/feeds/espn NOTES.md §8); recorded ESPN
 *   soccer summaries have no minutes and no tackles per player, so two entries are added in the same
 *   {name, value, displayValue} form: `minutes` and `totalTackles` (ESPN's name for tackles in its
 *   soccer statistics). Event ids are the data's `match_id` (not ESPN's ids); team ids and codes are
 *   ESPN's (from the recorded eng.1 scoreboards).
 * - Seed history: whole stats rows (bytes unchanged) of matches before the first day. With
 *   `historyPlayers: 'slate'` (data/replay's bundled matchday) only the rows of the window's players
 *   (a stats row in one of its matches, or a resolved name quoted for one), all of them: the projection
 *   reads 240 days back, but the archetype a player's newest 120 lines (src/domain/archetypes/as-of.ts),
 *   which here reach back to the data's first match.
 *
 *   build({ shared, outDir, from, to })                                   // a season folder with its manifest
 *   buildRecordings({ shared, outDir, from, to, historyPlayers, copySources }) // entries + seed only (data/replay)
 *
 * `copySources` (data/replay) also copies the window's raw source rows, bytes unchanged: the props
 * rows behind every written quote (gzipped), its matches and their player match stats (history/epl-*-<from>.csv*).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { AU_BOOK_KEYS, americanFromDecimal } from './mlb-pinnacle-au.mjs';
import { etDate, replayKey } from './_common.mjs';

const PROPS = 'history/epl_player_props_2024-08_to_2026-01.csv.gz';
const MATCHES = 'history/epl_matches_2024-25_2025-26.csv';
const STATS = 'history/epl_player_match_stats_2024-25_2025-26.csv.gz';
const ODDS_BASE = 'https://api.the-odds-api.com/v4/sports/soccer_epl';
const ESPN_BASE = 'https://site.api.espn.com/apis/site/v2/sports/soccer/eng.1';
/** The order src/domain/stats.ts lists soccer markets in (marketsForSport): the URL the snapshot asks. */
export const SOCCER_MARKETS = ['player_assists', 'player_shots', 'player_shots_on_target', 'player_goal_scorer_anytime', 'player_tackles'];
const MARKET_KEYS = { player_shots: 'player_shots', player_shots_on_target: 'player_shots_on_target', player_assists: 'player_assists', player_tackles: 'player_tackles' };
const JSON_HEADERS = { 'content-type': 'application/json' };
const FINAL = { type: { id: '28', name: 'STATUS_FULL_TIME', state: 'post', completed: true, description: 'Full Time', detail: 'FT', shortDetail: 'FT' } };

/** FPL club name (matches file) -> ESPN id, code and display name (recorded eng.1 scoreboards 2025-05-25, 2025-09-27). */
export const CLUBS = {
  Arsenal: ['359', 'ARS', 'Arsenal'], 'Aston Villa': ['362', 'AVL', 'Aston Villa'], Bournemouth: ['349', 'BOU', 'AFC Bournemouth'],
  Brentford: ['337', 'BRE', 'Brentford'], Brighton: ['331', 'BHA', 'Brighton & Hove Albion'], Burnley: ['379', 'BUR', 'Burnley'],
  Chelsea: ['363', 'CHE', 'Chelsea'], 'Crystal Palace': ['384', 'CRY', 'Crystal Palace'], Everton: ['368', 'EVE', 'Everton'],
  Fulham: ['370', 'FUL', 'Fulham'], Ipswich: ['373', 'IPS', 'Ipswich Town'], Leeds: ['357', 'LEE', 'Leeds United'],
  Leicester: ['375', 'LEI', 'Leicester City'], Liverpool: ['364', 'LIV', 'Liverpool'], 'Man City': ['382', 'MNC', 'Manchester City'],
  'Man Utd': ['360', 'MAN', 'Manchester United'], Newcastle: ['361', 'NEW', 'Newcastle United'], "Nott'm Forest": ['393', 'NFO', 'Nottingham Forest'],
  Southampton: ['376', 'SOU', 'Southampton'], Spurs: ['367', 'TOT', 'Tottenham Hotspur'], Sunderland: ['366', 'SUN', 'Sunderland'],
  'West Ham': ['371', 'WHU', 'West Ham United'], Wolves: ['380', 'WOL', 'Wolverhampton Wanderers'],
};
/** The books' club names -> the matches file's (NOTES.md §6 join 1); others are the same in both. */
const BOOK_CLUB = {
  'AFC Bournemouth': 'Bournemouth', 'Brighton & Hove Albion': 'Brighton', 'Everton FC': 'Everton', 'Ipswich Town': 'Ipswich', 'Leeds United': 'Leeds',
  'Leicester City': 'Leicester', 'Manchester City': 'Man City', 'Manchester United': 'Man Utd', 'Newcastle United': 'Newcastle',
  'Nottingham Forest': "Nott'm Forest", 'Southampton FC': 'Southampton', 'Sunderland AFC': 'Sunderland', 'Tottenham Hotspur': 'Spurs',
  'West Ham United': 'West Ham', 'Wolverhampton Wanderers': 'Wolves',
};
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const nextDay = (d) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const club = (name) => {
  const n = name.replace(/\u00a0/g, ' ').trim();
  return BOOK_CLUB[n] ?? n;
};

/** `J<c3><a9>r<c3><a9>my` -> Jérémy (NOTES.md §6 quirks). */
export function decodeEscapes(s) {
  return s.replace(/(?:<[0-9a-f]{2}>)+/gi, (run) => Buffer.from(run.match(/[0-9a-f]{2}/gi).map((h) => parseInt(h, 16))).toString('utf8'));
}
/** Accents folded (ø -> o), lower case, punctuation and hyphens dropped: the join's name tokens. */
export function nameTokens(s) {
  return decodeEscapes(s).normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[øØ]/g, 'o').toLowerCase().replace(/[-‐]/g, ' ').replace(/[^a-z0-9 ]/g, '').split(/\s+/).filter(Boolean);
}

/** NOTES.md §6 join 2 over candidates [{tokens, web, player}]: the one player meant, or null. */
function resolveIn(name, candidates) {
  const toks = nameTokens(name);
  if (toks.length === 0) return null;
  const uniq = (list) => {
    const ids = [...new Set(list.map((c) => c.player.id))];
    return ids.length === 1 ? list[0].player : null;
  };
  const all = candidates.filter((c) => toks.every((t) => c.tokens.includes(t)) || toks.every((t) => c.web.includes(t)));
  if (all.length > 0) return uniq(all);
  const surname = toks.at(-1);
  const bySurname = candidates.filter((c) => c.tokens.at(-1) === surname || c.web.at(-1) === surname);
  const initial = bySurname.filter((c) => c.tokens[0]?.[0] === toks[0][0]);
  if (toks.length > 1 && initial.length > 0) return uniq(initial);
  return uniq(bySurname);
}

export function buildRecordings({ shared, outDir, from = '2024-08-16', to = '2025-12-13', historyPlayers = 'all', copySources = false }) {
  const gunzip = (rel) => zlib.gunzipSync(fs.readFileSync(path.join(shared, rel))).toString('utf8');
  const entries = [];
  const write = (rel, text) => {
    const full = path.join(outDir, rel);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
  };
  const add = (provider, url, file, body, recordedAt) => {
    write(file, JSON.stringify(body));
    entries.push({ key: replayKey({ provider, url }), provider, url, file, status: 200, headers: JSON_HEADERS, recordedAt });
  };
  const counts = {};
  const count = (why, n = 1) => (counts[why] = (counts[why] ?? 0) + n);
  const unresolvedNames = new Map();

  // --- matches and players -------------------------------------------------------------------------
  const matches = parse(fs.readFileSync(path.join(shared, MATCHES), 'utf8'), { columns: true, skip_empty_lines: true });
  const statsText = gunzip(STATS);
  const stats = parse(statsText, { columns: true, skip_empty_lines: true });
  const byPair = new Map();
  for (const m of matches) {
    const k = `${m.home_team}|${m.away_team}`;
    if (!byPair.has(k)) byPair.set(k, []);
    byPair.get(k).push(m);
  }
  const rowsOf = new Map(); // match_id -> stats rows
  const seasonPlayers = new Map(); // season -> Map(player_id -> { player, tokens, web, teams:Set })
  for (const r of stats) {
    if (!rowsOf.has(r.match_id)) rowsOf.set(r.match_id, []);
    rowsOf.get(r.match_id).push(r);
    if (!seasonPlayers.has(r.season)) seasonPlayers.set(r.season, new Map());
    const list = seasonPlayers.get(r.season);
    if (!list.has(r.player_id)) list.set(r.player_id, { player: { id: r.player_id, name: r.player_name }, tokens: nameTokens(r.player_name), web: nameTokens(r.web_name), teams: new Set() });
    if (r.team) list.get(r.player_id).teams.add(r.team);
  }
  const resolved = new Map(); // match_id|book name -> player | null
  const resolvePlayer = (m, name) => {
    const k = `${m.match_id}|${name}`;
    if (resolved.has(k)) return resolved.get(k);
    const season = seasonPlayers.get(m.season) ?? new Map();
    const inMatch = (rowsOf.get(m.match_id) ?? []).map((r) => season.get(r.player_id));
    const ofClubs = [...season.values()].filter((c) => c.teams.has(m.home_team) || c.teams.has(m.away_team));
    const p = resolveIn(name, inMatch) ?? resolveIn(name, ofClubs);
    resolved.set(k, p);
    return p;
  };
  const inRange = (m) => {
    const d = etDate(m.kickoff_utc);
    return d >= from && d <= to;
  };

  // --- odds: every version of every book file -----------------------------------------------------
  const propsText = gunzip(PROPS);
  const props = parse(propsText, { columns: true, skip_empty_lines: true, raw: true });
  const usedRows = []; // the source lines behind the written quotes (data/replay copies them)
  const versions = new Map(); // source_file -> Map(snapshot_utc -> { at, next, quotes: [] })
  for (const { record: r, raw } of props) {
    if (r.book_key === 'dabble') { count("Dabble rows (pick'em, not a market)"); continue; }
    if (r.source_file === 'bet365_all_player_props.csv') { count('bet365_all_player_props rows (copies of the per-market files)'); continue; }
    let market = MARKET_KEYS[r.market];
    if (r.market === 'player_goals') {
      if (Number(r.line) !== 0.5) { count('goals 2+/3+ rows (no Odds API key)'); continue; }
      market = 'player_goal_scorer_anytime';
    }
    if (!market) { count(`${r.market} rows (not graded)`); continue; }
    const [home, away] = r.match.replace(/\u00a0/g, ' ').split(' v ').map(club);
    const pair = byPair.get(`${home}|${away}`);
    if (!pair) { count('rows whose match is not in the matches file'); continue; }
    const snap = Date.parse(r.snapshot_utc);
    const m = [...pair].sort((a, b) => Math.abs(Date.parse(a.kickoff_utc) - snap) - Math.abs(Date.parse(b.kickoff_utc) - snap))[0];
    if (Date.parse(m.kickoff_utc) <= snap) { count('rows at or after kickoff'); continue; }
    if (!inRange(m)) continue;
    const name = decodeEscapes(r.player_name).trim();
    const p = resolvePlayer(m, name);
    if (p === null) {
      count('rows with an unresolved player name');
      unresolvedNames.set(`${m.match_id}|${name}`, name);
      continue;
    }
    const row = (rowsOf.get(m.match_id) ?? []).find((x) => x.player_id === p.id);
    if (row && !row.team) { count('rows of a player whose stats row names no team'); continue; }
    if (!versions.has(r.source_file)) versions.set(r.source_file, new Map());
    const byAt = versions.get(r.source_file);
    if (!byAt.has(r.snapshot_utc)) byAt.set(r.snapshot_utc, { at: r.snapshot_utc, next: r.file_next_change_utc, title: r.book, key: AU_BOOK_KEYS[r.book_key], quotes: [] });
    byAt.get(r.snapshot_utc).quotes.push({ m, market, player: p.name, line: Number(r.line), over: americanFromDecimal(r.over_price), under: americanFromDecimal(r.under_price) });
    usedRows.push(raw);
  }
  const fileVersions = [...versions.entries()].sort((a, b) => cmp(a[0], b[0])).map(([, byAt]) => [...byAt.values()].sort((a, b) => cmp(a.at, b.at)));
  const standing = (list, t) => {
    let v = null;
    for (const x of list) if (x.at <= t) v = x;
    return v && (v.next === '' || v.next > t) ? v : null;
  };
  const times = [...new Set(fileVersions.flatMap((list) => list.map((v) => v.at)))].sort(cmp);
  const events = new Map(); // match_id -> Odds API event
  const eventOf = (m) => {
    if (!events.has(m.match_id)) {
      events.set(m.match_id, { id: `epl-${m.match_id.replace(/[^a-z0-9-]/gi, '')}`, sport_key: 'soccer_epl', sport_title: 'EPL', commence_time: m.kickoff_utc, home_team: CLUBS[m.home_team][2], away_team: CLUBS[m.away_team][2], m });
    }
    return events.get(m.match_id);
  };
  const lastBody = new Map();
  const seenBy = new Map();
  let bodies = 0;
  let quotesWritten = 0;
  const url = (id) => `${ODDS_BASE}/events/${id}/odds?dateFormat=iso&markets=${SOCCER_MARKETS.join(',')}&oddsFormat=american&regions=au`;
  const strip = ({ m: _m, ...e }) => e;
  for (const t of times) {
    const stamp = t.replace(/:/g, '-');
    const byMatch = new Map(); // match_id -> Map(bookKey -> { title, last, markets: Map(market -> Map(k -> outcome)) })
    for (const list of fileVersions) {
      const v = standing(list, t);
      if (!v) continue;
      for (const q of v.quotes) {
        if (Date.parse(q.m.kickoff_utc) <= Date.parse(t)) continue;
        if (!byMatch.has(q.m.match_id)) byMatch.set(q.m.match_id, { m: q.m, books: new Map() });
        const books = byMatch.get(q.m.match_id).books;
        if (!books.has(v.key)) books.set(v.key, { title: v.title, last: v.at, markets: new Map() });
        const b = books.get(v.key);
        if (v.at > b.last) b.last = v.at;
        if (!b.markets.has(q.market)) b.markets.set(q.market, { last: v.at, outcomes: new Map() });
        const mk = b.markets.get(q.market);
        const put = (name, price) => {
          if (price === null) return;
          const o = q.market === 'player_goal_scorer_anytime' ? { name: 'Yes', description: q.player, price } : { name, description: q.player, price, point: q.line };
          const k = `${name}|${q.player}|${q.line}`;
          if (mk.outcomes.has(k)) { count('quotes repeated for one book, player and line (first kept)'); return; }
          mk.outcomes.set(k, o);
        };
        put('Over', q.over);
        if (q.market !== 'player_goal_scorer_anytime') put('Under', q.under);
      }
    }
    for (const [matchId, { m, books }] of [...byMatch].sort((a, b) => cmp(a[0], b[0]))) {
      const bookmakers = [...books.keys()].sort(cmp).map((key) => {
        const b = books.get(key);
        const markets = [...b.markets.keys()].sort((x, y) => SOCCER_MARKETS.indexOf(x) - SOCCER_MARKETS.indexOf(y)).map((mkey) => {
          const outcomes = [...b.markets.get(mkey).outcomes.values()].sort((x, y) => cmp(x.description, y.description) || (x.point ?? 0) - (y.point ?? 0) || cmp(x.name, y.name));
          return { key: mkey, last_update: b.markets.get(mkey).last, outcomes };
        }).filter((mk) => mk.outcomes.length > 0);
        return { key, title: b.title, last_update: b.last, markets };
      }).filter((b) => b.markets.length > 0);
      if (bookmakers.length === 0) continue;
      const text = JSON.stringify(bookmakers);
      if (lastBody.get(matchId) === text) continue;
      lastBody.set(matchId, text);
      const e = eventOf(m);
      if (!seenBy.has(matchId)) seenBy.set(matchId, t);
      add('odds-api', url(e.id), `odds-api/soccer-event-odds-${e.id}-${stamp}.json`, { ...strip(e), bookmakers }, t);
      bodies += 1;
      quotesWritten += bookmakers.reduce((n, b) => n + b.markets.reduce((k, mk) => k + mk.outcomes.length, 0), 0);
    }
    const open = [...events.values()].filter((e) => seenBy.has(e.m.match_id) && Date.parse(e.commence_time) > Date.parse(t)).sort((a, b) => cmp(a.commence_time, b.commence_time) || cmp(a.id, b.id)).map(strip);
    if (open.length > 0) add('odds-api', `${ODDS_BASE}/events?dateFormat=iso`, `odds-api/soccer-events-${stamp}.json`, open, t);
  }

  // --- results: ESPN scoreboard and summaries the morning after ----------------------------------
  // Every played match in range, priced or not (`summaries` minus `matches` is those with no price):
  // the settle stores its rows as the history the next snapshots project from, and a match no book
  // priced is still a match he played (2024-08-16..2025-01-25: 44 of 225 matches have no price in
  // the props file; leaving them out dropped their rows from the history).
  const byDay = new Map();
  for (const m of matches.filter(inRange)) {
    const d = etDate(m.kickoff_utc);
    if (!byDay.has(d)) byDay.set(d, []);
    byDay.get(d).push(m);
  }
  const teamOf = (name) => ({ id: CLUBS[name][0], abbreviation: CLUBS[name][1], displayName: CLUBS[name][2] });
  const espnDate = (iso) => `${iso.slice(0, 16)}Z`;
  const stat = (name, value) => ({ name, value, displayValue: String(value) });
  let summaries = 0;
  for (const [day, list] of [...byDay].sort((a, b) => cmp(a[0], b[0]))) {
    const resultsAt = `${nextDay(day)}T12:00:00Z`;
    const scoreboard = [];
    for (const m of list.sort((a, b) => cmp(a.kickoff_utc, b.kickoff_utc) || cmp(a.match_id, b.match_id))) {
      const side = (which) => {
        const score = Number(m[`${which}_score`]);
        const other = Number(m[`${which === 'home' ? 'away' : 'home'}_score`]);
        return { id: CLUBS[m[`${which}_team`]][0], homeAway: which, winner: score > other, score: String(score), team: teamOf(m[`${which}_team`]) };
      };
      const competition = { id: m.match_id, date: espnDate(m.kickoff_utc), competitors: [side('home'), side('away')], status: FINAL };
      scoreboard.push({ id: m.match_id, date: espnDate(m.kickoff_utc), name: `${CLUBS[m.away_team][2]} at ${CLUBS[m.home_team][2]}`, shortName: `${CLUBS[m.away_team][1]} @ ${CLUBS[m.home_team][1]}`, competitions: [competition], status: FINAL });
      const rows = rowsOf.get(m.match_id) ?? [];
      count('stats rows with no team (left out of the summary)', rows.filter((r) => !r.team).length);
      const rosters = ['home', 'away'].map((which) => ({
        homeAway: which,
        team: teamOf(m[`${which}_team`]),
        roster: rows.filter((r) => r.team === m[`${which}_team`]).map((r) => {
          const minutes = Number(r.minutes_played);
          return {
            active: true, starter: r.start_min === '0' && minutes > 0, subbedIn: minutes > 0 && r.start_min !== '0',
            athlete: { id: r.player_id, fullName: r.player_name, displayName: r.player_name },
            stats: [stat('appearances', minutes > 0 ? 1 : 0), stat('foulsCommitted', Number(r.fouls_committed)), stat('saves', Number(r.saves)), stat('goalAssists', Number(r.assists)),
              stat('shotsOnTarget', Number(r.shots_on_target)), stat('totalGoals', Number(r.goals)), stat('totalShots', Number(r.total_shots)),
              stat('totalTackles', Number(r.tackles)), stat('minutes', minutes)],
          };
        }),
      }));
      add('espn', `${ESPN_BASE}/summary?event=${encodeURIComponent(m.match_id)}`, `espn/soccer-summary-${m.match_id}.json`, { header: { id: m.match_id, competitions: [competition] }, rosters }, resultsAt);
      summaries += 1;
    }
    add('espn', `${ESPN_BASE}/scoreboard?dates=${day.replaceAll('-', '')}`, `espn/soccer-scoreboard-${day.replaceAll('-', '')}.json`, { events: scoreboard }, resultsAt);
  }

  // --- seed history ------------------------------------------------------------------------------
  const lines = statsText.split('\n');
  const seedFile = `history/epl-player-match-stats-before-${from}.csv`;
  let seedRows;
  if (historyPlayers === 'all') {
    const kick = lines[0].split(',').indexOf('kickoff_utc');
    seedRows = lines.slice(1).filter((l) => l && etDate(l.split(',')[kick]) < from).map((l) => `${l}\n`);
  } else {
    // The window's players: a stats row in one of its matches, or a resolved name quoted for one;
    // by folded name, as the import keys a player ("Da Cunha" in 2024-25 is "da Cunha" in 2025-26).
    const key = (name) => nameTokens(name).join(' ');
    const players = new Set([...resolved.values()].filter((p) => p !== null).map((p) => key(p.name)));
    for (const e of events.values()) for (const r of rowsOf.get(e.m.match_id) ?? []) players.add(key(r.player_name));
    seedRows = parse(statsText, { columns: true, skip_empty_lines: true, raw: true })
      .filter(({ record: r }) => players.has(key(r.player_name)) && etDate(r.kickoff_utc) < from)
      .map(({ raw }) => raw);
  }
  write(seedFile, `${lines[0]}\n${seedRows.join('')}`);
  const sources = [];
  if (copySources) {
    // The window's raw rows, bytes unchanged (header + whole lines): the props rows behind every
    // written quote, the matches and the player match stats the results were written from.
    const header = (text) => text.slice(0, text.indexOf('\n') + 1);
    const ids = new Set([...events.values()].map((e) => e.m.match_id));
    const slice = (rel, text, rows) => {
      const csv = `${header(text)}${rows.join('')}`;
      // The props rows (3 MB as text) are kept gzipped, as ../shared keeps them; fixed level, no name or time in the header.
      if (rel.endsWith('.gz')) fs.writeFileSync(path.join(outDir, rel), zlib.gzipSync(csv, { level: 9 }));
      else write(rel, csv);
      sources.push(rel);
    };
    const matchesText = fs.readFileSync(path.join(shared, MATCHES), 'utf8');
    slice(`history/epl-props-${from}.csv.gz`, propsText, usedRows);
    slice(`history/epl-matches-${from}.csv`, matchesText, parse(matchesText, { columns: true, skip_empty_lines: true, raw: true }).filter(({ record }) => ids.has(record.match_id)).map(({ raw }) => raw));
    slice(`history/epl-player-match-stats-${from}.csv`, statsText, parse(statsText, { columns: true, skip_empty_lines: true, raw: true }).filter(({ record }) => ids.has(record.match_id)).map(({ raw }) => raw));
  }
  entries.sort((a, b) => cmp(a.key, b.key) || cmp(a.recordedAt, b.recordedAt));
  const first = [...seenBy.values()].sort(cmp)[0] ?? `${from}T12:00:00Z`;
  const summary = {
    from, to, snapshots: entries.filter((e) => e.url.endsWith('/events?dateFormat=iso')).length, matches: events.size, eventOdds: bodies, outcomesWritten: quotesWritten,
    summaries, days: byDay.size, seedRows: seedRows.length, entries: entries.length, unresolvedPlayerNames: unresolvedNames.size, unresolvedExamples: [...new Set(unresolvedNames.values())].sort(cmp).slice(0, 15), leftOut: counts,
  };
  return { entries, seed: { sport: 'soccer', file: seedFile }, sources, first, summary };
}

/** A season folder: the recordings of [from, to] and their manifest (regions=au: the books' region). */
export function build({ shared, outDir, from = '2024-08-16', to = '2025-12-13' }) {
  const { entries, seed, first, summary } = buildRecordings({ shared, outDir, from, to });
  const manifest = { version: 1, defaultNow: first, clocks: { soccer: first }, oddsRegions: 'au', seed: { gamelogs: [seed] }, season: { sport: 'soccer', from, to }, entries };
  fs.writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return summary;
}
