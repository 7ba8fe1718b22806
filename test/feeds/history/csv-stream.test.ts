/**
 * The history CSV reader splits quote-free text itself (and streams files in chunks); it must read
 * every input exactly as csv-parse does with the loaders' options. Compared here on the edge cases
 * of that split: delimiters, BOM, empty lines, a missing final newline, chunk boundaries anywhere.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { readCsv, scanCsvFile, streamCsvFile } from '../../../src/feeds/history/csv.js';

const reference = (text: string): string[][] | null => {
  try {
    return parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
  } catch {
    return null;
  }
};

const CASES: Record<string, string> = {
  lf: 'a,b,c\n1,2,3\n4,5,6\n',
  'no final newline': 'a,b\n1,2\n3,4',
  crlf: 'a,b\r\n1,2\r\n\r\n3,4\r\n',
  cr: 'a,b\r1,2\r3,4\r',
  'lf file with a stray cr in a cell': 'a,b\n1,2\r\n3,4\n',
  'crlf file with a lone lf in a cell': 'a,b\r\n1,2\n3\r\n4,5\r\n',
  bom: '\uFEFFa,b\n1,2\n',
  'empty lines and a blank-looking line': '\n\na,b\n\n1,2\n \n,,\n\n',
  ragged: 'a,b,c\n1\n1,2,3,4\n',
  'header only': 'a,b,c\n',
  'one line, no newline': 'a,b,c',
  empty: '',
  'only newlines': '\n\r\n\n',
  unicode: 'name,team\nLuka Dončić,DAL\nNikola Jokić,DEN\n',
  'quoted (csv-parse path)': 'name,team\n"Kevin Cross, Jr.",NO\n"a ""b""",c\n',
  'bad quote (not CSV)': 'a,b\n1,"2\n',
};

describe('readCsv reads every case as csv-parse does', () => {
  for (const [name, text] of Object.entries(CASES)) {
    it(name, () => {
      const ref = reference(text);
      const got = readCsv(text);
      if (ref === null || ref.length === 0) {
        expect(got).toBeNull();
        return;
      }
      const [header, ...body] = ref as [string[], ...string[][]];
      expect(got?.header).toEqual(header);
      expect(got?.records).toEqual(body.map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i] ?? '']))));
    });
  }
});

describe('streamCsvFile reads every case as csv-parse does, whatever the chunk size', () => {
  const dir = mkdtempSync(join(tmpdir(), 'propgrade-csv-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(CASES)) {
    it(name, () => {
      const file = join(dir, `${name.replace(/\W+/g, '_')}.csv`);
      writeFileSync(file, text);
      const { quoted, hash } = scanCsvFile(file);
      expect(quoted).toBe(text.includes('"'));
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      const ref = reference(text);
      for (const chunk of [1, 2, 3, 5, 7, 64, 1 << 20]) {
        const rows: string[][] = [];
        const ok = streamCsvFile(file, quoted, (h) => (rows.push(h), true), (rec) => rows.push(rec.cells()), chunk);
        if (ref === null || ref.length === 0) {
          expect(ok, `chunk ${chunk}`).toBe(false);
          expect(rows).toEqual([]);
        } else {
          expect(ok, `chunk ${chunk}`).toBe(true);
          expect(rows, `chunk ${chunk}`).toEqual(ref);
        }
      }
    });
  }

  it('hashes the bytes: for UTF-8 the hash of the text readFileSync(file, "utf8") decodes, so earlier markers still match', async () => {
    const { createHash } = await import('node:crypto');
    const { readFileSync } = await import('node:fs');
    const sha = (x: string | Buffer) => createHash('sha256').update(x).digest('hex');
    const utf8 = join(dir, 'hash.csv');
    writeFileSync(utf8, 'name\nDončić\nJokić\n');
    expect(scanCsvFile(utf8).hash).toBe(sha(readFileSync(utf8, 'utf8')));
    // Not UTF-8: the bytes themselves identify the file (decoding would map distinct bytes to U+FFFD alike).
    const raw = join(dir, 'raw.csv');
    writeFileSync(raw, Buffer.concat([Buffer.from('name\nDončić\n'), Buffer.from([0xff, 0xfe]), Buffer.from('\n')]));
    expect(scanCsvFile(raw).hash).toBe(sha(readFileSync(raw)));
  });
});

describe('the importer writes the JSON texts JSON.stringify would', () => {
  it('for every row of the bundled seed game logs', async () => {
    const { streamNbaGameLogsFile } = await import('../../../src/feeds/history/nba-gamelogs.js');
    const file = 'data/replay/history/nba-gamelogs-before-2025-11-04.csv';
    let n = 0;
    let differ = 0;
    streamNbaGameLogsFile(file, scanCsvFile(file).quoted, (row, json) => {
      n += 1;
      if (json.stats !== JSON.stringify(row.stats) || json.extras !== JSON.stringify(row.extras)) differ += 1;
    });
    expect(n).toBe(23_822);
    expect(differ).toBe(0);
  });
});
