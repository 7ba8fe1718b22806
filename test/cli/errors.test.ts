import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { gradedSportSchema } from '../../src/domain/sports.js';
import { AppError, describeZodIssues, parseOrBadInput, showValue } from '../../src/errors.js';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'pg-errors-'));
const db = join(dir, 'pg.sqlite');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One bad-usage run: exit 2 and exactly one stderr line, `propgrade: <message>`. */
async function badUsage(argv: string[]): Promise<string> {
  const r = await runCli(['--db', db, ...argv]);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.split('\n').filter((l) => l.length > 0);
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^propgrade: /);
  return lines[0]!.slice('propgrade: '.length);
}

function issuesOf(schema: z.ZodType, value: unknown): z.core.$ZodIssue[] {
  const r = schema.safeParse(value);
  if (r.success) throw new Error(`expected ${JSON.stringify(value)} to fail`);
  return r.error.issues;
}

describe('bad positional sports name the argument and the value (CLI)', () => {
  it('snapshot nfl', async () => {
    expect(await badUsage(['snapshot', 'nfl'])).toBe("sport: 'nfl' is not one of all, mlb, nba, wnba, soccer");
  });

  it('settle nfl', async () => {
    expect(await badUsage(['settle', 'nfl'])).toBe("sport: 'nfl' is not one of all, mlb, nba, wnba, soccer");
  });

  it('slate cricket (a single sport, no "all")', async () => {
    expect(await badUsage(['slate', 'cricket'])).toBe("sport: 'cricket' is not one of mlb, nba, wnba, soccer");
  });
});

describe('bad numeric flags name the flag and the value (CLI)', () => {
  it("--port abc says what was typed, not NaN", async () => {
    expect(await badUsage(['serve', '--port', 'abc'])).toBe("--port: expected a number, got 'abc'");
  });

  it('--port 99999 names the bound and the value', async () => {
    expect(await badUsage(['serve', '--port', '99999'])).toBe('--port: expected at most 65535, got 99999');
  });

  it('--port 1.5 asks for an integer', async () => {
    expect(await badUsage(['serve', '--port', '1.5'])).toBe('--port: expected an integer, got 1.5');
  });

  // Through the shared parseOptions (src/cli/_context.ts): the flag and "expected a number" today;
  // the typed 'abc' once parseOptions passes its raw input to describeZodIssues.
  it('--limit abc and --days abc name the flag and what a number is', async () => {
    expect(await badUsage(['ledger', '--limit', 'abc'])).toMatch(/^--limit: expected a number, got 'abc'$/);
    expect(await badUsage(['record', '--days', 'abc'])).toMatch(/^--days: expected a number, got 'abc'$/);
    expect(await badUsage(['record', '--days', '0'])).toBe('--days: expected at least 1, got 0');
  });
});

describe('describeZodIssues and the value-naming error map', () => {
  it('names the typed text behind a coerced NaN when given the raw input', () => {
    const schema = z.object({ limit: z.coerce.number().int().min(1) });
    const issues = issuesOf(schema, { limit: 'abc' });
    expect(describeZodIssues(issues, '--', { limit: 'abc' })).toBe("--limit: expected a number, got 'abc'");
    // Without the raw input zod only has NaN left; it says so rather than inventing a value.
    expect(describeZodIssues(issues, '--')).toBe('--limit: expected a number, got NaN');
  });

  it('parseOrBadInput throws BAD_INPUT (exit 2) naming the flag and the value', () => {
    const schema = z.object({ port: z.coerce.number().int() });
    let caught: unknown;
    try {
      parseOrBadInput(schema, { port: 'eighty' }, '--');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).exitCode).toBe(2);
    expect((caught as AppError).message).toBe("--port: expected a number, got 'eighty'");
    expect(parseOrBadInput(schema, { port: '8787' })).toEqual({ port: 8787 });
  });

  it('an enum inside an object is named by its path, not twice', () => {
    const schema = z.object({ sport: gradedSportSchema });
    expect(describeZodIssues(issuesOf(schema, { sport: 'nfl' }), '--')).toBe("--sport: 'nfl' is not one of mlb, nba, wnba, soccer");
  });

  it('a union of a literal and a type says both', () => {
    const schema = z.union([z.literal('all'), z.number()]);
    expect(describeZodIssues(issuesOf(schema, 'x'))).toBe("expected all or a number, got 'x'");
  });

  it('a missing required field says required, not "got undefined"', () => {
    expect(describeZodIssues(issuesOf(z.object({ player: z.string() }), {}))).toBe('player: required (expected a string)');
  });

  it('never echoes a too-short or too-long string (it may be a key), only its length', () => {
    const schema = z.object({ key: z.string().min(16), name: z.string().max(3) });
    const text = describeZodIssues(issuesOf(schema, { key: 'hunter2', name: 'abcdef' }));
    expect(text).toBe('key: expected at least 16 characters, got 7; name: expected at most 3 characters, got 6');
    expect(text).not.toContain('hunter2');
  });

  it("a schema's own message still wins over the map", () => {
    const schema = z.object({ when: z.string().regex(/^\d{4}$/, 'expected yyyy') });
    expect(describeZodIssues(issuesOf(schema, { when: 'x' }))).toBe('when: expected yyyy');
  });

  it('formats named formats with the value', () => {
    expect(describeZodIssues(issuesOf(z.object({ email: z.email() }), { email: 'ana' }))).toBe("email: expected an email address, got 'ana'");
  });

  it('shows values on one line, quoted and cut', () => {
    expect(showValue('a\nb')).toBe("'a\\nb'");
    expect(showValue('x'.repeat(50))).toBe(`'${'x'.repeat(40)}...'`);
    expect(showValue(undefined)).toBe('nothing');
    expect(showValue(Number.NaN)).toBe('NaN');
    expect(showValue([1])).toBe('a list');
  });
});
