import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/_io.js';
import { main } from '../../src/cli/main.js';
// --json prints the wire form (snake_case), which the API's slip schema describes.
import { slipResultWireSchema as slipResultSchema } from '../../src/server/wire/slips.js';
import { openStore } from '../../src/store/db.js';
import { seededStoreFile } from '../helpers/replay-store.js';
import { FIXTURES } from './score.js';

/** A new empty store: parse-slip reads one, and refuses a store file that is not there (issue 41 item 6). */
async function emptyStore(): Promise<string> {
  const db = join(mkdtempSync(join(tmpdir(), 'propgrade-slip-')), 'pg.sqlite');
  await openStore(db).close();
  return db;
}

async function run(args: string[], db?: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: { NO_COLOR: '1' } };
  // Every run gets its own empty store unless told: the leg grader reads it, and nothing lands in the repo.
  const code = await main(['--db', db ?? (await emptyStore()), ...args], io);
  return { code, out, err };
}

/** Writes pasted text to a temp file and returns its path. */
function pasted(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'propgrade-slip-')), 'slip.txt');
  writeFileSync(file, text);
  return file;
}

/** Splits a printed command the way a POSIX shell does. */
function shellWords(command: string): string[] {
  return execFileSync('sh', ['-c', `args() { printf '%s\\0' "$@"; }; ${command.replace(/^propgrade /, 'args ')}`], { encoding: 'utf8' })
    .split('\0')
    .slice(0, -1);
}

/** A store holding the bundled 2025-11-05 NBA board (17:05), so printed commands grade real lines. */
let boardDb: string;
beforeAll(async () => {
  boardDb = join(mkdtempSync(join(tmpdir(), 'propgrade-slip-board-')), 'pg.sqlite');
  await seededStoreFile(boardDb);
  const snap = await run(['snapshot', 'nba', '--replay', 'data/replay', '--quiet'], boardDb);
  expect(snap.code, snap.err).toBe(0);
}, 120_000);

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

  // Typed text: plain pasted lines are the generic parser's input shape, not a real slip.
  it('plain typed lines: legs read, and the printed parlay command parses back in a shell and runs', async () => {
    const db = boardDb;
    const file = pasted("Jalen Brunson over 27.5 points\nDe'Andre Hunter o2.5 threes -110\nBrunson over 2.5 threes\n");
    const r = await run(['parse-slip', '--text', file], db);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/book: unknown .* read as plain lines/);
    expect(r.out).toMatch(/to grade legs 1, 2 as a parlay:/);
    expect(r.out).toMatch(/left out: leg 3, needs review before grading \(player\)/);
    const command = r.out.split('\n').find((l) => l.trim().startsWith('propgrade '))!.trim();
    expect(command).toBe(`propgrade --db ${db} parlay --leg "Jalen Brunson|points|27.5|over" --leg "De'Andre Hunter|threes|2.5|over"`);
    const argv = shellWords(command);
    expect(argv).toEqual(['--db', db, 'parlay', '--leg', 'Jalen Brunson|points|27.5|over', '--leg', "De'Andre Hunter|threes|2.5|over"]);
    // The real parlay command grades what was printed, both legs.
    const parlay = await run(argv.slice(2), db);
    expect(parlay.code, parlay.err).toBe(0);
    expect(parlay.out).toMatch(/Combined grade: [A-F+]+ — rests on 2 of 2 legs/);
  });

  it('a leg the engine refused is left out of the printed command with why; none left prints none (issue 41)', async () => {
    // The README loop's FanDuel slip: Ausar Thompson points under 10.5, a line the board never priced.
    const r = await run(['parse-slip', '--text', join(FIXTURES, 'text', 'fanduel_straight_points.txt')], boardDb);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/refused: the latest nba snapshot has no market price for Ausar Thompson points under 10\.5/);
    expect(r.out).not.toMatch(/propgrade scan/);
    expect(r.out).toContain('nothing to grade: its readable leg was refused (the grade column says why)');
    // One refused leg of two: the other is printed as a scan, the refused one listed with its reason.
    const two = await run(['parse-slip', '--text', pasted('Jalen Brunson over 27.5 points\nJosh Hart o8.5 reb\n')], boardDb);
    expect(two.out).toMatch(/to grade leg 1:\n {2}propgrade --db \S+ scan --player "Jalen Brunson" --stat points --line 27\.5 --direction over\n {2}\(left out: leg 2, refused: .*lines it priced: 5\.5, 6\.5, 7\.5\)/);
    // Both sides of one prop: the parlay command takes the first, and says why the second is out.
    const sides = await run(['--json', 'parse-slip', '--text', pasted('Jalen Brunson over 27.5 points\nJalen Brunson under 27.5 points\nJosh Hart o6.5 reb\n')], boardDb);
    const cmd = (JSON.parse(sides.out) as { bets: Array<{ grade_command: { command: string; legs: number[]; left_out: Array<{ leg: number; reason: string }> } }> }).bets[0]!.grade_command;
    expect(cmd.legs).toEqual([1, 3]);
    expect(cmd.left_out).toEqual([{ leg: 2, reason: "another leg of the bet is on this player's stat (a parlay takes one leg per player and stat)" }]);
    const parlay = await run(shellWords(cmd.command).slice(2), boardDb);
    expect(parlay.code, parlay.err).toBe(0);
  });

  it('--json carries the command per bet in snake_case; one gradeable leg gets a scan command', async () => {
    const r = await run(['--json', 'parse-slip', '--text', pasted('Karl-Anthony Towns Under 11.5 Rebounds\nNew York Knicks over 110.5 points\n')], boardDb);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as { book: { value: unknown }; bets: Array<{ grade_command: { command: string; legs: number[]; left_out: Array<{ leg: number }> } }> };
    expect(json.book.value).toBeNull();
    const cmd = json.bets[0]!.grade_command;
    expect(cmd.command).toMatch(/ scan --player "Karl-Anthony Towns" --stat rebounds --line 11.5 --direction under$/);
    expect(cmd.legs).toEqual([1]);
    expect(cmd.left_out.map((l) => l.leg)).toEqual([2]);
  });

  it('a slip with nothing read exits 1 with what was seen, and prints no result', async () => {
    const r = await run(['parse-slip', '--text', pasted('hello world\nthis is not a slip\n')]);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/nothing read from the slip: no sportsbook fingerprint found/);
    expect(r.err).toMatch(/Jalen Brunson over 27.5 points/);
    const json = await run(['--json', 'parse-slip', '--text', '--book', 'fanduel', pasted('hello world\n')]);
    expect(json.code).toBe(1);
    expect(json.out).toBe('');
  });

  it('no empty NEEDS REVIEW heading: a leg-count mismatch alone is a warning (Hard Rock fixture, first legs only)', async () => {
    const partial = readFileSync(join(FIXTURES, 'text', 'hardrock_share_sgp.txt'), 'utf8').split('\n').slice(0, 6).join('\n');
    const r = await run(['parse-slip', '--text', pasted(partial)]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/warning: header says 4 legs but 1 was read/);
    expect(r.out).not.toMatch(/NEEDS REVIEW/);
    // Its only leg is a football market: nothing to grade, so no command either.
    expect(r.out).not.toMatch(/to grade/);
  });

  it('a parlay price pasted on its own line goes to the bet, not leg 1', async () => {
    const text = ['SGP', '2 Picks', '+37500', '18+, 9+', 'Lost', 'Wager: $2.00', '18+', 'Jordan Hawkins Points', '9+', 'Zion Williamson Assists'].join('\n');
    const r = await run(['--json', 'parse-slip', '--text', pasted(text)]);
    const result = slipResultSchema.parse(JSON.parse(r.out));
    expect(result.bets[0]!.price.value).toBe(37500);
    expect(result.bets[0]!.legs.map((l) => [l.player.value, l.price.value])).toEqual([
      ['Jordan Hawkins', null],
      ['Zion Williamson', null],
    ]);
  });
});
