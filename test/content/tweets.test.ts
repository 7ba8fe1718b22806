import fc from 'fast-check';
import twitter from 'twitter-text';
import { describe, expect, it } from 'vitest';
import { segmentThread, TWEET_LIMIT, weightedLength } from '../../src/content/tweets.js';

/** X's own measure, straight from twitter-text (independent of the code under test). */
const xLength = (t: string) => twitter.parseTweet(t).weightedLength;

describe('tweet threads by weighted length', () => {
  it('counts as X does: a URL is 23 whatever its length, an emoji 2', () => {
    const url = `https://propgrade.com/ledger/${'x'.repeat(120)}`;
    expect(weightedLength(url)).toBe(23);
    expect(weightedLength('😀')).toBe(2);
    expect(weightedLength('abc')).toBe(3);
  });

  it('one short unit is one post without numbering', () => {
    expect(segmentThread(['MORNING WIRE, Wed Nov 5.'])).toEqual([{ n: 1, text: 'MORNING WIRE, Wed Nov 5.', weighted: 24 }]);
  });

  it('keeps long URLs whole and packs by weight, not by .length', () => {
    const url = `https://propgrade.com/r/${'a'.repeat(200)}`;
    const units = Array.from({ length: 6 }, (_, i) => `Read ${i + 1}: ${url}`);
    const thread = segmentThread(units);
    for (const t of thread) {
      expect(t.weighted).toBe(xLength(t.text));
      expect(t.weighted).toBeLessThanOrEqual(TWEET_LIMIT);
      expect(t.text.length).toBeGreaterThan(TWEET_LIMIT); // .length would have refused every one of these posts
    }
    expect(thread.map((t) => t.text).join(' ')).toContain(url);
    expect(thread.length).toBeLessThan(units.length);
  });

  it('splits an emoji-heavy unit without cutting an emoji or a family sequence', () => {
    const family = '👨‍👩‍👧‍👦';
    const unit = `${'🏀'.repeat(150)}${family}${'🔥'.repeat(150)}`; // one word, 602 weighted
    const thread = segmentThread([unit]);
    expect(thread.length).toBeGreaterThan(2);
    for (const t of thread) expect(xLength(t.text)).toBeLessThanOrEqual(TWEET_LIMIT);
    const joined = thread.map((t) => t.text.replace(/ \d+\/\d+$/, '')).join('');
    expect(joined).toBe(unit);
  });

  it('numbers a thread i/n and counts the marker in the limit', () => {
    const units = Array.from({ length: 30 }, (_, i) => `Item ${i + 1}: ${'word '.repeat(30).trim()}.`);
    const thread = segmentThread(units);
    expect(thread.length).toBeGreaterThan(9);
    thread.forEach((t, i) => {
      expect(t.text.endsWith(` ${i + 1}/${thread.length}`)).toBe(true);
      expect(xLength(t.text)).toBeLessThanOrEqual(TWEET_LIMIT);
    });
  });

  it('every post of any thread is within 280 by twitter-text, whatever the units (property)', () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.constantFrom('https://example.com/a/very/long/path/' + 'z'.repeat(90), '😀', '🏀🏀🏀', '日本語のテキスト', 'A+ Jalen Brunson under 2.5 rebounds at +155'),
    );
    const unit = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(' '));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), (units) => {
        for (const t of segmentThread(units)) {
          expect(xLength(t.text)).toBe(t.weighted);
          expect(t.weighted).toBeLessThanOrEqual(TWEET_LIMIT);
        }
      }),
      { numRuns: 150 },
    );
  });
});
