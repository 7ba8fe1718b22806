/**
 * The EPL through the product's own loop (issue 42 part A): build-season-replay soccer over a real
 * slice of ../shared (skipped without it), then `propgrade simulate soccer` on a fresh store. Every
 * settled public soccer entry is checked against the raw epl_player_match_stats CSV, read here with
 * node zlib and csv-parse (not through propgrade's code): a decided entry's actual value is the raw
 * stat and its outcome follows from the line; a void is a player with no row or 0 minutes. The
 * history the projections read is every raw stats row of the slice's days, priced match or not (the
 * 2024-25 slice has a match no book priced, once left out of the folder), and the 2025-26 slice has
 * mornings whose settle had another date due (a day not final yet, an entry still pending), which
 * once skipped the night before's box scores.
 */
import { execFileSync } from 'node:child_process';
import fs, { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';

const SHARED = path.resolve('..', 'shared');
const STATS = path.join(SHARED, 'history', 'epl_player_match_stats_2024-25_2025-26.csv.gz');
const MATCHES = path.join(SHARED, 'history', 'epl_matches_2024-25_2025-26.csv');
const available = fs.existsSync(STATS) && fs.existsSync(path.join(SHARED, 'history', 'epl_player_props_2024-08_to_2026-01.csv.gz'));
const dir = mkdtempSync(path.join(tmpdir(), 'propgrade-epl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z]/g, '');
const ET = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' });
/** The ledger's stat names -> the raw file's columns (NOTES.md §6 join 4). */
const COLUMN: Record<string, string> = { goals: 'goals', assists: 'assists', shots: 'total_shots', shots_on_target: 'shots_on_target', tackles: 'tackles' };

interface Line { player_name: string; date: string; minutes: number | null; stats: string }
interface Entry { player: string; event_id: string; game_date: string; stat_type: string; line: number; side: string; outcome: string; actual_value: number | null }

const SLICES: Array<[string, string]> = [
  ['2024-09-28', '2024-10-06'],
  ['2025-08-14', '2025-08-31'],
];

describe.skipIf(!available)('EPL season slice through build, simulate, settle', () => {
  it.each(SLICES)('%s..%s: the history is every raw stats row of its days, and every settled public soccer entry equals them', async (FROM, TO) => {
    const folder = path.join(dir, `epl-${FROM}`);
    const built = JSON.parse(execFileSync(process.execPath, ['scripts/build-season-replay.mjs', 'soccer', folder, '--from', FROM, '--to', TO], { encoding: 'utf8' })) as { matches: number; summaries: number; seedRows: number; unresolvedPlayerNames: number };
    expect(built.matches).toBeGreaterThan(5);
    expect(built.seedRows).toBeGreaterThan(1000);
    const db = path.join(dir, `epl-${FROM}.sqlite`);
    const run = await runCli(['--db', db, '--replay', folder, '--json', 'simulate', 'soccer', '--from', FROM, '--to', TO]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { snapshots: number; settles: number };
    expect(report.snapshots).toBeGreaterThan(0);
    const store = openStore(db);
    let entries: Entry[];
    let lines: Line[];
    try {
      entries = store.sqlite.prepare("select player, event_id, game_date, stat_type, line, side, outcome, actual_value from ledger_entries where user_id is null and source = 'pipeline' and sport = 'soccer'").all() as Entry[];
      lines = store.sqlite.prepare("select player_name, date, minutes, stats from player_game_stats where sport = 'soccer' and source = 'espn:summary'").all() as Line[];
    } finally {
      await store.close();
    }
    const raw = new Map<string, Record<string, string>>();
    const rows = parse(zlib.gunzipSync(fs.readFileSync(STATS)), { columns: true }) as Array<Record<string, string>>;
    for (const r of rows) raw.set(`${fold(r['player_name']!)}|${ET.format(new Date(r['kickoff_utc']!))}`, r);
    // Every match of the slice's days has its summary, priced or not (the matches file, read here).
    const inDays = (kickoff: string) => ET.format(new Date(kickoff)) >= FROM && ET.format(new Date(kickoff)) <= TO;
    const played = fs.readFileSync(MATCHES, 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')).filter((m) => inDays(m[3]!));
    expect(built.summaries).toBe(played.length);
    // The settles' reading of the slice: every raw row of its days (with a team: a row with none is
    // on neither side), stat by stat, and nothing else.
    const inSlice = rows.filter((r) => inDays(r['kickoff_utc']!) && r['team'] !== '');
    expect(inSlice.length).toBeGreaterThan(500);
    expect(lines.length).toBe(inSlice.length);
    for (const l of lines) {
      const r = raw.get(`${fold(l.player_name)}|${l.date}`);
      expect(r, `${l.player_name} ${l.date}`).toBeDefined();
      expect(l.minutes).toBe(Number(r!['minutes_played']));
      const stats = JSON.parse(l.stats) as Record<string, number>;
      for (const [stat, column] of Object.entries(COLUMN)) expect(stats[stat], `${l.player_name} ${l.date} ${stat}`).toBe(Number(r![column]));
    }
    // Every settled public soccer entry.
    for (const e of entries.filter((x) => x.outcome !== 'pending')) {
      const r = raw.get(`${fold(e.player)}|${e.game_date}`);
      const what = `${e.player} ${e.game_date} ${e.stat_type} ${e.side} ${e.line}`;
      if (e.outcome === 'void') {
        expect(r === undefined || Number(r['minutes_played']) === 0, what).toBe(true);
        continue;
      }
      expect(Number(r!['minutes_played']), what).toBeGreaterThan(0);
      const actual = Number(r![COLUMN[e.stat_type]!]);
      expect(e.actual_value, what).toBe(actual);
      expect(e.outcome, what).toBe(actual === e.line ? 'push' : (e.side === 'over') === actual > e.line ? 'hit' : 'miss');
    }
    // No entry of a day the raw stats cover stays pending: one booked to a club he has left is
    // settled against his own event's match. Axel Tuanzebe's history ends at Ipswich (IPS); he was
    // priced for Burnley v Sunderland on 2025-08-23, and the raw file has no row of his that day.
    const rawDays = new Set(inSlice.map((r) => ET.format(new Date(r['kickoff_utc']!))));
    expect(entries.filter((e) => e.outcome === 'pending' && rawDays.has(e.game_date)).map((e) => `${e.player} ${e.game_date}`)).toEqual([]);
    if (FROM === '2025-08-14') {
      const day = rows.filter((r) => ET.format(new Date(r['kickoff_utc']!)) === '2025-08-23');
      expect(day.filter((r) => r['team'] === 'Burnley' || r['team'] === 'Sunderland').length).toBeGreaterThan(20);
      expect(day.filter((r) => fold(r['player_name']!) === fold('Axel Tuanzebe'))).toEqual([]);
      const his = entries.filter((e) => e.player === 'Axel Tuanzebe' && e.game_date === '2025-08-23');
      expect(his.map((e) => [e.event_id, e.stat_type, e.outcome, e.actual_value])).toEqual([['epl-25-26-prem-burnley-vs-sunderland', 'shots', 'void', null]]);
    }
  }, 400_000);
});
