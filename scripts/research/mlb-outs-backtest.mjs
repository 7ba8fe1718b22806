#!/usr/bin/env node
/**
 * The MLB pitcher-outs back-test (issue 43): outs graded, settled and scored like strikeouts.
 *
 * Quotes: Pinnacle's two-sided and Neds' `pitcher_outs` from ../shared/history
 * `mlb_player_props_pinnacle_au_2025.csv.gz`, tied to games and pitchers by the season builder's
 * reader (scripts/season-replay/mlb-pinnacle-au.mjs: same games, pitchers and decimal-to-American
 * prices as the simulated season). Per (game, pitcher, line, book), the first and the last version
 * written before first pitch become one quote in the strikeout back-test's shape (first/last
 * pregame), so `runMlbBacktest` (src/jobs/backtest/mlb.ts, `stat: 'pitcher_outs'`) grades the first
 * ladder by the snapshot's rule with history cut before each game, fits outs per batter faced on
 * starts before 2025-06-03, settles on the game-log row's innings pitched (must start), and scores
 * CLV against the last pregame market.
 *
 *   npm run build && node scripts/research/mlb-outs-backtest.mjs [--shared ../shared] [--json]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import { nameKey } from '../build-mlb-day-replay.mjs';
import { readPinnacleAu } from '../season-replay/mlb-pinnacle-au.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const arg = (n, d) => {
  const i = process.argv.indexOf(n);
  return i >= 0 ? process.argv[i + 1] : d;
};
const shared = path.resolve(arg('--shared', path.join(ROOT, '..', 'shared')));
const FROM = '2025-06-03';
const TO = '2025-09-18';
const read = (rel) => fs.readFileSync(path.join(shared, 'history', rel), 'utf8');

/** US Eastern wall time with its offset (EDT all of June-September), as the strikeout props write game_time. */
function etIso(ms) {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(ms));
  const p = Object.fromEntries(parts.map((x) => [x.type, x.value]));
  const offsetMin = Math.round((Date.parse(`${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}Z`) - ms) / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const hh = String(Math.floor(Math.abs(offsetMin) / 60)).padStart(2, '0');
  const mm = String(Math.abs(offsetMin) % 60).padStart(2, '0');
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${sign}${hh}:${mm}`;
}

// Games, pitchers and team names exactly as the season builder sets them up (scripts/season-replay/mlb.mjs).
const logs = parse(read('mlb_pitcher_game_logs_2025.csv'), { columns: true, skip_empty_lines: true });
const starts = parse(read('mlb_game_start_times_2025.csv'), { columns: true, skip_empty_lines: true });
const props = parse(read('mlb_pitcher_strikeouts_props_first_last_pregame_2025.csv'), { columns: true, skip_empty_lines: true });
const pitchersOf = new Map();
for (const r of logs) {
  if (!pitchersOf.has(r.game_pk)) pitchersOf.set(r.game_pk, []);
  pitchersOf.get(r.game_pk).push({ key: nameKey(r.pitcher), name: r.pitcher });
}
const startByEvent = new Map(starts.filter((s) => s.odds_event_id).map((s) => [s.odds_event_id, s]));
const teamAbbr = new Map([['Oakland Athletics', 'ATH']]);
const teamName = new Map();
for (const r of props) {
  const s = startByEvent.get(r.event_id);
  if (!s) continue;
  for (const [full, abbr] of [[r.home_team, s.home_team], [r.away_team, s.away_team]]) {
    teamAbbr.set(full, abbr);
    teamName.set(abbr, full);
  }
}
const games = new Map(starts.map((s) => [s.game_pk, { pk: s.game_pk, date: s.game_date, home: s.home_team, away: s.away_team, firstPitchMs: s.first_pitch_utc ? Date.parse(s.first_pitch_utc) : null }]));
const au = readPinnacleAu({ shared, games, teamAbbr, pitchersOf });

// First and last pregame version of each (game, pitcher, line, book) quote.
const quotes = new Map();
for (const feed of au.feeds.filter((f) => f.market === 'pitcher_outs')) {
  for (const v of feed.versions) {
    for (const [pk, byQuote] of v.byGame) {
      const g = games.get(pk);
      const startMs = g.firstPitchMs ?? au.auTimes.get(pk) ?? null;
      if (startMs === null || Date.parse(v.at) >= startMs) continue;
      const gameTime = etIso(startMs);
      if (gameTime.slice(0, 10) < FROM || gameTime.slice(0, 10) > TO) continue;
      for (const q of byQuote.values()) {
        const k = `${pk}|${q.pitcher.key}|${q.line}|${feed.book}`;
        const seen = { at: v.at, over: q.over, under: q.under };
        const cur = quotes.get(k);
        if (!cur) {
          quotes.set(k, {
            eventId: `mlb-game-${pk}`, date: gameTime.slice(0, 10), pitcher: q.pitcher.name, line: q.line, book: feed.book, snapshots: 1,
            first: seen, last: seen, gameTime, awayTeam: teamName.get(g.away) ?? g.away, homeTeam: teamName.get(g.home) ?? g.home,
          });
        } else {
          cur.snapshots += 1;
          if (v.at < cur.first.at) cur.first = seen;
          if (v.at > cur.last.at) cur.last = seen;
        }
      }
    }
  }
}
const rows = [...quotes.values()].map((q) => ({
  eventId: q.eventId, date: q.date, pitcher: q.pitcher, line: q.line, book: q.book, snapshots: q.snapshots,
  firstAt: q.first.at, firstOver: q.first.over, firstUnder: q.first.under, lastAt: q.last.at, lastOver: q.last.over, lastUnder: q.last.under,
  gameTime: q.gameTime, awayTeam: q.awayTeam, homeTeam: q.homeTeam,
}));

const dist = (rel) => import(pathToFileURL(path.join(ROOT, 'dist', rel)).href);
const [{ streamMlbGameLogsFile }, { scanCsvFile }, { runMlbBacktest }] = await Promise.all([dist('feeds/history/mlb-gamelogs.js'), dist('feeds/history/csv.js'), dist('jobs/backtest/mlb.js')]);
const logFile = path.join(shared, 'history', 'mlb_pitcher_game_logs_2025.csv');
const gamelogs = [];
streamMlbGameLogsFile(logFile, scanCsvFile(logFile).quoted, (r) => gamelogs.push(r));
const report = runMlbBacktest({ gamelogs, quotes: rows, from: FROM, to: TO, fitBefore: FROM, stat: 'pitcher_outs' });
const { rows: scored, ...summary } = report;
const out = { source: { outsRowsKept: au.keptByMarket.pitcher_outs ?? 0, quoteKeys: rows.length, books: [...new Set(rows.map((r) => r.book))].sort() }, scoredRows: scored.length, ...summary };
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
else {
  const t = report.perTier.mainLines;
  process.stdout.write(`outs quotes ${rows.length} (${out.source.books.join(', ')}); counts ${JSON.stringify(report.counts)}\n`);
  process.stdout.write(`fit ${JSON.stringify(report.params.stats['mlb:pitcher_outs'] ?? null)}\n`);
  process.stdout.write(`main lines per tier ${JSON.stringify(t)}\n`);
  process.stdout.write(`clv ${JSON.stringify(report.clv.mlbStrikeouts)}\n`);
}
