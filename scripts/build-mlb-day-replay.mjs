/**
 * The real MLB day of data/replay (issue 26): Saturday 2025-08-16, pitcher strikeouts.
 *
 * - Odds: every version of the strikeoutcenter feed that day (../shared/feeds/strikeoutcenter-2025-08-16,
 *   built by its author from The Odds API `pitcher_strikeouts` market) re-assembled into the Odds API v4
 *   shapes propgrade's adapter reads: the events list and one event-odds body per game and version.
 *   Prices and lines unchanged; book titles mapped to the API's book keys.
 * - Results: the MLB Stats API shapes the settle reads (schedule, then each game's boxscore),
 *   re-assembled from the 2025 pitcher game logs and games file (MLB Stats API box scores).
 * - Seed history: the whole game-log rows (bytes unchanged) of the slate's pitchers before the day.
 *
 * Called by scripts/build-replay.mjs, which writes the manifest; data/README.md ("MLB day") documents
 * every field's provenance. Plain Node ESM, deterministic (same inputs, same bytes).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';

export const MLB_DAY = '2025-08-16';
/** The run clock of the README's command for MLB: just after the 16:18:17Z version, before the first pitch (18:21Z). */
export const MLB_NOW = '2025-08-16T16:25:00Z';
/** When the results are served: the next morning (every game of the day is final by then). */
export const MLB_RESULTS_AT = '2025-08-17T12:00:00Z';

const FEED_DIR = 'feeds/strikeoutcenter-2025-08-16';
const LOGS = 'history/mlb_pitcher_game_logs_2025.csv';
const GAMES = 'history/mlb_games_2025.csv';

const ODDS_BASE = 'https://api.the-odds-api.com/v4/sports/baseball_mlb';
const STATSAPI = 'https://statsapi.mlb.com/api/v1';
/** marketsForSport('mlb') in src/domain/stats.ts, in its order: the request carries them so. */
const MLB_MARKETS = ['batter_hits', 'batter_total_bases', 'batter_home_runs', 'pitcher_strikeouts', 'pitcher_outs'];

/** The feed's book titles -> The Odds API book keys (every title and key appears in real Odds API payloads). */
export const BOOK_KEYS = {
  BetMGM: 'betmgm',
  'BetOnline.ag': 'betonlineag',
  BetRivers: 'betrivers',
  Bovada: 'bovada',
  DraftKings: 'draftkings',
  FanDuel: 'fanduel',
  Fanatics: 'fanatics',
  'MyBookie.ag': 'mybookieag',
};

const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** "2025-08-16T12:18:17.217011-04:00" -> "2025-08-16T16:18:17Z" (UTC, whole seconds, as the file names). */
export function utcSeconds(text) {
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) throw new Error(`not a time: ${text}`);
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** The name key the join uses (NOTES.md): accents folded, periods/apostrophes dropped, hyphen as space, suffixes dropped; two known aliases. */
const ALIASES = { 'jake latz': 'jacob latz', 'samuel aldegheri': 'sam aldegheri' };
export function nameKey(name) {
  const k = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[.']/g, '')
    .replace(/-/g, ' ')
    .split(/\s+/)
    .filter((t) => t && !['jr', 'sr', 'ii', 'iii', 'iv'].includes(t))
    .join(' ');
  return ALIASES[k] ?? k;
}

function readFeedVersions(sharedDir) {
  const dir = path.join(sharedDir, FEED_DIR);
  return fs
    .readdirSync(dir)
    .filter((f) => /^strikeout-props-.*\.json$/.test(f))
    .sort()
    .map((f) => {
      const json = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
      return { file: f, at: utcSeconds(json.metadata.generated_at), games: json.games };
    });
}

/** One event-odds body: bookmakers by key, one pitcher_strikeouts market each, outcomes by pitcher, line, Over before Under. */
function eventOddsBody(game, at) {
  const byBook = new Map();
  for (const p of game.pitchers) {
    for (const [title, odds] of Object.entries(p.individual_odds ?? {})) {
      const key = BOOK_KEYS[title];
      if (!key) throw new Error(`unknown book title ${title}`);
      if (!byBook.has(key)) byBook.set(key, { title, outcomes: [] });
      const out = byBook.get(key).outcomes;
      if (typeof odds.over === 'number') out.push({ name: 'Over', description: p.pitcher_name, price: odds.over, point: p.strikeout_line });
      if (typeof odds.under === 'number') out.push({ name: 'Under', description: p.pitcher_name, price: odds.under, point: p.strikeout_line });
    }
  }
  const bookmakers = [...byBook.keys()].sort(cmp).map((key) => {
    const { title, outcomes } = byBook.get(key);
    outcomes.sort((a, b) => cmp(a.description, b.description) || a.point - b.point || cmp(a.name, b.name));
    return { key, title, markets: [{ key: 'pitcher_strikeouts', last_update: at, outcomes }] };
  });
  return { ...eventOf(game), bookmakers };
}

function eventOf(game) {
  return { id: game.event_id, sport_key: 'baseball_mlb', sport_title: 'MLB', commence_time: utcSeconds(game.game_time), home_team: game.home_team, away_team: game.away_team };
}

/** Baseball innings notation "5.2" -> outs (17). */
function outsOf(ip) {
  const m = /^(\d+)(?:\.([0-2]))?$/.exec(ip);
  if (!m) throw new Error(`bad innings ${ip}`);
  return Number(m[1]) * 3 + Number(m[2] ?? '0');
}

/**
 * Builds the MLB day into outDir. Returns the manifest entries ({provider, url, file, recordedAt,
 * contentType}), the seed file and a summary.
 */
export function buildMlbDay({ sharedDir, outDir }) {
  const write = (rel, text) => {
    const full = path.join(outDir, rel);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
  };
  const entries = [];
  const add = (provider, url, file, text, recordedAt) => {
    write(file, text);
    entries.push({ provider, url, file, recordedAt, contentType: 'application/json' });
  };
  const summary = { versions: 0, eventOdds: 0, outcomes: 0, games: 0, boxscorePitchers: 0, seedRows: 0 };

  // Odds: each version lists the games not yet started at its time (later versions still carry started games: left out, they may be in-play).
  const versions = readFeedVersions(sharedDir);
  const pitcherKeys = new Set();
  const feedGames = new Map();
  const eventsUrl = `${ODDS_BASE}/events?dateFormat=iso`;
  for (const v of versions) {
    const open = v.games.filter((g) => Date.parse(g.game_time) > Date.parse(v.at)).sort((a, b) => Date.parse(a.game_time) - Date.parse(b.game_time) || cmp(a.event_id, b.event_id));
    if (open.length === 0) continue;
    summary.versions += 1;
    const stamp = v.at.replace(/:/g, '-');
    add('odds-api', eventsUrl, `odds-api/mlb-events-${stamp}.json`, JSON.stringify(open.map(eventOf)), v.at);
    for (const g of open) {
      feedGames.set(g.event_id, g);
      for (const p of g.pitchers) pitcherKeys.add(nameKey(p.pitcher_name));
      const body = eventOddsBody(g, v.at);
      summary.eventOdds += 1;
      summary.outcomes += body.bookmakers.reduce((s, b) => s + b.markets[0].outcomes.length, 0);
      const url = `${ODDS_BASE}/events/${g.event_id}/odds?dateFormat=iso&markets=${MLB_MARKETS.join(',')}&oddsFormat=american&regions=us`;
      add('odds-api', url, `odds-api/mlb-event-odds-${g.event_id}-${stamp}.json`, JSON.stringify(body), v.at);
    }
  }

  // Results: the schedule of the day and each game's boxscore, from the games file and the game logs.
  const logText = fs.readFileSync(path.join(sharedDir, LOGS), 'utf8');
  const eol = logText.includes('\r\n') ? '\r\n' : '\n';
  const lines = logText.split(eol);
  const header = lines[0];
  const cols = header.split(',');
  const logs = parse(logText, { columns: true, skip_empty_lines: true });
  const games = parse(fs.readFileSync(path.join(sharedDir, GAMES), 'utf8'), { columns: true, skip_empty_lines: true }).filter((g) => g.game_date === MLB_DAY);
  const teamName = new Map();
  const dayGames = [];
  for (const g of games) {
    // The feed's game (and so its full team names) for this game_pk: the one listing a pitcher the logs name as a starter.
    const feed = [...feedGames.values()].find((f) => {
      const starters = logs.filter((r) => r.game_pk === g.game_pk && r.is_starter === '1').map((r) => nameKey(r.pitcher));
      return f.pitchers.some((p) => starters.includes(nameKey(p.pitcher_name)));
    });
    if (!feed) throw new Error(`no feed game for game_pk ${g.game_pk}`);
    teamName.set(g.away_team_id, feed.away_team);
    teamName.set(g.home_team_id, feed.home_team);
    dayGames.push({ g, feed });
  }
  dayGames.sort((a, b) => Date.parse(a.feed.game_time) - Date.parse(b.feed.game_time) || cmp(a.g.game_pk, b.g.game_pk));
  const person = (id, name) => ({ id: Number(id), fullName: name });
  const side = (g, which) => {
    const id = g[`${which}_team_id`];
    const spId = g[`${which}_sp_id`];
    const out = { score: Number(g[`${which}_score`]), team: { id: Number(id), name: teamName.get(id) } };
    if (spId) out.probablePitcher = person(Math.round(Number(spId)), g[`${which}_sp_name`]);
    return out;
  };
  const FINAL = { abstractGameState: 'Final', detailedState: 'Final' };
  const scheduleGames = dayGames.map(({ g, feed }) => ({
    gamePk: Number(g.game_pk),
    gameDate: utcSeconds(feed.game_time),
    officialDate: MLB_DAY,
    status: FINAL,
    teams: { away: side(g, 'away'), home: side(g, 'home') },
  }));
  const scheduleUrl = `${STATSAPI}/schedule?sportId=1&date=${MLB_DAY}&hydrate=probablePitcher,lineups`;
  add('mlb-statsapi', scheduleUrl, `mlb-statsapi/mlb-schedule-${MLB_DAY}.json`, JSON.stringify({ dates: [{ date: MLB_DAY, games: scheduleGames }] }), MLB_RESULTS_AT);
  summary.games = scheduleGames.length;
  for (const { g } of dayGames) {
    const teams = {};
    for (const which of ['away', 'home']) {
      const id = g[`${which}_team_id`];
      // Source order per team-game: the starter (is_starter 1, the first pitcher the box score lists) first.
      const rows = logs.filter((r) => r.game_pk === g.game_pk && r.home_away === which);
      const players = {};
      for (const r of rows) {
        players[`ID${r.mlbam_id}`] = {
          person: person(r.mlbam_id, r.pitcher),
          stats: { pitching: { strikeOuts: Number(r.strikeouts), battersFaced: Number(r.batters_faced), outs: outsOf(r.innings_pitched), inningsPitched: r.innings_pitched } },
        };
      }
      summary.boxscorePitchers += rows.length;
      teams[which] = { team: { id: Number(id), name: teamName.get(id) }, players, pitchers: rows.map((r) => Number(r.mlbam_id)) };
    }
    add('mlb-statsapi', `${STATSAPI}/game/${g.game_pk}/boxscore`, `mlb-statsapi/mlb-boxscore-${g.game_pk}.json`, JSON.stringify({ teams }), MLB_RESULTS_AT);
  }

  // Seed: whole source rows (bytes unchanged, source order) of the feed's pitchers, games before the day.
  const pitcherCol = cols.indexOf('pitcher');
  const dateCol = cols.indexOf('game_date');
  const seedRows = lines.slice(1).filter((l) => {
    if (!l) return false;
    const c = l.split(',');
    return c[dateCol] < MLB_DAY && pitcherKeys.has(nameKey(c[pitcherCol]));
  });
  const seedFile = `history/mlb-pitcher-gamelogs-before-${MLB_DAY}.csv`;
  write(seedFile, `${header}${eol}${seedRows.map((l) => `${l}${eol}`).join('')}`);
  summary.seedRows = seedRows.length;
  summary.pitchers = pitcherKeys.size;
  return { entries: entries.sort((a, b) => cmp(a.url, b.url) || cmp(a.recordedAt, b.recordedAt)), seed: { sport: 'mlb', file: seedFile }, now: MLB_NOW, summary };
}
