/**
 * WNBA season replay from ../shared: the 382 real Odds API v4 historical event-odds responses
 * (feeds/odds-api-wnba-2023-2024) filed as the live event-odds answers propgrade asks for, each at
 * the time the API stamped it (`timestamp`), an events list at every such time, and the ESPN box
 * scores (history/wnba_player_box_scores_2019-2026.csv + wnba_games_2019-2026.csv) re-assembled as
 * ESPN scoreboards and summaries recorded the morning after each slate. Prices, lines, names and
 * stats are copied, never computed; data/README.md ("WNBA day") documents every choice.
 *
 *   build({ shared, outDir, from, to })   // one folder with its manifest (node scripts/build-season-replay.mjs wnba <dir>)
 *   buildRecordings({ shared, outDir, from, to, historyPlayers })  // entries + seed only (data/replay's WNBA day)
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { BOX_KEYS, BOX_NAMES, FINAL_STATUS, byKeys, cmp, espnDate, etDate, nextDay, recorder, writeFile, writeManifest } from './_common.mjs';

export const ODDS_DIR = 'feeds/odds-api-wnba-2023-2024';
export const BOX_FILE = 'history/wnba_player_box_scores_2019-2026.csv';
export const GAMES_FILE = 'history/wnba_games_2019-2026.csv';

/** marketsForSport('wnba') in its order: the request propgrade makes, so the replay key it looks up. */
export const WNBA_MARKETS = ['player_points', 'player_rebounds', 'player_assists', 'player_threes', 'player_points_rebounds_assists', 'player_blocks', 'player_steals'];
const ODDS_BASE = 'https://api.the-odds-api.com/v4/sports/basketball_wnba';
const ESPN_BASE = 'https://site.api.espn.com/apis/site/v2/sports/basketball/wnba';

/**
 * Team codes of the box-score file -> ESPN's abbreviation (propgrade's canonical code,
 * src/feeds/teams/basketball.ts: ESPN writes Connecticut as CONN) and the full name the Odds API uses
 * (the shared README's join table). Codes not listed are not WNBA teams (all-star, exhibitions).
 */
export const WNBA_TEAMS = {
  ATL: ['ATL', 'Atlanta Dream'],
  CHI: ['CHI', 'Chicago Sky'],
  CON: ['CONN', 'Connecticut Sun'],
  DAL: ['DAL', 'Dallas Wings'],
  GS: ['GS', 'Golden State Valkyries'],
  IND: ['IND', 'Indiana Fever'],
  LV: ['LV', 'Las Vegas Aces'],
  LA: ['LA', 'Los Angeles Sparks'],
  MIN: ['MIN', 'Minnesota Lynx'],
  NY: ['NY', 'New York Liberty'],
  PHX: ['PHX', 'Phoenix Mercury'],
  SEA: ['SEA', 'Seattle Storm'],
  WSH: ['WSH', 'Washington Mystics'],
};

function readCsvRecords(file) {
  return parse(fs.readFileSync(file), { columns: true, skip_empty_lines: true });
}

/** ESPN WNBA team identities (id, uid, abbreviation, displayName) from the real recordings in feeds/espn. */
function loadEspnTeams(shared) {
  const dir = path.join(shared, 'feeds/espn');
  const teams = new Map();
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    if (typeof node.uid === 'string' && node.uid.startsWith('s:40~l:59~t:') && node.abbreviation && node.displayName && node.id) {
      teams.set(node.abbreviation, { id: String(node.id), uid: node.uid, abbreviation: node.abbreviation, displayName: node.displayName });
    }
    for (const value of Object.values(node)) visit(value);
  };
  for (const f of fs.readdirSync(dir).filter((f) => f.startsWith('wnba-') && f.endsWith('.json')).sort(cmp)) visit(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
  return teams;
}

/** Every historical response: {eventId, kind, timestamp, data}, sorted by time then event. */
export function loadResponses(shared) {
  const dir = path.join(shared, ODDS_DIR);
  const out = [];
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort(cmp)) {
    const json = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    const kind = f.endsWith('_closing.json') ? 'closing' : 'decision';
    out.push({ file: f, eventId: json.data.id, kind, timestamp: json.timestamp, data: json.data });
  }
  return out.sort(byKeys((r) => r.timestamp, (r) => r.eventId));
}

/** The event-odds body propgrade's request would get: the response's `data`, only the requested markets. */
function eventOddsBody(data) {
  const bookmakers = [];
  for (const b of data.bookmakers) {
    const markets = b.markets.filter((m) => WNBA_MARKETS.includes(m.key));
    if (markets.length > 0) bookmakers.push({ ...b, markets });
  }
  return { ...data, bookmakers };
}

const eventOf = (d) => ({ id: d.id, sport_key: d.sport_key, sport_title: d.sport_title, commence_time: d.commence_time, home_team: d.home_team, away_team: d.away_team });

function boxCount(raw) {
  const n = Number(raw);
  if (raw === '' || !Number.isFinite(n)) throw new Error(`not a box-score number: ${JSON.stringify(raw)}`);
  return String(n);
}

function athleteLine(r) {
  return {
    athlete: { id: r.aid, displayName: r.player },
    didNotPlay: false,
    stats: [
      boxCount(r.min),
      `${boxCount(r.fgm)}-${boxCount(r.fga)}`,
      `${boxCount(r.tpm)}-${boxCount(r.tpa)}`,
      `${boxCount(r.ftm)}-${boxCount(r.fta)}`,
      boxCount(r.oreb),
      boxCount(r.dreb),
      boxCount(r.reb),
      boxCount(r.ast),
      boxCount(r.stl),
      boxCount(r.blk),
      boxCount(r.to),
      boxCount(r.pf),
      Number(r.pm) > 0 ? `+${boxCount(r.pm)}` : boxCount(r.pm),
      boxCount(r.pts),
    ],
  };
}

/**
 * The recordings of [from, to] (ET game dates): event odds and events lists at every stamped time,
 * ESPN results the morning after each slate, and the projection history (box-score rows, bytes
 * unchanged, of games before `from`; `historyPlayers: 'slate'` keeps only players in the window's
 * box scores and games of the 365 days before `from`, for the small bundled day).
 */
export function buildRecordings({ shared, outDir, from, to, historyPlayers = 'all' }) {
  const rec = recorder(outDir);
  const inWindow = (d) => d >= from && d <= to;
  const responses = loadResponses(shared).filter((r) => inWindow(etDate(r.data.commence_time)));
  const times = [...new Set(responses.map((r) => r.timestamp))].sort(cmp);
  for (const r of responses) {
    const stamp = r.timestamp.replaceAll(':', '-');
    const url = `${ODDS_BASE}/events/${r.eventId}/odds?dateFormat=iso&markets=${WNBA_MARKETS.join(',')}&oddsFormat=american&regions=us`;
    rec.add('odds-api', url, `odds-api/wnba-event-odds-${r.eventId}-${stamp}.json`, JSON.stringify(eventOddsBody(r.data)), r.timestamp);
  }
  for (const t of times) {
    // Listed at t: the games with a recording at or before t that have not started.
    const listed = new Map();
    for (const r of responses) if (r.timestamp <= t && r.data.commence_time > t) listed.set(r.eventId, eventOf(r.data));
    const body = [...listed.values()].sort(byKeys((e) => e.commence_time, (e) => e.id));
    rec.add('odds-api', `${ODDS_BASE}/events?dateFormat=iso`, `odds-api/wnba-events-${t.replaceAll(':', '-')}.json`, JSON.stringify(body), t);
  }

  // Results: every WNBA game of each slate date, from the games and box-score files.
  const slateDates = [...new Set(responses.map((r) => etDate(r.data.commence_time)))].sort(cmp);
  const games = readCsvRecords(path.join(shared, GAMES_FILE)).filter((g) => WNBA_TEAMS[g.home] && WNBA_TEAMS[g.away]);
  const dateOf = (g) => `${g.date.slice(0, 4)}-${g.date.slice(4, 6)}-${g.date.slice(6, 8)}`;
  const boxText = fs.readFileSync(path.join(shared, BOX_FILE), 'utf8');
  const boxRows = parse(boxText, { columns: true, skip_empty_lines: true, raw: true });
  const boxByGame = new Map();
  for (const { record } of boxRows) {
    const list = boxByGame.get(record.game_id) ?? [];
    list.push(record);
    boxByGame.set(record.game_id, list);
  }
  const espnTeams = loadEspnTeams(shared);
  const team = (code) => {
    const [abbreviation, displayName] = WNBA_TEAMS[code];
    return espnTeams.get(abbreviation) ?? { abbreviation, displayName };
  };
  const summary = { slates: slateDates.length, snapshotTimes: times.length, eventOdds: responses.length, finals: 0, athletes: 0, gamesWithoutOdds: 0 };
  for (const date of slateDates) {
    const compact = date.replaceAll('-', '');
    const resultsAt = `${nextDay(date)}T12:00:00Z`;
    const events = [];
    // The file has no tip times; its games of a date in game_id order (ESPN's scheduling order).
    for (const g of games.filter((x) => dateOf(x) === date).sort(byKeys((x) => x.game_id))) {
      const rows = boxByGame.get(g.game_id) ?? [];
      const home = team(g.home);
      const away = team(g.away);
      const hs = Number(g.home_score);
      const as = Number(g.away_score);
      if (!Number.isFinite(hs) || !Number.isFinite(as) || hs === as || rows.length === 0) continue; // not provably final: stays unsettled
      const competitor = (t, homeAway, score, winner) => ({ ...(t.id ? { id: t.id } : {}), homeAway, winner, score: String(score), team: t });
      // The files carry no tip time; the Odds API event of the same date and teams does. A game
      // with no recorded odds has no known start, so it is left out rather than given a time.
      const tip = responses.find((r) => etDate(r.data.commence_time) === date && WNBA_TEAMS[g.home][1] === r.data.home_team && WNBA_TEAMS[g.away][1] === r.data.away_team);
      if (!tip) {
        summary.gamesWithoutOdds += 1;
        continue;
      }
      const competition = {
        id: g.game_id,
        date: espnDate(tip.data.commence_time),
        competitors: [competitor(home, 'home', hs, hs > as), competitor(away, 'away', as, as > hs)],
        status: FINAL_STATUS,
      };
      events.push({ id: g.game_id, date: competition.date, name: `${away.displayName} at ${home.displayName}`, shortName: `${away.abbreviation} @ ${home.abbreviation}`, competitions: [competition], status: FINAL_STATUS });
      const teamBox = (t, code, order) => ({
        team: t,
        statistics: [{ names: BOX_NAMES, keys: BOX_KEYS, labels: BOX_NAMES, athletes: rows.filter((r) => r.team === code).sort(byKeys((r) => r.player, (r) => r.aid)).map(athleteLine) }],
        displayOrder: order,
      });
      const body = { boxscore: { players: [teamBox(away, g.away, 1), teamBox(home, g.home, 2)] }, header: { id: g.game_id, competitions: [competition] } };
      rec.add('espn', `${ESPN_BASE}/summary?event=${g.game_id}`, `espn/wnba-summary-${g.game_id}.json`, JSON.stringify(body), resultsAt);
      summary.finals += 1;
      summary.athletes += rows.length;
    }
    rec.add('espn', `${ESPN_BASE}/scoreboard?dates=${compact}`, `espn/wnba-scoreboard-${compact}.json`, JSON.stringify({ events }), resultsAt);
  }

  // Projection history: whole source lines (bytes unchanged) of games dated before `from`.
  const gameDate = new Map(games.map((g) => [g.game_id, dateOf(g)]));
  const windowGames = new Set(games.filter((g) => inWindow(dateOf(g))).map((g) => g.game_id));
  const slatePlayers = new Set(boxRows.filter(({ record }) => windowGames.has(record.game_id)).map(({ record }) => record.aid));
  const yearBefore = new Date(Date.parse(`${from}T00:00:00Z`) - 365 * 86_400_000).toISOString().slice(0, 10);
  const keep = ({ record }) => {
    const d = gameDate.get(record.game_id);
    if (d === undefined || d >= from) return false;
    return historyPlayers === 'all' || (slatePlayers.has(record.aid) && d >= yearBefore);
  };
  const boxHeader = boxText.split('\n', 1)[0];
  const kept = boxRows.filter(keep);
  const keptGames = new Set(kept.map(({ record }) => record.game_id));
  const gamesText = fs.readFileSync(path.join(shared, GAMES_FILE), 'utf8');
  const gameLines = parse(gamesText, { columns: true, skip_empty_lines: true, raw: true }).filter(({ record }) => keptGames.has(record.game_id));
  const boxFile = `history/wnba-box-scores-before-${from}.csv`;
  const gamesFile = `history/wnba-games-before-${from}.csv`;
  writeFile(outDir, boxFile, `${boxHeader}\n${kept.map(({ raw }) => raw).join('')}`);
  writeFile(outDir, gamesFile, `${gamesText.split('\n', 1)[0]}\n${gameLines.map(({ raw }) => raw).join('')}`);
  summary.historyRows = kept.length;
  summary.historyGames = gameLines.length;
  return { entries: rec.entries, seed: { sport: 'wnba', file: boxFile, games: gamesFile }, times, summary };
}

/** A whole season folder (scripts/build-season-replay.mjs). */
export function build({ shared, outDir, from = '2023-05-19', to = '2024-08-20' }) {
  const r = buildRecordings({ shared, outDir, from, to, historyPlayers: 'all' });
  const first = r.times[0];
  writeManifest(outDir, { entries: r.entries, seed: { gamelogs: [r.seed] }, defaultNow: first, season: { sport: 'wnba', from, to } });
  return r.summary;
}
