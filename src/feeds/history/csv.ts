import { parse } from 'csv-parse/sync';

/** A CSV parsed into header-keyed records, plus the header, or null when the text is not CSV. */
export function readCsv(text: string): { header: string[]; records: Record<string, string>[] } | null {
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
  } catch {
    return null;
  }
  const [header, ...body] = rows;
  if (!header) return null;
  const records = body.map((cells) => {
    const rec: Record<string, string> = {};
    header.forEach((h, i) => (rec[h] = cells[i] ?? ''));
    return rec;
  });
  return { header, records };
}

export function hasColumns(header: readonly string[], required: readonly string[]): string[] {
  return required.filter((c) => !header.includes(c));
}

/** A CSV cell as a finite number, or null when empty / not a number (never 0 for a blank). */
export function numberCell(cell: string | undefined): number | null {
  if (cell === undefined) return null;
  const t = cell.trim();
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** The result of a loader: parsed rows and a line for every row it had to skip (never silent). */
export interface LoadReport<T> {
  rows: T[];
  warnings: string[];
}
