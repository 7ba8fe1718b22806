/**
 * MLB season replay builder (issue 26, item 5): a replay folder for `propgrade simulate mlb` from
 * ../shared/history, in the shapes propgrade's adapters read.
 *
 * - Merged odds (issue 43): every snapshot we have. The strikeoutcenter sightings below, and
 *   Pinnacle's and the Australian books' strikeouts, Pinnacle's two-sided outs and Neds' outs
 *   (`mlb_player_props_pinnacle_au_2025.csv.gz`, 379 snapshots: book keys, price conversion, game
 *   and pitcher joins in mlb-pinnacle-au.mjs; `pitcher_outs` is its own market in a book's body).
 *   Pinnacle's hits allowed and batter markets stay out: their outcomes are not in the data, so
 *   the ledger could not settle them. The
 *   recording times are both sources' snapshot times; at each, an event's body holds the
 *   strikeoutcenter quotes sighted then and each Pinnacle/AU book's version standing then, and is
 *   written only when it differs from the event's previous body. The event-odds URLs ask for
 *   regions us,eu,au (where those books sit); the manifest's `oddsRegions` says so and `simulate`
 *   asks the same. First pitch: `mlb_game_start_times_2025.csv` (the Australian books' shifted
 *   times where it has none); a game with no Odds API event in the data gets the id
 *   `mlb-game-<game_pk>`. Each game's close is then the last snapshot before its first pitch.
 * - Odds: `mlb_pitcher_strikeouts_props_first_last_pregame_2025.csv` holds, per (event, pitcher,
 *   line, book), the first and the last pregame snapshot of that quote. Every distinct snapshot time
 *   (feed `generated_at`) becomes a recording time. At time t an event-odds body holds the quotes
 *   whose first or last sighting is exactly t, at the price seen then; a quote's price between its
 *   first and last sightings is not in the source, so it is absent there (never carried forward
 *   or interpolated). Events list at t: the games that have a body at or before t and start after t.
 * - Results: per ET day with games, the MLB Stats API schedule and one boxscore per game, built from
 *   `mlb_games_2025.csv` and `mlb_pitcher_game_logs_2025.csv` exactly as scripts/build-mlb-day-replay.mjs
 *   builds the bundled day, recorded at 12:00Z the next morning. A game is written only when the
 *   props' pitchers place it (their log rows give game_pk and side); a postponed game has no final
 *   box score, is absent, and its props stay pending.
 * - Seed history: whole game-log rows (bytes unchanged) dated before the first day.
 *
 * Plain Node ESM, deterministic. Usage (through scripts/build-season-replay.mjs):
 *   build({ shared: '../shared', outDir: 'var/season-mlb', from: '2025-06-03', to: '2025-09-28' })
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { replayKey } from '../build-replay.mjs';
import { BOOK_KEYS, nameKey, utcSeconds } from '../build-mlb-day-replay.mjs';
import { etDate, MERGED_REGIONS, readPinnacleAu, standingAt } from './mlb-pinnacle-au.mjs';

const PROPS = 'history/mlb_pitcher_strikeouts_props_first_last_pregame_2025.csv';
const LOGS = 'history/mlb_pitcher_game_logs_2025.csv';
const GAMES = 'history/mlb_games_2025.csv';
const STARTS = 'history/mlb_game_start_times_2025.csv';
const ODDS_BASE = 'https://api.the-odds-api.com/v4/sports/baseball_mlb';
const STATSAPI = 'https://statsapi.mlb.com/api/v1';
const MLB_MARKETS = ['batter_hits', 'batter_total_bases', 'batter_home_runs', 'pitcher_strikeouts', 'pitcher_outs'];
const JSON_HEADERS = { 'content-type': 'application/json' };
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const nextDay = (d) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const prevDay = (d) => new Date(Date.parse(`${d}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const outsOf = (ip) => {
  const m = /^(\d+)(?:\.([0-2]))?$/.exec(ip);
  if (!m) throw new Error(`bad innings ${ip}`);
  return Number(m[1]) * 3 + Number(m[2] ?? '0');
};

export function build({ shared, outDir, from = '2025-06-03', to = '2025-09-28' }) {
  const read = (rel) => fs.readFileSync(path.join(shared, rel), 'utf8');
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

  // --- games, first pitches, pitchers ---------------------------------------------------------
  const logText = read(LOGS);
  const logs = parse(logText, { columns: true, skip_empty_lines: true });
  const games = new Map(parse(read(GAMES), { columns: true, skip_empty_lines: true }).map((g) => [g.game_pk, g]));
  const starts = parse(read(STARTS), { columns: true, skip_empty_lines: true });
  const startByEvent = new Map(starts.filter((s) => s.odds_event_id).map((s) => [s.odds_event_id, s]));
  const pitchersOf = new Map();
  for (const r of logs) {
    if (!pitchersOf.has(r.game_pk)) pitchersOf.set(r.game_pk, []);
    pitchersOf.get(r.game_pk).push({ key: nameKey(r.pitcher), name: r.pitcher });
  }

  // --- odds: the strikeoutcenter first/last sightings ---------------------------------------------
  const props = parse(read(PROPS), { columns: true, skip_empty_lines: true }).filter((r) => r.game_time.slice(0, 10) >= from && r.game_time.slice(0, 10) <= to);
  const events = new Map(); // event_id -> {event, date, pk, pitchers:Set, names: Map(key -> Odds API spelling)}
  const at = new Map(); // utc time -> Map(event_id -> quotes[])
  const push = (t, r, over, under) => {
    if (Date.parse(t) >= Date.parse(r.game_time)) return; // pregame only (the source already dropped later ones)
    const time = utcSeconds(t);
    if (!at.has(time)) at.set(time, new Map());
    const byEvent = at.get(time);
    if (!byEvent.has(r.event_id)) byEvent.set(r.event_id, new Map());
    // One price per (book, pitcher, line) at a time: first and last at the same time are the same sighting.
    byEvent.get(r.event_id).set(`${r.book}|${r.pitcher_name}|${r.line}`, { book: r.book, pitcher: r.pitcher_name, line: Number(r.line), over, under });
  };
  const teamAbbr = new Map([['Oakland Athletics', 'ATH']]); // NOTES.md §9: both names are the A's
  const teamName = new Map();
  for (const r of props) {
    if (!events.has(r.event_id)) {
      const start = startByEvent.get(r.event_id);
      // First pitch from mlb_game_start_times_2025.csv (the same feed's last listed time, in UTC).
      const commence = start?.first_pitch_utc ? utcSeconds(start.first_pitch_utc) : utcSeconds(r.game_time);
      events.set(r.event_id, {
        event: { id: r.event_id, sport_key: 'baseball_mlb', sport_title: 'MLB', commence_time: commence, home_team: r.home_team, away_team: r.away_team },
        date: r.game_time.slice(0, 10),
        pk: start?.game_pk ?? null,
        pitchers: new Set(),
        names: new Map(),
      });
      if (start) {
        for (const [full, abbr] of [[r.home_team, start.home_team], [r.away_team, start.away_team]]) {
          teamAbbr.set(full, abbr);
          teamName.set(abbr, full);
        }
      }
    }
    events.get(r.event_id).pitchers.add(nameKey(r.pitcher_name));
    events.get(r.event_id).names.set(nameKey(r.pitcher_name), r.pitcher_name);
    push(r.first_snapshot_at, r, r.first_over_odds, r.first_under_odds);
    push(r.last_snapshot_at, r, r.last_over_odds, r.last_under_odds);
  }

  // --- odds: Pinnacle and the Australian books (mlb-pinnacle-au.mjs) -------------------------------
  const gameList = new Map(
    starts.map((s) => [s.game_pk, { pk: s.game_pk, date: s.game_date, home: s.home_team, away: s.away_team, firstPitchMs: s.first_pitch_utc ? Date.parse(s.first_pitch_utc) : null }]),
  );
  const au = readPinnacleAu({ shared, games: gameList, teamAbbr, pitchersOf });
  const eventOfPk = new Map([...events.values()].filter((e) => e.pk !== null).map((e) => [e.pk, e]));
  for (const { versions: list } of au.feeds) {
    for (const v of list) {
      for (const pk of v.byGame.keys()) {
        if (eventOfPk.has(pk)) continue;
        const g = gameList.get(pk);
        const ms = g.firstPitchMs ?? au.auTimes.get(pk) ?? null;
        if (ms === null) continue;
        const date = etDate(ms);
        if (date < from || date > to) continue;
        // No Odds API event in the data for this game: an id made from its game_pk, marked as such.
        const id = `mlb-game-${pk}`;
        const e = {
          event: { id, sport_key: 'baseball_mlb', sport_title: 'MLB', commence_time: utcSeconds(new Date(ms).toISOString()), home_team: teamName.get(g.home) ?? g.home, away_team: teamName.get(g.away) ?? g.away },
          date, pk, pitchers: new Set(), names: new Map(),
        };
        events.set(id, e);
        eventOfPk.set(pk, e);
      }
    }
  }
  const auTimes = [...new Set(au.feeds.flatMap((f) => f.versions.map((v) => v.at)))].filter((t) => etDate(Date.parse(t)) >= prevDay(from) && etDate(Date.parse(t)) <= to);
  const times = [...new Set([...at.keys(), ...auTimes])].sort(cmp);
  const seenBy = new Map(); // event_id -> first time with a body
  const lastBody = new Map(); // event_id -> its latest body's bookmakers (an unchanged body is not written again)
  let bodies = 0;
  // The times an events list was written: a source time with no open game (an outs file version
  // before any body of the window) is no snapshot.
  const listed = [];
  const url = (eventId) => `${ODDS_BASE}/events/${eventId}/odds?dateFormat=iso&markets=${MLB_MARKETS.join(',')}&oddsFormat=american&regions=${MERGED_REGIONS.join(',')}`;
  for (const t of times) {
    const stamp = t.replace(/:/g, '-');
    for (const [eventId, e] of [...events].sort((a, b) => cmp(a[0], b[0]))) {
      if (Date.parse(e.event.commence_time) <= Date.parse(t)) continue;
      const byBook = new Map();
      for (const q of at.get(t)?.get(eventId)?.values() ?? []) {
        const key = BOOK_KEYS[q.book];
        if (!key) throw new Error(`unknown book title ${q.book}`);
        if (!byBook.has(key)) byBook.set(key, { title: q.book, markets: new Map([['pitcher_strikeouts', { last: t, outcomes: [] }]]) });
        const out = byBook.get(key).markets.get('pitcher_strikeouts').outcomes;
        if (q.over !== '') out.push({ name: 'Over', description: q.pitcher, price: Number(q.over), point: q.line });
        if (q.under !== '') out.push({ name: 'Under', description: q.pitcher, price: Number(q.under), point: q.line });
      }
      if (e.pk !== null) {
        for (const { book: key, market, versions: list } of au.feeds) {
          const v = standingAt(list, t);
          const quotes = v?.byGame.get(e.pk);
          if (!quotes) continue;
          const outcomes = [];
          for (const q of quotes.values()) {
            const description = e.names.get(q.pitcher.key) ?? q.pitcher.name;
            if (q.over !== null) outcomes.push({ name: 'Over', description, price: q.over, point: q.line });
            if (q.under !== null) outcomes.push({ name: 'Under', description, price: q.under, point: q.line });
          }
          if (!byBook.has(key)) byBook.set(key, { title: v.title, markets: new Map() });
          byBook.get(key).markets.set(market, { last: v.at, outcomes });
        }
      }
      if (byBook.size === 0) continue;
      const bookmakers = [...byBook.keys()].sort(cmp).map((key) => {
        const { title, markets } = byBook.get(key);
        return {
          key,
          title,
          markets: [...markets.keys()].sort(cmp).map((market) => {
            const { last, outcomes } = markets.get(market);
            outcomes.sort((a, b) => cmp(a.description, b.description) || a.point - b.point || cmp(a.name, b.name));
            return { key: market, last_update: last, outcomes };
          }),
        };
      });
      const text = JSON.stringify(bookmakers);
      if (lastBody.get(eventId) === text) continue;
      lastBody.set(eventId, text);
      if (!seenBy.has(eventId)) seenBy.set(eventId, t);
      add('odds-api', url(eventId), `odds-api/mlb-event-odds-${eventId}-${stamp}.json`, { ...e.event, bookmakers }, t);
      bodies += 1;
    }
    const open = [...events.values()]
      .filter((e) => seenBy.has(e.event.id) && Date.parse(e.event.commence_time) > Date.parse(t))
      .map((e) => e.event)
      .sort((a, b) => cmp(a.commence_time, b.commence_time) || cmp(a.id, b.id));
    if (open.length > 0) {
      add('odds-api', `${ODDS_BASE}/events?dateFormat=iso`, `odds-api/mlb-events-${stamp}.json`, open, t);
      listed.push(t);
    }
  }

  // --- results ----------------------------------------------------------------------------------
  const logsByKeyDate = new Map();
  for (const r of logs) {
    const k = `${nameKey(r.pitcher)}|${r.game_date}`;
    if (!logsByKeyDate.has(k)) logsByKeyDate.set(k, []);
    logsByKeyDate.get(k).push(r);
  }
  const byDay = new Map(); // date -> Map(game_pk -> {g, event})
  for (const e of events.values()) {
    if (!seenBy.has(e.event.id)) continue;
    // The game: the start-times file's game_pk, else a listed pitcher's log row that day.
    let pk = e.pk;
    for (const p of pk === null ? e.pitchers : []) {
      for (const r of logsByKeyDate.get(`${p}|${e.date}`) ?? []) if (games.get(r.game_pk)) pk = pk ?? r.game_pk;
    }
    if (pk === null || !games.get(pk)) continue;
    if (!byDay.has(e.date)) byDay.set(e.date, new Map());
    byDay.get(e.date).set(pk, { g: games.get(pk), event: e.event });
  }
  const logsByGame = new Map();
  for (const r of logs) {
    if (!logsByGame.has(r.game_pk)) logsByGame.set(r.game_pk, []);
    logsByGame.get(r.game_pk).push(r);
  }
  const person = (id, name) => ({ id: Number(id), fullName: name });
  let boxes = 0;
  for (const [date, list] of [...byDay].sort((a, b) => cmp(a[0], b[0]))) {
    const resultsAt = `${nextDay(date)}T12:00:00Z`;
    const ordered = [...list.values()].sort((a, b) => cmp(a.event.commence_time, b.event.commence_time) || cmp(a.g.game_pk, b.g.game_pk));
    const nameOf = ({ event }, which) => {
      // The props' full team name for the side the game file names (home/away agree between the sources).
      return which === 'home' ? event.home_team : event.away_team;
    };
    const side = (x, which) => {
      const g = x.g;
      const out = { score: Number(g[`${which}_score`]), team: { id: Number(g[`${which}_team_id`]), name: nameOf(x, which) } };
      const spId = g[`${which}_sp_id`];
      if (spId) out.probablePitcher = person(Math.round(Number(spId)), g[`${which}_sp_name`]);
      return out;
    };
    const scheduleGames = ordered.map((x) => ({
      gamePk: Number(x.g.game_pk),
      gameDate: x.event.commence_time,
      officialDate: x.g.game_date,
      status: { abstractGameState: 'Final', detailedState: 'Final' },
      teams: { away: side(x, 'away'), home: side(x, 'home') },
    }));
    add('mlb-statsapi', `${STATSAPI}/schedule?sportId=1&date=${date}&hydrate=probablePitcher,lineups`, `mlb-statsapi/mlb-schedule-${date}.json`, { dates: [{ date, games: scheduleGames }] }, resultsAt);
    for (const x of ordered) {
      const teams = {};
      for (const which of ['away', 'home']) {
        const rows = (logsByGame.get(x.g.game_pk) ?? []).filter((r) => r.home_away === which);
        const players = {};
        for (const r of rows) {
          players[`ID${r.mlbam_id}`] = {
            person: person(r.mlbam_id, r.pitcher),
            stats: { pitching: { strikeOuts: Number(r.strikeouts), battersFaced: Number(r.batters_faced), outs: outsOf(r.innings_pitched), inningsPitched: r.innings_pitched } },
          };
        }
        teams[which] = { team: { id: Number(x.g[`${which}_team_id`]), name: nameOf(x, which) }, players, pitchers: rows.map((r) => Number(r.mlbam_id)) };
      }
      add('mlb-statsapi', `${STATSAPI}/game/${x.g.game_pk}/boxscore`, `mlb-statsapi/mlb-boxscore-${x.g.game_pk}.json`, { teams }, resultsAt);
      boxes += 1;
    }
  }

  // --- seed history and manifest -----------------------------------------------------------------
  const eol = logText.includes('\r\n') ? '\r\n' : '\n';
  const lines = logText.split(eol);
  const seedRows = lines.slice(1).filter((l) => l && l.slice(0, 10) < from);
  const seedFile = `history/mlb-pitcher-gamelogs-before-${from}.csv`;
  write(seedFile, `${lines[0]}${eol}${seedRows.map((l) => `${l}${eol}`).join('')}`);
  entries.sort((a, b) => cmp(a.key, b.key) || cmp(a.recordedAt, b.recordedAt));
  const first = listed[0] ?? `${from}T12:00:00Z`;
  // oddsRegions: the regions the event-odds URLs ask for; `simulate` asks the same (jobs/simulate.ts).
  const manifest = { version: 1, defaultNow: first, clocks: { mlb: first }, oddsRegions: MERGED_REGIONS.join(','), seed: { gamelogs: [{ sport: 'mlb', file: seedFile }] }, entries };
  write('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
  return { sport: 'mlb', from, to, recordingTimes: listed, snapshots: listed.length, eventOdds: bodies, pinnacleAu: { rows: au.rows, kept: au.kept, keptByMarket: au.keptByMarket, dropped: au.dropped, gamesTimedByAuBooks: au.auTimes.size }, days: byDay.size, boxscores: boxes, seedRows: seedRows.length, entries: entries.length };
}

// Standalone: node scripts/season-replay/mlb.mjs <outDir> [--from d] [--to d] [--shared dir]
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const arg = (n, d) => {
    const i = process.argv.indexOf(n);
    return i >= 0 ? process.argv[i + 1] : d;
  };
  const outDir = process.argv[2];
  if (!outDir || outDir.startsWith('--')) throw new Error('usage: node scripts/season-replay/mlb.mjs <outDir> [--from 2025-06-03] [--to 2025-09-28] [--shared ../shared]');
  if (fs.existsSync(outDir) && fs.readdirSync(outDir).length > 0 && !fs.existsSync(path.join(outDir, 'manifest.json'))) throw new Error(`${outDir} is not a replay folder; refusing to write into it`);
  fs.rmSync(outDir, { recursive: true, force: true });
  const { recordingTimes, ...summary } = build({ shared: arg('--shared', '../shared'), outDir, from: arg('--from', '2025-06-03'), to: arg('--to', '2025-09-28') });
  process.stdout.write(`${JSON.stringify({ outDir, ...summary, firstRecording: recordingTimes[0], lastRecording: recordingTimes.at(-1) }, null, 2)}\n`);
}
