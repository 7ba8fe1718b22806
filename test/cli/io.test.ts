import { describe, expect, it } from 'vitest';
import { show, teamText } from '../../src/cli/_io.js';

describe('CLI text for values that may be missing', () => {
  it('show: a missing value is a dash, a real 0 stays 0', () => {
    expect(show(null)).toBe('-');
    expect(show(undefined)).toBe('-');
    expect(show(0)).toBe('0');
    expect(show(1.234, (v) => v.toFixed(1))).toBe('1.2');
  });

  it('teamText: a team code as is, an unknown team said in words (no stand-in code)', () => {
    expect(teamText('NY')).toBe('NY');
    expect(teamText(null)).toBe('team unknown');
    expect(teamText(undefined)).toBe('team unknown');
  });
});
