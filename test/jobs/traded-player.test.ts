import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import type { GameEvent, PropQuote } from '../../src/domain/entities.js';
import { currentTeam } from '../../src/domain/slate.js';
import type { OddsSource, StatusSource } from '../../src/feeds/sources.js';
import { importGameLogs } from '../../src/jobs/import-history.js';
import { runSnapshot } from '../../src/jobs/snapshot-run.js';
import { latestSnapshot, snapshotRows } from '../../src/store/repo/snapshots.js';
import { collectingLogger, tempStore } from '../helpers/replay-store.js';

/**
 * Bailey Falter was traded PIT -> KC; his first KC game was a start at Boston on 2025-08-04. His
 * history (22 real PIT lines) ends before it, so the history alone names PIT, a team not in the game.
 * The props are the real last pregame quotes of that start (test/fixtures/history/PROVENANCE.md).
 */
const HISTORY = 'test/fixtures/history/mlb-pitcher-gamelogs-falter-before-2025-08-04.csv';
const PROPS = 'test/fixtures/history/mlb-strikeouts-falter-2025-08-04.csv';

interface PropLine {
  event_id: string;
  game_time: string;
  away_team: string;
  home_team: string;
  pitcher_name: string;
  line: string;
  book: string;
  last_snapshot_at: string;
  last_over_odds: string;
  last_under_odds: string;
}

const props = parse(readFileSync(PROPS, 'utf8'), { columns: true, skip_empty_lines: true }) as PropLine[];
const first = props[0]!;
const event: GameEvent = {
  provider: 'odds-api',
  id: first.event_id,
  sport: 'mlb',
  commenceTime: new Date(first.game_time).toISOString(),
  homeTeam: first.home_team,
  awayTeam: first.away_team,
  homeAbbr: 'BOS',
  awayAbbr: 'KC',
};
// "BetOnline.ag" -> "betonlineag", the Odds API's bookmaker key.
const quotes: PropQuote[] = props.flatMap((p) =>
  (['over', 'under'] as const).map((side) => ({
    eventId: p.event_id,
    sport: 'mlb' as const,
    book: p.book.toLowerCase().replace(/[^a-z0-9]/g, ''),
    stat: 'strikeouts' as const,
    player: p.pitcher_name,
    side,
    line: Number(p.line),
    price: Number(side === 'over' ? p.last_over_odds : p.last_under_odds),
    lastUpdate: new Date(p.last_snapshot_at).toISOString(),
  })),
);
const odds: OddsSource = { events: async () => [event], propQuotes: async () => quotes, credits: () => null };
// The quotes' own time: the last pregame snapshot, 18:17 ET.
const now = new Date(first.last_snapshot_at);

/** The MLB Stats API schedule of that day names Falter KC's probable pitcher at BOS (game_pk 776880). */
const probables: StatusSource = {
  injuries: async () => null,
  lineups: async () => ({ confirmed: new Map(), postedTeams: new Set(), teams: new Map([['bailey falter', 'KC']]) }),
};

describe('a traded pitcher is graded for the team the game names him for', () => {
  let t: ReturnType<typeof tempStore> | null = null;
  afterEach(() => {
    t?.cleanup();
    t = null;
  });

  const seeded = async () => {
    t = tempStore();
    const imported = await importGameLogs(t.store, 'mlb', HISTORY, now);
    expect(imported?.written).toBe(22);
    return t.store;
  };

  it('without the game data, the history row (PIT) is not in KC @ BOS and every row is dropped', async () => {
    const store = await seeded();
    const summary = await runSnapshot('mlb', { store, odds, now, allowedBooks: null, log: collectingLogger(), source: 'replay' });
    expect(summary.rows).toBe(0);
    expect(summary.dropped).toBeGreaterThan(0);
  });

  it('with the probable pitcher of the game, his first KC start is graded for KC against BOS', async () => {
    const store = await seeded();
    const summary = await runSnapshot('mlb', { store, odds, status: probables, now, allowedBooks: null, log: collectingLogger(), source: 'replay' });
    expect(summary.status).toBe('ok');
    expect(summary.dropped).toBe(0);
    const snap = await latestSnapshot(store, 'mlb');
    const rows = (await snapshotRows(store, snap!.id)).filter((r) => r.playerKey === 'bailey falter');
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.team).toBe('KC');
      expect(r.opponent).toBe('BOS');
    }
    // The 3.5 main line (eight books) grades from his real PIT history.
    const main = rows.find((r) => r.line === 3.5 && r.side === 'under');
    expect(main?.grade).not.toBeNull();
  });

  it('a team the game does not carry never replaces the history team', () => {
    expect(currentTeam('KC', 'PIT', event)).toBe('KC');
    expect(currentTeam('NYY', 'PIT', event)).toBe('PIT');
    expect(currentTeam(null, 'PIT', event)).toBe('PIT');
  });
});
