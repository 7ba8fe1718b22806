/**
 * NBA season replay from ../shared: every day of the all-markets file (17:00 UTC snapshots,
 * 2025-10-21 .. 2025-11-09) and the threes file's 15:00 UTC snapshot of the same games, re-assembled
 * exactly as data/replay's two bundled days are (scripts/build-replay.mjs, data/README.md): Odds API
 * events lists and event odds at each snapshot, ESPN scoreboard + summaries from the game logs the
 * morning after each slate, and the projection history (game-log rows before the first day).
 *
 *   build({ shared, outDir, from, to })
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  ESPN_BASE, HISTORY, NBA_MARKETS, ODDS_BASE, assertUniqueQuotes, byKeys, competitor, espnDate, espnTeam, etDate, eventOddsBody, eventsBody,
  finalResult, gamesOf, loadEspnTeams, logsOfGame, nextDay, quote, readCsv, teamBox, FINAL_STATUS,
} from '../build-replay.mjs';
import { recorder, writeFile, writeManifest } from './_common.mjs';

export function build({ shared, outDir, from = '2025-10-21', to = '2025-11-09' }) {
  const teams = loadEspnTeams(shared);
  const allRows = readCsv(path.join(shared, HISTORY.allMarkets));
  const threesRows = readCsv(path.join(shared, HISTORY.threes));
  const logs = readCsv(path.join(shared, HISTORY.gamelogs));
  const logHeader = fs.readFileSync(path.join(shared, HISTORY.gamelogs), 'utf8').split('\n', 1)[0];
  const logsByDate = new Map();
  for (const { record } of logs) {
    const list = logsByDate.get(record.date) ?? [];
    list.push(record);
    logsByDate.set(record.date, list);
  }
  const labels = [...new Set(allRows.map(({ record }) => record.snapshot_file_label))].sort();
  const rec = recorder(outDir);
  const summary = { days: 0, snapshotTimes: 0, games: 0, finals: 0, quotes15: 0, quotes17: 0, threesRowsWithoutEvent: 0, gamesOffSlate: 0 };
  for (const label of labels) {
    const day = `${label.slice(0, 4)}-${label.slice(4, 6)}-${label.slice(6, 8)}`;
    if (day < from || day > to) continue;
    // A label's games are its ET day's slate; a game dated otherwise is left out (counted).
    const all = gamesOf(allRows, label);
    const games = new Map([...all].filter(([, g]) => etDate(g.commenceTime) === day));
    summary.gamesOffSlate += all.size - games.size;
    const gameList = [...games.values()];
    if (gameList.length === 0) continue;
    summary.days += 1;
    summary.games += gameList.length;
    const at17 = `${day}T17:00:00Z`;
    const at15 = `${day}T15:00:00Z`;
    const quotes17 = allRows
      .filter(({ record: r }) => r.snapshot_file_label === label && games.has(`${r.game}|${r.game_time}`))
      .map(({ record: r }) => quote(games.get(`${r.game}|${r.game_time}`).id, r, at17));
    const quotes15 = [];
    for (const { record: r } of threesRows) {
      if (r.snapshot_date_utc !== day) continue;
      const game = games.get(`${r.game}|${r.game_time}`);
      if (!game || r.market !== 'player_threes' || !r.market_last_update) {
        summary.threesRowsWithoutEvent += 1;
        continue;
      }
      quotes15.push(quote(game.id, r, r.market_last_update));
    }
    assertUniqueQuotes(quotes17, `${day} 17:00`);
    assertUniqueQuotes(quotes15, `${day} 15:00`);
    summary.quotes15 += quotes15.length;
    summary.quotes17 += quotes17.length;
    for (const [at, quotes] of [[at15, quotes15], [at17, quotes17]]) {
      if (quotes.length === 0) continue;
      summary.snapshotTimes += 1;
      const stamp = at.replaceAll(':', '-');
      const ids = new Set(quotes.map((q) => q.eventId));
      const listed = gameList.filter((g) => ids.has(g.id) && g.commenceTime > at);
      rec.add('odds-api', `${ODDS_BASE}/events?dateFormat=iso`, `odds-api/nba-events-${stamp}.json`, JSON.stringify(eventsBody(listed)), at);
      for (const g of listed) {
        const url = `${ODDS_BASE}/events/${g.id}/odds?dateFormat=iso&markets=${NBA_MARKETS.join(',')}&oddsFormat=american&regions=us`;
        rec.add('odds-api', url, `odds-api/nba-event-odds-${g.id}-${stamp}.json`, JSON.stringify(eventOddsBody(g, quotes.filter((q) => q.eventId === g.id))), at);
      }
    }
    const resultsAt = `${nextDay(day)}T12:00:00Z`;
    const events = [];
    for (const g of [...gameList].sort(byKeys((x) => x.commenceTime, (x) => x.id))) {
      const l = logsOfGame(logsByDate, day, g);
      const final = finalResult(l);
      if (!final) continue;
      const home = espnTeam(teams, g.home);
      const away = espnTeam(teams, g.away);
      const competition = { id: g.id, date: espnDate(g.commenceTime), competitors: [competitor(home, 'home', final.homeWon), competitor(away, 'away', !final.homeWon)], status: FINAL_STATUS };
      events.push({ id: g.id, date: espnDate(g.commenceTime), name: `${away.displayName} at ${home.displayName}`, shortName: `${away.abbreviation} @ ${home.abbreviation}`, competitions: [competition], status: FINAL_STATUS });
      const body = { boxscore: { players: [teamBox(away, l.away.rows, 1), teamBox(home, l.home.rows, 2)] }, header: { id: g.id, competitions: [competition] } };
      rec.add('espn', `${ESPN_BASE}/summary?event=${g.id}`, `espn/nba-summary-${g.id}.json`, JSON.stringify(body), resultsAt);
      summary.finals += 1;
    }
    rec.add('espn', `${ESPN_BASE}/scoreboard?dates=${day.replaceAll('-', '')}`, `espn/nba-scoreboard-${day.replaceAll('-', '')}.json`, JSON.stringify({ events }), resultsAt);
  }
  const seedFile = `history/nba-gamelogs-before-${from}.csv`;
  const seedRows = logs.filter(({ record }) => record.date < from).map(({ raw }) => raw);
  writeFile(outDir, seedFile, `${logHeader}\n${seedRows.join('')}`);
  summary.seedRows = seedRows.length;
  const first = rec.entries.filter((e) => e.provider === 'odds-api').map((e) => e.recordedAt).sort()[0];
  writeManifest(outDir, { entries: rec.entries, seed: { gamelogs: [{ sport: 'nba', file: seedFile }] }, defaultNow: first, season: { sport: 'nba', from, to } });
  return summary;
}
