import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Docs figures cannot drift (issue 41 item 10): every fast figure block in README.md and docs/*.md
 * (between <!-- figures:name --> markers) equals what scripts/docs-figures.mjs generates by running
 * the built CLI on the bundled replay. The slow (season, ../shared) blocks are checked by
 * `node scripts/docs-figures.mjs --check --seasons` in .ci/run after npm test.
 */
const run = (args: string[]) => spawnSync(process.execPath, ['scripts/docs-figures.mjs', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

describe('docs figures', () => {
  it('every marker has a block and every block a marker', () => {
    const r = run(['--list']);
    expect(r.status, r.stderr).toBe(0);
    const names = r.stdout.trim().split('\n').map((l) => l.split('\t')[0]);
    expect(names).toEqual(expect.arrayContaining(['loop-locked-1505', 'mlb-settle-day']));
  });

  it('the fast blocks (README loop on data/replay) are what the CLI prints now', () => {
    const r = run(['--check']);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    // Each fast block ran (the generator names it with its time on stderr).
    expect(r.stderr).toMatch(/figures:loop-locked-1505 [\d.]+ s/);
    expect(r.stderr).toMatch(/figures:mlb-settle-day [\d.]+ s/);
  }, 120_000);

  it('the README carries the generated figures, not the drifted ones (19 entries, 9-10; "most rows")', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toContain('# the bundled MLB day: 20 entries, 9 hit, 11 miss');
    expect(readme).not.toContain('most rows were locked at 15:05');
    expect(readme).not.toContain('19 entries, 9 hit, 10 miss');
  });
});
