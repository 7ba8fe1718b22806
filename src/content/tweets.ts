import twitter from 'twitter-text';

/**
 * Tweet threads, measured the way X measures them: twitter-text's weighted length (a URL counts
 * 23 whatever its length, an emoji 2, CJK 2, most Latin text 1 per character), never `.length`.
 */

/** X's limit per post (spec Limits: tweet segment 280 characters maximum). */
export const TWEET_LIMIT = 280;

export interface Tweet {
  /** 1-based position in the thread. */
  n: number;
  text: string;
  /** twitter-text's weighted length of `text`; at most TWEET_LIMIT. */
  weighted: number;
}

export function weightedLength(text: string): number {
  return twitter.parseTweet(text).weightedLength;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Splits one unit that cannot fit a post: at spaces, and inside a space-free run only between graphemes (an emoji is never cut). */
function splitUnit(unit: string, limit: number): string[] {
  const out: string[] = [];
  let current = '';
  const push = () => {
    if (current.trim() !== '') out.push(current.trim());
    current = '';
  };
  for (const word of unit.split(/\s+/).filter(Boolean)) {
    const joined = current === '' ? word : `${current} ${word}`;
    if (weightedLength(joined) <= limit) {
      current = joined;
      continue;
    }
    push();
    if (weightedLength(word) <= limit) {
      current = word;
      continue;
    }
    // A single word over the limit (no space to break at): cut between graphemes.
    for (const { segment } of graphemes.segment(word)) {
      if (weightedLength(current + segment) > limit) push();
      current += segment;
    }
  }
  push();
  return out;
}

/** The numbering appended to each post of a thread longer than one: " 2/5". */
const marker = (i: number, total: number) => ` ${i}/${total}`;

function pack(units: readonly string[], limit: number): string[] {
  const posts: string[] = [];
  let current = '';
  for (const unit of units.flatMap((u) => (weightedLength(u) <= limit ? [u.trim()] : splitUnit(u, limit)))) {
    if (unit === '') continue;
    const joined = current === '' ? unit : `${current}\n\n${unit}`;
    if (weightedLength(joined) <= limit) current = joined;
    else {
      if (current !== '') posts.push(current);
      current = unit;
    }
  }
  if (current !== '') posts.push(current);
  return posts;
}

/**
 * Packs units (sentences or items, in order) into a thread: units are joined with a blank line
 * while the post stays within the limit, a unit longer than a post is split at spaces, and a
 * thread of several posts is numbered " i/n". Every post's weighted length is at most `limit`,
 * numbering included.
 *
 * @example
 * segmentThread(['MORNING WIRE, Wed Nov 5.', 'A+ Jalen Brunson under 2.5 rebounds, +155 at bovada.'])
 */
export function segmentThread(units: readonly string[], limit = TWEET_LIMIT): Tweet[] {
  let posts = pack(units, limit);
  if (posts.length > 1) {
    // Reserve room for the widest marker, then pack again; the count can only shrink or stay.
    let reserve = weightedLength(marker(posts.length, posts.length));
    for (;;) {
      posts = pack(units, limit - reserve);
      const needed = weightedLength(marker(posts.length, posts.length));
      if (needed <= reserve) break;
      reserve = needed;
    }
  }
  const total = posts.length;
  return posts.map((text, i) => {
    const full = total > 1 ? `${text}${marker(i + 1, total)}` : text;
    return { n: i + 1, text: full, weighted: weightedLength(full) };
  });
}
