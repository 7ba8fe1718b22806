/**
 * A streamed line is read in place: each cell's text and number must be what the cell string would
 * give (numberCell of the text), including the fast decimal read, which must equal Number() on every
 * cell it takes.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arrayRecord, LineRecord, numberCell, numberIn } from '../../../src/feeds/history/csv-record.js';

const same = (cell: string) => {
  const text = `x,${cell},y`;
  return Object.is(numberIn(text, 2, 2 + cell.length), numberCell(cell));
};

describe('numberIn reads a cell as numberCell reads its text', () => {
  it.each([
    '0', '-0', '7', '-16', '19.0', '0.4', '.5', '-.5', '5.', '1e3', '+5', ' 3', '3 ', '', ' ', '-', '.', '-.', '1.2.3', 'abc',
    '0x10', 'Infinity', '123456789012345', '1234567890123456', '0.1234567', '9007199254740993', '0.000001', '12345678.123456',
  ])('%j', (cell) => {
    expect(same(cell)).toBe(true);
  });

  it('for random decimal-looking cells', () => {
    const cell = fc.stringMatching(/^[-+]?[0-9]{0,17}(\.[0-9]{0,8})?([eE][-+]?[0-9]{1,3})?$/);
    fc.assert(fc.property(cell, same), { numRuns: 20_000 });
  });

  it('for random text', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...'0123456789.-+e ,x\t') }), (s) => same(s.replaceAll(',', ''))), { numRuns: 5_000 });
  });

  it('for every cell of the bundled seed game logs', () => {
    const text = readFileSync('data/replay/history/nba-gamelogs-before-2025-11-04.csv', 'utf8');
    let cells = 0;
    for (const line of text.split('\n'))
      for (const cell of line.split(',')) {
        cells += 1;
        if (!same(cell)) throw new Error(`differs for ${JSON.stringify(cell)}`);
      }
    expect(cells).toBeGreaterThan(600_000);
  });
});

describe('LineRecord reads a line as its split cells', () => {
  const line = 'pre\nAJ Green,,19.0, 7 ,-3\nnext';
  const start = line.indexOf('\n') + 1;
  const end = line.lastIndexOf('\n');
  const rec = new LineRecord().read(line, start, end);
  const cells = line.slice(start, end).split(',');
  const arr = arrayRecord(cells);

  it('cells, text and number', () => {
    expect(rec.cells()).toEqual(cells);
    for (let i = -1; i <= cells.length + 1; i++) {
      expect(rec.text(i), `text ${i}`).toBe(arr.text(i));
      expect(rec.number(i), `number ${i}`).toBe(arr.number(i));
    }
    expect(rec.text(-1)).toBeUndefined();
    expect(rec.text(cells.length)).toBe('');
    expect(rec.number(1)).toBeNull();
    expect(rec.number(2)).toBe(19);
    expect(rec.number(3)).toBe(7);
  });

  it('a line with more cells than its first buffer, then a shorter one', () => {
    const wide = Array.from({ length: 150 }, (_, i) => String(i)).join(',');
    const r = new LineRecord();
    expect(r.read(wide, 0, wide.length).cells()).toEqual(wide.split(','));
    expect(r.number(149)).toBe(149);
    expect(r.read('a,b', 0, 3).cells()).toEqual(['a', 'b']);
    expect(r.text(2)).toBe('');
  });

  it('an empty cell list is one empty cell, as split gives', () => {
    expect(new LineRecord().read('', 0, 0).cells()).toEqual(['']);
  });
});
