#!/usr/bin/env node
/**
 * Builds data/replay/: two real NBA days (2025-11-04, 2025-11-05 ET) re-assembled from
 * ../shared/history into the response shapes of The Odds API v4 and ESPN, plus the
 * game-log history the projections start from, plus the context routes' recordings (news,
 * futures, fight cards: scripts/build-context-replay.mjs) and the stats routes' recordings (arsenal, depth,
 * lineups, MLB box scores: scripts/build-stats-replay.mjs), real payloads copied unchanged, plus one real WNBA, MLB and
 * EPL day each (their own clocks). Values are copied, never computed or
 * filled; see data/README.md for what each file holds and where every value comes from.
 *
 *   node scripts/build-replay.mjs [--shared <dir>] [--out <dir>]
 *
 * Deterministic: the same inputs give the same bytes (everything is sorted explicitly).
 * Plain Node ESM on purpose (no TypeScript build step), so it cannot import src/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { buildContextRecordings } from './build-context-replay.mjs';
import { buildStatsRecordings } from './build-stats-replay.mjs';
import { buildRecordings as buildWnbaRecordings } from './season-replay/wnba.mjs';
import { buildMlbDay } from './build-mlb-day-replay.mjs';
import { buildRecordings as buildSoccerRecordings } from './season-replay/soccer.mjs';
import { byKeys, cmp, espnDate, etDate, nextDay, replayKey, writeFile } from './season-replay/_common.mjs';

// The shared replay helpers stay importable from here, where the other builders first found them.
export { byKeys, cmp, espnDate, etDate, nextDay, replayKey };

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** ET slate dates bundled, in order. The first one bounds the seed history. */
export const DAYS = ['2025-11-04', '2025-11-05'];
export const DEFAULT_NOW = '2025-11-05T17:05:00Z';

/**
 * The bundled WNBA day (real Odds API historical responses + ESPN box scores, data/README.md "WNBA
 * day") and its own clock: after every morning snapshot of the slate (the last is 10:55:37Z), before
 * the first closing one (18:50:37Z). A replay without --now grades each sport at its own clock.
 */
export const WNBA_DAY = '2024-06-02';
export const WNBA_NOW = '2024-06-02T11:00:00Z';

/**
 * The bundled EPL matchday (data/README.md "EPL matchday"): the six Saturday matches of 2025-08-30
 * as the scrapes priced them (Neds, Pointsbet, Sportsbet, TAB, bet365), settled from the
 * FPL-Elo-Insights player match stats. Its clock is the last scrape before the first kickoff
 * (10:36:08Z; Chelsea v Fulham kicks off 11:30Z). Its books are of the au region, which the
 * manifest's `oddsRegions` says for soccer only.
 */
export const SOCCER_DAY = '2025-08-30';
export const SOCCER_NOW = '2025-08-30T10:36:08Z';

export const HISTORY = {
  threes: 'history/nba_player_threes_props_2024-10-22_to_2025-11-23.csv',
  allMarkets: 'history/nba_player_props_all_markets_2025-10-21_to_2025-11-09.csv',
  gamelogs: 'history/nba_player_game_logs_2024-25_and_2025-26.csv',
};
const ESPN_DIR = 'feeds/espn';

/** Order of marketsForSport('nba') in src/domain/stats.ts; the request carries them in this order. */
export const NBA_MARKETS = [
  'player_points',
  'player_rebounds',
  'player_assists',
  'player_threes',
  'player_points_rebounds_assists',
  'player_blocks',
  'player_steals',
];

export const ODDS_BASE = 'https://api.the-odds-api.com/v4/sports/basketball_nba';
export const ESPN_BASE = 'https://site.api.espn.com/apis/site/v2/sports/basketball/nba';
const JSON_HEADERS = { 'content-type': 'application/json' };

/** Book titles exactly as real Odds API payloads in ../shared/feeds/odds-api spell them. */
const BOOK_TITLES = {
  betmgm: 'BetMGM',
  betonlineag: 'BetOnline.ag',
  betrivers: 'BetRivers',
  bovada: 'Bovada',
  draftkings: 'DraftKings',
  fanatics: 'Fanatics',
  fanduel: 'FanDuel',
  williamhill_us: 'Caesars',
};

/** Odds API full team name -> NBA.com abbreviation (the game logs' `matchup`/`opponent`). */
const NBA_ABBR = {
  'Atlanta Hawks': 'ATL',
  'Boston Celtics': 'BOS',
  'Brooklyn Nets': 'BKN',
  'Charlotte Hornets': 'CHA',
  'Chicago Bulls': 'CHI',
  'Cleveland Cavaliers': 'CLE',
  'Dallas Mavericks': 'DAL',
  'Denver Nuggets': 'DEN',
  'Detroit Pistons': 'DET',
  'Golden State Warriors': 'GSW',
  'Houston Rockets': 'HOU',
  'Indiana Pacers': 'IND',
  'Los Angeles Clippers': 'LAC',
  'Los Angeles Lakers': 'LAL',
  'Memphis Grizzlies': 'MEM',
  'Miami Heat': 'MIA',
  'Milwaukee Bucks': 'MIL',
  'Minnesota Timberwolves': 'MIN',
  'New Orleans Pelicans': 'NOP',
  'New York Knicks': 'NYK',
  'Oklahoma City Thunder': 'OKC',
  'Orlando Magic': 'ORL',
  'Philadelphia 76ers': 'PHI',
  'Phoenix Suns': 'PHX',
  'Portland Trail Blazers': 'POR',
  'Sacramento Kings': 'SAC',
  'San Antonio Spurs': 'SAS',
  'Toronto Raptors': 'TOR',
  'Utah Jazz': 'UTA',
  'Washington Wizards': 'WAS',
};

/** NBA.com -> ESPN abbreviation where they differ (ESPN spelling checked against ../shared/feeds/espn). */
const ESPN_ABBR = { GSW: 'GS', NYK: 'NY', SAS: 'SA', NOP: 'NO', UTA: 'UTAH', WAS: 'WSH' };

/** The boxscore column set of a real ESPN NBA summary (nba-summary-401772994-2025-05-31.json). */
const BOX_NAMES = ['MIN', 'FG', '3PT', 'FT', 'OREB', 'DREB', 'REB', 'AST', 'STL', 'BLK', 'TO', 'PF', '+/-', 'PTS'];
const BOX_KEYS = [
  'minutes',
  'fieldGoalsMade-fieldGoalsAttempted',
  'threePointFieldGoalsMade-threePointFieldGoalsAttempted',
  'freeThrowsMade-freeThrowsAttempted',
  'offensiveRebounds',
  'defensiveRebounds',
  'rebounds',
  'assists',
  'steals',
  'blocks',
  'turnovers',
  'fouls',
  'plusMinus',
  'points',
];
const BOX_DESCRIPTIONS = [
  'Minutes',
  'Field Goals Made/Attempted',
  '3-Point Field Goals Made/Attempted',
  'Free Throws Made/Attempted',
  'Offensive Rebounds',
  'Defensive Rebounds',
  'Rebounds',
  'Assists',
  'Steals',
  'Blocks',
  'Turnovers',
  'Personal Fouls',
  'Teams net points while player is on the court.',
  'Points',
];

export const FINAL_STATUS = {
  type: { id: '3', name: 'STATUS_FINAL', state: 'post', completed: true, description: 'Final' },
};

// ---------------------------------------------------------------------------------------------
// Small pure helpers

/** A price or line from the CSV; empty stays null (one side unpriced), never a default. */
function num(raw, what) {
  if (raw === '') return null;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`not a number in ${what}: ${JSON.stringify(raw)}`);
  return n;
}

/** Box-score count as ESPN prints it ("19.0" -> "19"); the value is unchanged. */
function count(raw, what) {
  const n = num(raw, what);
  if (n === null) throw new Error(`missing ${what}`);
  return String(n);
}

function plusMinus(raw, what) {
  const n = num(raw, what);
  if (n === null) throw new Error(`missing ${what}`);
  return n > 0 ? `+${n}` : String(n);
}

export function readCsv(file) {
  return parse(fs.readFileSync(file), { columns: true, raw: true, skip_empty_lines: true });
}


// ---------------------------------------------------------------------------------------------
// ESPN team identities, read from the real ESPN recordings (static facts: id, abbreviation, name)

export function loadEspnTeams(sharedDir) {
  const dir = path.join(sharedDir, ESPN_DIR);
  const teams = new Map();
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    if (typeof node.uid === 'string' && node.uid.startsWith('s:40~l:46~t:') && node.abbreviation && node.displayName && node.id) {
      const team = { id: String(node.id), uid: node.uid, abbreviation: node.abbreviation, displayName: node.displayName };
      const seen = teams.get(team.abbreviation);
      if (seen && JSON.stringify(seen) !== JSON.stringify(team)) {
        throw new Error(`ESPN recordings disagree on team ${team.abbreviation}`);
      }
      teams.set(team.abbreviation, team);
    }
    for (const value of Object.values(node)) visit(value);
  };
  for (const file of fs.readdirSync(dir).filter((f) => f.startsWith('nba-') && f.endsWith('.json')).sort(cmp)) {
    visit(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
  }
  return teams;
}

// ---------------------------------------------------------------------------------------------
// Games and quotes

function parseGame(game) {
  const [away, home] = game.split(' @ ');
  if (!away || !home || !NBA_ABBR[away] || !NBA_ABBR[home]) throw new Error(`unknown game ${game}`);
  return { away, home };
}

/** The 17:00 snapshot's games keyed by (game, game_time): the only source of Odds API event ids. */
export function gamesOf(allRows, label) {
  const games = new Map();
  for (const { record: r } of allRows) {
    if (r.snapshot_file_label !== label) continue;
    const key = `${r.game}|${r.game_time}`;
    const seen = games.get(key);
    if (seen && seen.id !== r.event_id) throw new Error(`two event ids for ${key}`);
    if (!seen) games.set(key, { id: r.event_id, commenceTime: r.game_time, ...parseGame(r.game) });
  }
  return games;
}

/**
 * One quote row: the all-markets file has no per-market stamp (the snapshot time stands in);
 * the threes file carries The Odds API's own `market_last_update`.
 */
export function quote(eventId, r, lastUpdate) {
  return {
    eventId,
    book: r.bookmaker,
    market: r.market,
    player: r.player,
    line: num(r.line, 'line'),
    over: num(r.over_odds, 'over_odds'),
    under: num(r.under_odds, 'under_odds'),
    lastUpdate,
  };
}

export function eventsBody(games) {
  return [...games]
    .sort(byKeys((g) => g.commenceTime, (g) => g.id))
    .map((g) => ({
      id: g.id,
      sport_key: 'basketball_nba',
      sport_title: 'NBA',
      commence_time: g.commenceTime,
      home_team: g.home,
      away_team: g.away,
    }));
}

/** Event-odds response (live /events/{id}/odds shape: bookmakers carry no last_update). */
export function eventOddsBody(game, quotes) {
  const books = new Map();
  for (const q of quotes) {
    if (!BOOK_TITLES[q.book]) throw new Error(`no title for book ${q.book}`);
    if (!NBA_MARKETS.includes(q.market)) throw new Error(`unexpected market ${q.market}`);
    const markets = books.get(q.book) ?? new Map();
    books.set(q.book, markets);
    const market = markets.get(q.market) ?? { lastUpdate: q.lastUpdate, quotes: [] };
    if (market.lastUpdate !== q.lastUpdate) throw new Error(`two last_update values for ${game.id} ${q.book} ${q.market}`);
    markets.set(q.market, market);
    market.quotes.push(q);
  }
  const bookmakers = [...books.keys()].sort(cmp).map((book) => {
    const markets = books.get(book);
    return {
      key: book,
      title: BOOK_TITLES[book],
      markets: NBA_MARKETS.filter((m) => markets.has(m)).map((m) => {
        const { lastUpdate, quotes: qs } = markets.get(m);
        const outcomes = [];
        for (const q of [...qs].sort(byKeys((x) => x.player, (x) => x.line))) {
          if (q.over !== null) outcomes.push({ name: 'Over', description: q.player, price: q.over, point: q.line });
          if (q.under !== null) outcomes.push({ name: 'Under', description: q.player, price: q.under, point: q.line });
        }
        return { key: m, last_update: lastUpdate, outcomes };
      }),
    };
  });
  return {
    id: game.id,
    sport_key: 'basketball_nba',
    sport_title: 'NBA',
    commence_time: game.commenceTime,
    home_team: game.home,
    away_team: game.away,
    bookmakers,
  };
}

export function assertUniqueQuotes(quotes, what) {
  const seen = new Set();
  for (const q of quotes) {
    const k = `${q.eventId}|${q.book}|${q.market}|${q.player}|${q.line}`;
    if (seen.has(k)) throw new Error(`duplicate quote ${k} in ${what}`);
    seen.add(k);
  }
}

// ---------------------------------------------------------------------------------------------
// Results (ESPN shapes) from the game logs

export function espnTeam(teams, oddsName) {
  const nba = NBA_ABBR[oddsName];
  const abbreviation = ESPN_ABBR[nba] ?? nba;
  // Not every team appears in the ESPN recordings; then only the abbreviation and name are known.
  return teams.get(abbreviation) ?? { abbreviation, displayName: oddsName };
}

/** Game-log rows of one game, by NBA.com team, with the home/away and W/L they report. */
export function logsOfGame(logsByDate, date, game) {
  const homeAbbr = NBA_ABBR[game.home];
  const awayAbbr = NBA_ABBR[game.away];
  const rows = (logsByDate.get(date) ?? []).filter((r) => {
    const team = r.matchup.split(' ')[0];
    return (team === homeAbbr && r.opponent === awayAbbr) || (team === awayAbbr && r.opponent === homeAbbr);
  });
  const side = (abbr, homeAway) => {
    const mine = rows.filter((r) => r.matchup.split(' ')[0] === abbr);
    for (const r of mine) {
      if (r.home_away !== homeAway) throw new Error(`${r.player} ${date}: logs say ${r.home_away}, odds say ${homeAway}`);
    }
    const results = new Set(mine.map((r) => r.result));
    if (results.size > 1) throw new Error(`${abbr} ${date}: game logs disagree on the result`);
    return { rows: mine, result: [...results][0] ?? null };
  };
  return { home: side(homeAbbr, 'HOME'), away: side(awayAbbr, 'AWAY') };
}

/** W/L for both sides only when the logs report opposite results; otherwise the game is not known final. */
export function finalResult(logs) {
  const h = logs.home.result;
  const a = logs.away.result;
  if ((h === 'W' && a === 'L') || (h === 'L' && a === 'W')) return { homeWon: h === 'W' };
  return null;
}

export function competitor(team, homeAway, winner) {
  return { ...(team.id ? { id: team.id } : {}), homeAway, winner, team };
}

function athleteLine(r) {
  const what = `${r.player} ${r.date}`;
  const minutes = num(r.minutes, `${what} minutes`);
  const athlete = { id: r.player_id, displayName: r.player };
  if (minutes === 0) return { athlete, didNotPlay: true, stats: [] };
  return {
    athlete,
    didNotPlay: false,
    stats: [
      count(r.minutes, `${what} minutes`),
      `${count(r.fgm, what)}-${count(r.fga, what)}`,
      `${count(r.threes_made, what)}-${count(r.threes_attempted, what)}`,
      `${count(r.ftm, what)}-${count(r.fta, what)}`,
      count(r.oreb, what),
      count(r.dreb, what),
      count(r.reb, what),
      count(r.ast, what),
      count(r.stl, what),
      count(r.blk, what),
      count(r.tov, what),
      count(r.pf, what),
      plusMinus(r.plus_minus, what),
      count(r.pts, what),
    ],
  };
}

export function teamBox(team, rows, displayOrder) {
  return {
    team,
    statistics: [
      {
        names: BOX_NAMES,
        keys: BOX_KEYS,
        labels: BOX_NAMES,
        descriptions: BOX_DESCRIPTIONS,
        athletes: [...rows].sort(byKeys((r) => r.player, (r) => r.player_id)).map(athleteLine),
      },
    ],
    displayOrder,
  };
}

// ---------------------------------------------------------------------------------------------
// Build

export function build({ sharedDir, outDir }) {
  const teams = loadEspnTeams(sharedDir);
  const allRows = readCsv(path.join(sharedDir, HISTORY.allMarkets));
  const threesRows = readCsv(path.join(sharedDir, HISTORY.threes));
  const logText = readCsv(path.join(sharedDir, HISTORY.gamelogs));
  const logHeader = fs.readFileSync(path.join(sharedDir, HISTORY.gamelogs), 'utf8').split('\n', 1)[0];

  const logsByDate = new Map();
  for (const { record } of logText) {
    const list = logsByDate.get(record.date) ?? [];
    list.push(record);
    logsByDate.set(record.date, list);
  }

  const entries = [];
  const summary = { days: [] };
  const add = (provider, url, file, body, recordedAt) => {
    writeFile(outDir, file, body);
    entries.push({ key: replayKey({ provider, url }), provider, url, file, status: 200, headers: JSON_HEADERS, recordedAt });
  };

  for (const day of DAYS) {
    const compact = day.replaceAll('-', '');
    const games = gamesOf(allRows, `${compact}_170000`);
    const gameList = [...games.values()];
    for (const g of gameList) {
      if (etDate(g.commenceTime) !== day) throw new Error(`${g.id} is not on the ${day} ET slate`);
    }
    const at17 = `${day}T17:00:00Z`;
    const at15 = `${day}T15:00:00Z`;

    const quotes17 = allRows
      .filter(({ record: r }) => r.snapshot_file_label === `${compact}_170000`)
      .map(({ record: r }) => quote(games.get(`${r.game}|${r.game_time}`).id, r, at17));
    const quotes15 = threesRows
      .filter(({ record: r }) => r.snapshot_date_utc === day)
      .map(({ record: r }) => {
        const game = games.get(`${r.game}|${r.game_time}`);
        if (!game) throw new Error(`threes row ${r.player} ${r.game} has no event id in the 17:00 file`);
        if (r.market !== 'player_threes' || !r.market_last_update) throw new Error(`unexpected threes row ${r.player} ${r.game}`);
        return quote(game.id, r, r.market_last_update);
      });
    assertUniqueQuotes(quotes17, `${day} 17:00`);
    assertUniqueQuotes(quotes15, `${day} 15:00`);

    const dayInfo = { day, games: gameList.length, quotes15: quotes15.length, quotes17: quotes17.length, finals: 0, athletes: 0 };
    summary.days.push(dayInfo);

    for (const [at, quotes] of [[at15, quotes15], [at17, quotes17]]) {
      const stamp = at.replaceAll(':', '-');
      const ids = new Set(quotes.map((q) => q.eventId));
      const listed = gameList.filter((g) => ids.has(g.id) && g.commenceTime > at);
      add('odds-api', `${ODDS_BASE}/events?dateFormat=iso`, `odds-api/nba-events-${stamp}.json`, JSON.stringify(eventsBody(listed)), at);
      for (const g of listed) {
        const url = `${ODDS_BASE}/events/${g.id}/odds?dateFormat=iso&markets=${NBA_MARKETS.join(',')}&oddsFormat=american&regions=us`;
        const body = eventOddsBody(g, quotes.filter((q) => q.eventId === g.id));
        add('odds-api', url, `odds-api/nba-event-odds-${g.id}-${stamp}.json`, JSON.stringify(body), at);
      }
    }

    // Results as ESPN would have served them the morning after the slate.
    const resultsAt = `${nextDay(day)}T12:00:00Z`;
    const events = [];
    for (const g of [...gameList].sort(byKeys((x) => x.commenceTime, (x) => x.id))) {
      const logs = logsOfGame(logsByDate, day, g);
      const final = finalResult(logs);
      if (!final) continue; // not provably final from the logs: absent, so it stays unsettled
      const home = espnTeam(teams, g.home);
      const away = espnTeam(teams, g.away);
      const competitors = [competitor(home, 'home', final.homeWon), competitor(away, 'away', !final.homeWon)];
      const competition = { id: g.id, date: espnDate(g.commenceTime), competitors, status: FINAL_STATUS };
      events.push({
        id: g.id,
        date: espnDate(g.commenceTime),
        name: `${away.displayName} at ${home.displayName}`,
        shortName: `${away.abbreviation} @ ${home.abbreviation}`,
        competitions: [competition],
        status: FINAL_STATUS,
      });
      const summaryBody = {
        boxscore: { players: [teamBox(away, logs.away.rows, 1), teamBox(home, logs.home.rows, 2)] },
        header: { id: g.id, competitions: [competition] },
      };
      add('espn', `${ESPN_BASE}/summary?event=${g.id}`, `espn/nba-summary-${g.id}.json`, JSON.stringify(summaryBody), resultsAt);
      dayInfo.finals += 1;
      dayInfo.athletes += logs.home.rows.length + logs.away.rows.length;
    }
    add('espn', `${ESPN_BASE}/scoreboard?dates=${compact}`, `espn/nba-scoreboard-${compact}.json`, JSON.stringify({ events }), resultsAt);
  }

  // Projection history: whole source rows (bytes unchanged) of games before the first bundled day.
  const seedFile = `history/nba-gamelogs-before-${DAYS[0]}.csv`;
  const seedRows = logText.filter(({ record }) => record.date < DAYS[0]).map(({ raw }) => raw);
  writeFile(outDir, seedFile, `${logHeader}\n${seedRows.join('')}`);
  summary.seedRows = seedRows.length;

  // Context routes (news, futures, fight cards): real payloads from ../shared/feeds, bytes unchanged.
  const context = buildContextRecordings({ sharedDir, outDir });
  for (const c of context) entries.push({ key: replayKey(c), provider: c.provider, url: c.url, file: c.file, status: 200, headers: JSON_HEADERS, recordedAt: c.recordedAt });
  summary.contextEntries = context.length;

  // Stats routes (arsenal, depth, lineups, MLB box scores): real payloads from ../shared/feeds, bytes unchanged.
  const stats = buildStatsRecordings({ sharedDir, outDir });
  for (const c of stats) entries.push({ key: replayKey(c), provider: c.provider, url: c.url, file: c.file, status: 200, headers: { 'content-type': c.contentType }, recordedAt: c.recordedAt });
  summary.statsEntries = stats.length;

  // WNBA: one real day, its history only the earlier games of the players in its box scores.
  const wnba = buildWnbaRecordings({ shared: sharedDir, outDir, from: WNBA_DAY, to: WNBA_DAY, historyPlayers: 'slate' });
  entries.push(...wnba.entries);
  summary.wnba = wnba.summary;

  // MLB: the real day of 2025-08-16 (strikeout props, box scores, seed history): scripts/build-mlb-day-replay.mjs.
  const mlb = buildMlbDay({ sharedDir, outDir });
  for (const c of mlb.entries) entries.push({ key: replayKey(c), provider: c.provider, url: c.url, file: c.file, status: 200, headers: { 'content-type': c.contentType }, recordedAt: c.recordedAt });
  summary.mlb = mlb.summary;

  // Soccer: the real EPL Saturday of 2025-09-20 (scripts/season-replay/soccer.mjs), its history only the window's players.
  const soccer = buildSoccerRecordings({ shared: sharedDir, outDir, from: SOCCER_DAY, to: SOCCER_DAY, historyPlayers: 'slate', copySources: true });
  if (!soccer.entries.some((e) => e.recordedAt === SOCCER_NOW && e.url.endsWith('/events?dateFormat=iso'))) throw new Error(`no EPL scrape at ${SOCCER_NOW}`);
  entries.push(...soccer.entries);
  summary.soccer = soccer.summary;

  entries.sort(byKeys((e) => e.key, (e) => e.recordedAt));
  const manifest = {
    version: 1,
    defaultNow: DEFAULT_NOW,
    // Each sport's recording has its own day: `snapshot all` runs each at its own clock (defaultNow for the rest).
    clocks: { nba: DEFAULT_NOW, wnba: WNBA_NOW, mlb: mlb.now, soccer: SOCCER_NOW },
    // The EPL prices are of Australian books: a replayed soccer request asks regions=au (the others keep the configured regions).
    oddsRegions: { soccer: 'au' },
    seed: { gamelogs: [{ sport: 'nba', file: seedFile }, wnba.seed, mlb.seed, soccer.seed] },
    // Raw source rows the EPL matchday's recordings were written from, bytes unchanged (provenance: propgrade does not read them).
    sources: soccer.sources,
    entries,
  };
  writeFile(outDir, 'manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
  summary.entries = entries.length;
  return summary;
}

/** Refuses to wipe a folder that is not a replay folder (a typo in --out must not delete anything else). */
function resetOutDir(outDir) {
  if (fs.existsSync(outDir)) {
    const isReplay = fs.existsSync(path.join(outDir, 'manifest.json')) || fs.readdirSync(outDir).length === 0;
    if (!isReplay) throw new Error(`${outDir} exists and is not a replay folder (no manifest.json); refusing to overwrite`);
    fs.rmSync(outDir, { recursive: true });
  }
  fs.mkdirSync(outDir, { recursive: true });
}

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const sharedDir = path.resolve(argValue('--shared') ?? path.join(REPO_ROOT, '..', 'shared'));
  const outDir = path.resolve(argValue('--out') ?? path.join(REPO_ROOT, 'data', 'replay'));
  resetOutDir(outDir);
  const summary = build({ sharedDir, outDir });
  process.stdout.write(`${JSON.stringify({ outDir, ...summary }, null, 2)}\n`);
}
