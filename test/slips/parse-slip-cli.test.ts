import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/_io.js';
import { main } from '../../src/cli/main.js';
import { slipResultSchema } from '../../src/slips/schema.js';
import { FIXTURES } from './score.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: { NO_COLOR: '1' } };
  // Every run gets its own empty store: the leg grader reads it, and nothing lands in the repo.
  const code = await main(['--db', join(mkdtempSync(join(tmpdir(), 'propgrade-slip-')), 'pg.sqlite'), ...args], io);
  return { code, out, err };
}

describe('propgrade parse-slip', () => {
  it('--text --json prints the schema-valid result of pasted text', async () => {
    const r = await run(['--json', 'parse-slip', '--text', join(FIXTURES, 'text', 'draftkings_mybets_threes.txt')]);
    expect(r.code).toBe(0);
    const result = slipResultSchema.parse(JSON.parse(r.out));
    expect(result.bets[0]!.legs[0]!.player.value).toBe('Marcus Smart');
    // Graded by the scan engine: an empty store knows no Marcus Smart, so the leg is a refusal, shown as one.
    const grading = result.bets[0]!.legs[0]!.grading;
    expect(grading?.status).toBe('refused');
    expect(grading?.status === 'refused' && (grading.refusal as { flags: string[] }).flags).toContain('insufficient_data');
  });

  it('human output shows legs, flags and the grading state', async () => {
    const r = await run(['parse-slip', '--text', '--book', 'prizepicks', join(FIXTURES, 'text', 'prizepicks_transcript.txt')]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Bam Adebayo/);
    expect(r.out).toMatch(/NEEDS REVIEW/);
    expect(r.out).toMatch(/highlight colour/);
  });

  it('a non-image exits 2 with a clear message', async () => {
    const r = await run(['parse-slip', join(FIXTURES, 'text', 'README.md')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/not an image/);
  });

  it('a file over 4 MB exits 2 before anything is decoded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'propgrade-slip-'));
    const big = join(dir, 'big.png');
    writeFileSync(big, Buffer.alloc(4 * 1024 * 1024 + 1));
    const r = await run(['parse-slip', big]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/upload cap 4 MB/);
  });

  it('a missing file and a bad --book exit 2', async () => {
    expect((await run(['parse-slip', '/nonexistent/slip.png'])).code).toBe(2);
    expect((await run(['parse-slip', '--book', 'caesars', '--text', join(FIXTURES, 'text', 'README.md')])).code).toBe(2);
  });

  it('reads a real screenshot offline through OCR', { timeout: 60_000 }, async () => {
    const r = await run(['--json', 'parse-slip', join(FIXTURES, 'images', 'hr_app_parlay_moneyline_light.png')]);
    expect(r.code).toBe(0);
    const result = slipResultSchema.parse(JSON.parse(r.out));
    expect(result.book.value).toBe('hardrock');
    expect(result.bets[0]!.legs.map((l) => l.price.value)).toEqual([-275, -250, -325]);
    expect(result.ocr!.words).toBeGreaterThan(10);
  });
});
