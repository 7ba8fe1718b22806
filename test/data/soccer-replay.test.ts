/**
 * The bundled EPL matchday (data/README.md "EPL matchday"; scripts/build-replay.mjs SOCCER_DAY):
 * the six Saturday matches of 2025-08-30, graded by `snapshot soccer --replay data/replay` with no
 * ODDS_API_REGIONS set (the manifest's `oddsRegions` asks regions=au) and settled by `settle soccer`.
 * Every figure is checked against the raw rows data/replay copies from ../shared/history
 * (history/epl-props-2025-08-30.csv.gz, epl-matches-2025-08-30.csv,
 * epl-player-match-stats-2025-08-30.csv), read here with csv-parse, never through propgrade's own
 * readers; and those copies against ../shared when it is present.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';

const REPLAY = 'data/replay';
const SHARED = path.resolve('..', 'shared', 'history');
const sharedAvailable = fs.existsSync(path.join(SHARED, 'epl_player_props_2024-08_to_2026-01.csv.gz'));
const CLOCK = '2025-08-30T10:36:08Z';
type Raw = Record<string, string>;
type Row = Record<string, unknown>;

const readCsv = (rel: string): Raw[] => {
  const bytes = fs.readFileSync(path.join(REPLAY, rel));
  return parse(rel.endsWith('.gz') ? gunzipSync(bytes) : bytes, { columns: true, skip_empty_lines: true }) as Raw[];
};
const PROPS = readCsv('history/epl-props-2025-08-30.csv.gz');
const MATCHES = readCsv('history/epl-matches-2025-08-30.csv');
const STATS = readCsv('history/epl-player-match-stats-2025-08-30.csv');

/** Folded name tokens: `<hh>` byte escapes decoded, accents dropped, lower case, no punctuation. */
const tokens = (s: string): string[] =>
  s
    .replace(/(?:<[0-9a-f]{2}>)+/gi, (run) => Buffer.from((run.match(/[0-9a-f]{2}/gi) ?? []).map((h) => parseInt(h, 16))).toString('utf8'))
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[øØ]/g, 'o')
    .toLowerCase()
    .replace(/[-‐]/g, ' ')
    .replace(/[^a-z0-9 ]/g, '')
    .split(/\s+/)
    .filter(Boolean);
/** The American price of a decimal one, rounded to cents (1.03 -> -3333.33; 5 -> 400). */
const american = (d: number): number => Math.round((d >= 2 ? 100 * (d - 1) : -100 / (d - 1)) * 100) / 100;
/** The props file's book keys -> The Odds API's (data/README.md). */
const BOOK: Record<string, string> = { neds: 'neds', pointsbet_au: 'pointsbetau', sportsbet: 'sportsbet', tab: 'tab', bet365_au: 'bet365_au' };
const STAT: Record<string, string> = { player_goals: 'goals', player_shots: 'shots', player_shots_on_target: 'shots_on_target', player_assists: 'assists', player_tackles: 'tackles' };
const STATS_COLUMN: Record<string, string> = { goals: 'goals', shots: 'total_shots', shots_on_target: 'shots_on_target', assists: 'assists', tackles: 'tackles' };
/** FPL full name -> the tokens of it and of its web name ("Carlos Henrique Casimiro" is "Casemiro"), from the copied stats rows. */
const NAMES = new Map<string, Set<string>>();
for (const r of [...STATS, ...readCsv('history/epl-player-match-stats-before-2025-08-30.csv')]) {
  const k = tokens(r['player_name']!).join(' ');
  NAMES.set(k, new Set([...(NAMES.get(k) ?? []), ...tokens(r['player_name']!), ...tokens(r['web_name']!)]));
}
const eventOf = (matchId: string) => `epl-${matchId.replace(/[^a-z0-9-]/gi, '')}`;

describe('the bundled EPL matchday (2025-08-30)', () => {
  let dir: string;
  let graded: Row[];
  let ledger: Row[];
  let snapOut: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'propgrade-soccer-replay-'));
    const db = path.join(dir, 'store.sqlite');
    // No ODDS_API_REGIONS: the folder's own oddsRegions asks the Australian books' region.
    const snap = await runCli(['--db', db, 'snapshot', 'soccer', '--replay', REPLAY], {});
    expect(snap.code, snap.stderr).toBe(0);
    snapOut = snap.stdout;
    const settle = await runCli(['--db', db, 'settle', 'soccer', '--replay', REPLAY, '--now', '2025-08-31T12:00:00Z'], {});
    expect(settle.code, settle.stderr).toBe(0);
    const store = openStore(db);
    try {
      graded = store.sqlite.prepare("SELECT * FROM graded_rows WHERE sport = 'soccer'").all() as Row[];
      ledger = store.sqlite.prepare("SELECT * FROM ledger_entries WHERE sport = 'soccer' AND user_id IS NULL").all() as Row[];
    } finally {
      await store.close();
    }
  }, 120_000);

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('grades the six matches at the scrape before the first kickoff, their kickoffs and clubs as the matches file has them', () => {
    expect(snapOut).toContain('SOCCER slate 2025-08-30');
    expect(MATCHES).toHaveLength(6);
    const events = new Map(graded.map((r) => [r['event_id'] as string, r['commence_time'] as string]));
    expect(events.size).toBe(6);
    for (const m of MATCHES) expect(events.get(eventOf(m['match_id']!)), m['match_id']).toBe(m['kickoff_utc']);
    expect(graded.filter((r) => r['grade'] !== null).length).toBeGreaterThan(1000);
  });

  it("prices every graded row at a raw props row standing at the clock: the book's decimal price, converted", () => {
    // A version stands from its snapshot until the file's next change.
    const standing = PROPS.filter((p) => p['snapshot_utc']! <= CLOCK && (p['file_next_change_utc'] === '' || p['file_next_change_utc']! > CLOCK));
    const matchOf = new Map(MATCHES.map((m) => [`${m['home_team']}|${m['away_team']}`, m]));
    const byKey = new Map<string, Raw[]>();
    for (const p of standing) {
      const stat = STAT[p['market']!];
      if (!stat || (stat === 'goals' && p['line'] !== '0.5') || !BOOK[p['book_key']!]) continue;
      const k = `${BOOK[p['book_key']!]}|${stat}|${Number(p['line'])}`;
      byKey.set(k, [...(byKey.get(k) ?? []), p]);
    }
    const clubs = (p: Raw) => p['match']!.replace(/\u00a0/g, ' ').split(' v ');
    let checked = 0;
    // A side no book prices (the under of an over-only line) is stored without a price: nothing to check.
    const priced = graded.filter((r) => (r['side'] === 'over' ? r['over_odds'] : r['under_odds']) !== null);
    for (const r of priced) {
      const candidates = byKey.get(`${r['book']}|${r['stat_type']}|${r['line']}`) ?? [];
      const name = [...(NAMES.get(tokens(r['player'] as string).join(' ')) ?? tokens(r['player'] as string))];
      const price = r['side'] === 'over' ? r['over_odds'] : r['under_odds'];
      const column = r['side'] === 'over' ? 'over_price' : 'under_price';
      const hit = candidates.find((p) => {
        const surname = tokens(p['player_name']!).at(-1) as string;
        const [home] = clubs(p);
        const m = [...matchOf.values()].find((x) => eventOf(x['match_id']!) === r['event_id']);
        const homeOk = m !== undefined && tokens(home!).some((t) => tokens(m['home_team_long'] || m['home_team']!).includes(t) || tokens(m['home_team']!).includes(t));
        return homeOk && name.includes(surname) && p[column] !== '' && american(Number(p[column])) === price;
      });
      expect(hit, `${r['player']} ${r['stat_type']} ${r['line']} ${r['side']} ${r['book']} ${price}`).toBeDefined();
      checked += 1;
    }
    expect(checked).toBe(priced.length);
    expect(checked).toBeGreaterThan(2000);
  });

  it('settles every public soccer entry from the raw player match stats: hit when the stat is over the line, void when he did not play', () => {
    expect(ledger.length).toBeGreaterThan(0);
    for (const e of ledger) {
      const m = MATCHES.find((x) => eventOf(x['match_id']!) === e['event_id']);
      expect(m, e['event_id'] as string).toBeDefined();
      const rows = STATS.filter((s) => s['match_id'] === m!['match_id'] && tokens(s['player_name']!).join(' ') === tokens(e['player'] as string).join(' '));
      expect(rows.length, e['player'] as string).toBeLessThanOrEqual(1);
      const row = rows[0];
      if (row === undefined || Number(row['minutes_played']) === 0) {
        expect(e['outcome'], e['player'] as string).toBe('void');
        continue;
      }
      const actual = Number(row[STATS_COLUMN[e['stat_type'] as string]!]);
      expect(e['actual_value'], `${e['player']} ${e['stat_type']}`).toBe(actual);
      expect(e['outcome'], `${e['player']} ${e['stat_type']}`).toBe(actual > (e['line'] as number) ? 'hit' : 'miss');
    }
  });

  it.skipIf(!sharedAvailable)('copies whole rows of ../shared/history, bytes unchanged', () => {
    const lines = (file: string) => {
      const bytes = fs.readFileSync(file);
      return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8').split('\n');
    };
    const pairs: Array<[string, string]> = [
      ['history/epl-props-2025-08-30.csv.gz', 'epl_player_props_2024-08_to_2026-01.csv.gz'],
      ['history/epl-matches-2025-08-30.csv', 'epl_matches_2024-25_2025-26.csv'],
      ['history/epl-player-match-stats-2025-08-30.csv', 'epl_player_match_stats_2024-25_2025-26.csv.gz'],
      ['history/epl-player-match-stats-before-2025-08-30.csv', 'epl_player_match_stats_2024-25_2025-26.csv.gz'],
    ];
    for (const [copy, source] of pairs) {
      const src = lines(path.join(SHARED, source));
      const mine = lines(path.join(REPLAY, copy));
      expect(mine[0], copy).toBe(src[0]);
      const set = new Set(src.slice(1));
      expect(mine.slice(1, -1).every((l) => set.has(l)), copy).toBe(true);
    }
    // Every player-match of the six matches is copied; the seed holds only earlier matches.
    const ids = new Set(MATCHES.map((m) => m['match_id']));
    const all = parse(gunzipSync(fs.readFileSync(path.join(SHARED, 'epl_player_match_stats_2024-25_2025-26.csv.gz'))), { columns: true }) as Raw[];
    expect(STATS).toHaveLength(all.filter((r) => ids.has(r['match_id'])).length);
    expect(readCsv('history/epl-player-match-stats-before-2025-08-30.csv').every((r) => r['kickoff_utc']! < '2025-08-30')).toBe(true);
  }, 60_000);
});
