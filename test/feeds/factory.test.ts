import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { boxscoreUrl } from '../../src/feeds/mlb-statsapi/boxscore.js';
import { scheduleUrl } from '../../src/feeds/mlb-statsapi/schedule.js';
import { replayKey } from '../../src/feeds/transport/replay-key.js';
import { buildResultsSource } from '../../src/feeds/factory.js';
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
