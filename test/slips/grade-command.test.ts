import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { gradeCommand, shellQuote } from '../../src/slips/commands.js';
import { parseSlipText } from '../../src/slips/parse.js';

/** What a POSIX shell makes of one quoted argument. */
const throughShell = (quoted: string): string => execFileSync('sh', ['-c', `printf '%s' ${quoted}`], { encoding: 'utf8' });

describe('shellQuote', () => {
  it('leaves safe words bare and survives a real shell for every awkward character', () => {
    expect(shellQuote('points')).toBe('points');
    expect(shellQuote('2025-11-05T17:10:00Z')).toBe('2025-11-05T17:10:00Z');
    expect(shellQuote("De'Aaron Fox|points|24.5|over")).toBe(`"De'Aaron Fox|points|24.5|over"`);
    for (const arg of ["De'Aaron Fox", 'Nikola Jokić', 'a $HOME b', 'back`tick`', 'say "hi"', "it's $5 \\ ok", '!bang', 'x;rm -rf y', 'tab\there']) {
      expect(throughShell(shellQuote(arg)), arg).toBe(arg);
    }
  });
});

describe('gradeCommand (typed legs)', () => {
  it('repeats the run globals so the command reads the same store and clock', () => {
    const bet = parseSlipText('Jalen Brunson over 27.5 points\nJosh Hart under 8.5 rebounds').bets[0]!;
    const cmd = gradeCommand(bet, { db: '/tmp/my store/pg.sqlite', now: '2025-11-05T17:10:00Z' })!;
    expect(cmd.command).toBe(
      'propgrade --db "/tmp/my store/pg.sqlite" --now 2025-11-05T17:10:00Z parlay --leg "Jalen Brunson|points|27.5|over" --leg "Josh Hart|rebounds|8.5|under"',
    );
    expect([cmd.legs, cmd.leftOut, cmd.note]).toEqual([[1, 2], [], null]);
  });

  it('no gradeable leg: no command; more legs than parlay takes: said, not cut', () => {
    expect(gradeCommand(parseSlipText('Brunson over 27.5 points\nJalen Brunson over 27.5').bets[0]!)).toBeNull();
    const seven = ['Jalen Brunson', 'Josh Hart', 'Mikal Bridges', 'OG Anunoby', 'Karl-Anthony Towns', 'Miles McBride', 'Mitchell Robinson'];
    const cmd = gradeCommand(parseSlipText(seven.map((p) => `${p} over 1.5 assists`).join('\n')).bets[0]!)!;
    expect(cmd.legs).toHaveLength(7);
    expect(cmd.note).toMatch(/at most 6 legs; this command has 7/);
  });

  it('a flagged leg is left out with its reason, never completed', () => {
    const bet = parseSlipText('Jalen Brunson over 27.5 points\nJosh Hart over 8.5\nMikal Bridges over 2.5 threes').bets[0]!;
    const cmd = gradeCommand(bet)!;
    expect(cmd.command).not.toMatch(/Josh Hart/);
    expect(cmd.leftOut).toEqual([{ leg: 2, reason: 'no stat on this leg' }]);
  });
});
