import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { createTransport } from '../../../src/feeds/transport/index.js';

function replayFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'propgrade-factory-'));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ version: 1, defaultNow: '2025-06-01T12:00:00Z', entries: [] }));
  return dir;
}

describe('createTransport', () => {
  it('replay when a folder is given by flag or by PROPGRADE_REPLAY (flag wins, even with a key set)', async () => {
    expect(createTransport({ replayDir: replayFolder(), env: { ODDS_API_KEY: 'k' } }).kind).toBe('replay');
    expect(createTransport({ env: { PROPGRADE_REPLAY: replayFolder() } }).kind).toBe('replay');
  });

  it('record when asked; live when a key is configured', async () => {
    const record = createTransport({ recordDir: mkdtempSync(join(tmpdir(), 'propgrade-factory-')), env: {} });
    expect(record.kind).toBe('record');
    await record.close?.();
    const live = createTransport({ env: { ODDS_API_KEY: 'k' } });
    expect(live.kind).toBe('live');
    await live.close?.();
  });

  it('with nothing configured, says how to run on the bundled data (BAD_INPUT)', () => {
    let caught: unknown;
    try {
      createTransport({ env: {} });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe('BAD_INPUT');
    expect((caught as AppError).message).toContain('--replay data/replay');
    expect((caught as AppError).message).toContain('ODDS_API_KEY');
  });

  it('rejects --replay with --record, and a replay folder without a manifest', () => {
    expect(() => createTransport({ replayDir: replayFolder(), recordDir: replayFolder() })).toThrow(/either --replay <dir> or --record <dir>/);
    expect(() => createTransport({ replayDir: mkdtempSync(join(tmpdir(), 'propgrade-factory-')) })).toThrow(/no readable manifest.json/);
  });
});
