/**
 * Why a row has no grade, in a word for a table cell (docs/model.md §3). The full sentence stays
 * in `refusal_reason`; the word is read from it, so a table and the JSON never disagree.
 */

export const REFUSAL_WORDS = ['no history', 'no market', 'not graded stat', 'no chance', 'bad line', 'no projection', 'other'] as const;
export type RefusalWord = (typeof REFUSAL_WORDS)[number];

/** One legend line per word, in REFUSAL_WORDS order. */
export const REFUSAL_LEGEND: Readonly<Record<RefusalWord, string>> = {
  'no history': 'too few played games with the stat in the lookback (5 needed), or no stat recorded in them',
  'no market': 'no book prices both sides of the line, so there is no fair price to grade against',
  'not graded stat': 'the stat is not graded for the sport',
  'no chance': 'the model gives the side no real chance either way at the line',
  'bad line': 'the line is not a stat threshold',
  'no projection': 'no projection was made',
  other: 'another reason: refusal_reason in --json gives it',
};

const RULES: ReadonlyArray<readonly [RegExp, RefusalWord]> = [
  [/played game\(s\) with .* in the last|no .* recorded in \d+ played games/, 'no history'],
  [/no market to grade|no valid price at/, 'no market'],
  [/is not graded for/, 'not graded stat'],
  [/no real chance/, 'no chance'],
  [/is not a stat threshold/, 'bad line'],
  [/^no projection$/, 'no projection'],
];

export function refusalWord(reason: string | null): RefusalWord | null {
  if (reason === null) return null;
  for (const [re, word] of RULES) if (re.test(reason)) return word;
  return 'other';
}
