import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assertEditorial, BANNED_TERMS, checkEditorial, EditorialError } from '../../src/content/rules.js';

/** One phrase per banned term, written the way a tout would write it. */
const SAMPLES: Readonly<Record<string, string>> = {
  guaranteed: 'This over is guaranteed tonight.',
  lock: 'Brunson points is the lock of the day.',
  'risk-free': 'A risk-free way to play the slate.',
  'sure thing': 'The under is a sure thing.',
  "can't lose": "You can't lose with this parlay.",
  'free money': 'That line is free money.',
  'easy money': 'Easy money on the Knicks.',
  'no-brainer': 'A no-brainer at +155.',
  'slam dunk': 'Slam dunk play on the over.',
  'best bet': 'Our best bet of the night.',
  'bet the house': 'Bet the house on this one.',
  hammer: 'Hammer the over before it moves.',
  'get rich': 'Get rich with our grades.',
  'whale play': 'Whale play of the night.',
};

describe('editorial rules', () => {
  it('refuses an exclamation mark anywhere, markup included', () => {
    expect(checkEditorial('A+ at +155. Big night!')).toMatchObject([{ rule: 'exclamation', term: '!' }]);
    expect(checkEditorial('<!doctype html><p>fine</p>')).toHaveLength(1);
    expect(() => assertEditorial('test doc', { text: 'fine', html: '<p>wow!</p>' })).toThrow(/exclamation mark in html/);
  });

  it('has a sample for every banned term, and each sample is refused for that term', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(BANNED_TERMS.map((b) => b.term).sort());
    for (const banned of BANNED_TERMS) {
      const hits = checkEditorial(SAMPLES[banned.term] ?? '');
      expect(hits.map((h) => h.term), banned.term).toContain(banned.term);
    }
  });

  it('matches whole words case-insensitively: Lockhart, blocks and unlocked pass; LOCK and Guaranteed do not', () => {
    expect(checkEditorial('Lockhart had 3 blocks; the door was unlocked; clocks and locksmiths.')).toEqual([]);
    expect(checkEditorial('LOCK IT IN')).toMatchObject([{ term: 'lock', found: 'LOCK' }]);
    expect(checkEditorial('Guaranteed.')).toMatchObject([{ term: 'guaranteed', found: 'Guaranteed' }]);
  });

  it('passes the house phrasing of a grade', () => {
    const copy =
      "A grade is a claim about a price, not a forecast of the result: the expected value of the book's price against the market's own fair price. 21+ only. Gambling problem? Call 1-800-GAMBLER.";
    expect(checkEditorial(copy)).toEqual([]);
  });

  it('names the document, part, term, why and the words around the hit', () => {
    let error: unknown;
    try {
      assertEditorial('the daily report for 2025-11-05', { subject: 'propgrade daily', text: 'Tonight: Jalen Brunson is a lock at +155 on rebounds.' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EditorialError);
    const e = error as EditorialError;
    expect(e.message).toContain('the daily report for 2025-11-05');
    expect(e.message).toContain("the banned term 'lock'");
    expect(e.message).toContain('in text');
    expect(e.message).toContain('Jalen Brunson is a lock at +155');
    expect(e.exitCode).toBe(1);
    expect(e.violations).toHaveLength(1);
  });

  it('docs/content.md lists every banned term', () => {
    const doc = readFileSync('docs/content.md', 'utf8');
    for (const banned of BANNED_TERMS) expect(doc, banned.term).toContain(`\`${banned.term}\``);
  });
});
