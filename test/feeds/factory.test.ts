import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { boxscoreUrl } from '../../src/feeds/mlb-statsapi/boxscore.js';
import { scheduleUrl } from '../../src/feeds/mlb-statsapi/schedule.js';
import { replayKey } from '../../src/feeds/transport/replay-key.js';
import { bookSelection, buildResultsSource, contextProviders, probeTransport, recordedSportKeys, replayBookSelection } from '../../src/feeds/factory.js';
import { collectingLogger } from '../helpers/replay-store.js';

describe('results source: MLB settles from the MLB Stats API', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the schedule, then each final game\'s boxscore; unrecorded boxscores stay unavailable', async () => {
    // A replay folder holding two real recordings (test/fixtures/mlb-statsapi, see PROVENANCE.md).
    dir = mkdtempSync(join(tmpdir(), 'propgrade-mlb-'));
    mkdirSync(join(dir, 'mlb'));
    copyFileSync('test/fixtures/mlb-statsapi/mlb-schedule-2023-08-22.json', join(dir, 'mlb/schedule.json'));
    copyFileSync('test/fixtures/mlb-statsapi/mlb-boxscore-716896-2023-08-22.json', join(dir, 'mlb/boxscore.json'));
    const entry = (url: string, file: string) => ({ key: replayKey({ provider: 'mlb-statsapi', url }), provider: 'mlb-statsapi', url, file, status: 200, headers: {} });
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ version: 1, entries: [entry(scheduleUrl('2023-08-22'), 'mlb/schedule.json'), entry(boxscoreUrl(716896), 'mlb/boxscore.json')] }));

    const log = collectingLogger();
    const sources = await buildResultsSource(loadConfig({}), { replayDir: dir, recordDir: null, now: new Date('2023-08-23T12:00:00Z'), log });
    const games = await sources.results.results('mlb', '2023-08-22');
    expect(games).not.toBeNull();
    const game = games!.find((g) => g.gameId === '716896');
    expect(game?.status).toBe('final');
    const candelario = game!.players!.find((p) => p.playerName === 'Jeimer Candelario');
    expect(candelario?.stats).toMatchObject({ hits: 2, total_bases: 6, home_runs: 1 });
    expect(candelario?.date).toBe('2023-08-22');
    // Other final games of the day have no recorded boxscore: unavailable (null), never empty.
    const others = games!.filter((g) => g.gameId !== '716896' && g.status === 'final');
    expect(others.length).toBeGreaterThan(0);
    for (const g of others) expect(g.players).toBeNull();
    await sources.close();
  });
});

let tmp: string | null = null;
afterEach(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  tmp = null;
});

describe('context providers: which transport the context reads go through', () => {
  it('a replay folder serves keyless and odds reads alike, kept apart from live values by its source', async () => {
    const p = contextProviders(loadConfig({}), { replayDir: 'data/replay', now: () => new Date('2025-11-05T22:00:00Z') });
    expect(p.source).toBe('replay');
    expect(p.keyless.kind).toBe('replay');
    expect(p.odds).toBe(p.keyless);
    await p.close();
  });

  it('live without ODDS_API_KEY: keyless feeds go live, the odds-backed parts say why they have no source', async () => {
    const p = contextProviders(loadConfig({}), { replayDir: null, now: () => new Date() });
    expect(p.source).toBe('live');
    expect(p.keyless.kind).toBe('live');
    expect(p.odds).toBeNull();
    expect(p.oddsMissing).toMatch(/ODDS_API_KEY is not set/);
    await p.close();
  });

  it('--record wins over PROPGRADE_REPLAY and carries the key to the odds reads', async () => {
    tmp = mkdtempSync(join(tmpdir(), 'propgrade-ctx-'));
    const p = contextProviders(loadConfig({ PROPGRADE_REPLAY: 'data/replay', ODDS_API_KEY: 'k' }), { replayDir: null, recordDir: tmp, now: () => new Date() });
    expect(p.source).toBe('live');
    expect(p.keyless.kind).toBe('record');
    expect(p.odds).toBe(p.keyless);
    expect(p.oddsApiKey).toBe('k');
    await p.close();
  });

  it('a missing replay folder is refused at once, not at the first read', () => {
    expect(() => contextProviders(loadConfig({}), { replayDir: join(tmpdir(), 'propgrade-no-such-folder'), now: () => new Date() })).toThrow();
  });
});

describe('book selection for Odds API calls', () => {
  it('ALLOWED_BOOKS names the bookmakers; otherwise the regions, empty items dropped', () => {
    expect(bookSelection(loadConfig({ ALLOWED_BOOKS: 'draftkings,fanduel' }))).toEqual({ bookmakers: ['draftkings', 'fanduel'] });
    expect(bookSelection(loadConfig({ ODDS_API_REGIONS: 'us, us2,' }))).toEqual({ regions: ['us', 'us2'] });
  });

  it("a replayed folder's oddsRegions (per sport or whole) is asked for; ALLOWED_BOOKS still wins; no folder keeps the configuration", () => {
    // The bundled folder: its EPL matchday is of Australian books (data/README.md), the other sports of US ones.
    const bundled = replayBookSelection(loadConfig({}), 'data/replay');
    expect(bundled('soccer')).toEqual({ regions: ['au'] });
    expect(bundled('nba')).toEqual({ regions: ['us'] });
    expect(replayBookSelection(loadConfig({ ALLOWED_BOOKS: 'neds' }), 'data/replay')('soccer')).toEqual({ bookmakers: ['neds'] });
    expect(replayBookSelection(loadConfig({ ODDS_API_REGIONS: 'eu' }), null)('soccer')).toEqual({ regions: ['eu'] });
    const dir = mkdtempSync(join(tmpdir(), 'propgrade-regions-'));
    try {
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ version: 1, oddsRegions: 'us,eu,au', entries: [] }));
      expect(replayBookSelection(loadConfig({}), dir)('mlb')).toEqual({ regions: ['us', 'eu', 'au'] });
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ version: 1, oddsRegions: { cricket: 'au' }, entries: [] }));
      expect(() => replayBookSelection(loadConfig({}), dir)).toThrow(/oddsRegions/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a replayed folder names the Odds API sport keys it holds an events list for', () => {
    expect([...(recordedSportKeys('data/replay') ?? [])].sort()).toEqual(['baseball_mlb', 'basketball_nba', 'basketball_wnba', 'soccer_epl']);
    expect(recordedSportKeys(null)).toBeNull();
  });
});

describe('the feeds doctor transport', () => {
  it('is live, or a recorder over live with --record', async () => {
    const live = probeTransport({ recordDir: null, now: () => new Date() });
    expect(live.kind).toBe('live');
    await live.close?.();
    tmp = mkdtempSync(join(tmpdir(), 'propgrade-probe-'));
    const rec = probeTransport({ recordDir: tmp, now: () => new Date(), live: { retries: 0 } });
    expect(rec.kind).toBe('record');
    await rec.close?.();
  });
});
