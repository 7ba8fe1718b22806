/**
 * The small document model the content desk writes in: blocks of copy rendered to plain text and
 * to HTML from the same source (so the two formats carry the same content), and the data brief
 * that lists every figure the copy printed with the stored rows it came from.
 */

export type Block = { kind: 'heading'; text: string } | { kind: 'paragraph'; text: string } | { kind: 'list'; items: string[] };

export const heading = (text: string): Block => ({ kind: 'heading', text });
export const paragraph = (text: string): Block => ({ kind: 'paragraph', text });
export const list = (items: string[]): Block => ({ kind: 'list', items });

/** Plain text: headings in capitals-as-written, a blank line between blocks, list items as "- ". */
export function blocksToText(blocks: readonly Block[]): string {
  return blocks
    .map((b) => (b.kind === 'list' ? b.items.map((i) => `- ${i}`).join('\n') : b.text))
    .join('\n\n');
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** HTML fragment of the same blocks; `h` is the heading level used. */
export function blocksToHtml(blocks: readonly Block[], h: 'h2' | 'h3' = 'h2'): string {
  return blocks
    .map((b) => {
      if (b.kind === 'heading') return `<${h}>${escapeHtml(b.text)}</${h}>`;
      if (b.kind === 'paragraph') return `<p>${escapeHtml(b.text)}</p>`;
      return `<ul>\n${b.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('\n')}\n</ul>`;
    })
    .join('\n');
}

/** Where a figure came from: the table, the row ids, and the selection in words. */
export interface FigureSource {
  table: 'graded_rows' | 'grade_locks' | 'snapshots' | 'ledger_entries';
  ids: number[];
  where: string;
}

/** One figure a document printed. `display` is exactly what the copy shows. */
export interface Figure {
  key: string;
  label: string;
  value: number | string;
  display: string;
  /** The sample behind the figure (rows counted or decided entries); null for a single stored value. */
  n: number | null;
  source: FigureSource;
}

/** Collects a document's figures as its copy is written: `add` returns the display to print. */
export class Brief {
  readonly figures: Figure[] = [];

  add(key: string, label: string, value: number | string, display: string, n: number | null, source: FigureSource): string {
    this.figures.push({ key, label, value, display, n, source });
    return display;
  }
}

export const rowsSource = (table: FigureSource['table'], rows: ReadonlyArray<{ id: number }>, where: string): FigureSource => ({
  table,
  ids: rows.map((r) => r.id),
  where,
});
