import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContentFacts } from '../../src/store/repo/content-facts.js';
import { buildDailyReport, EmptyReportError, UNSUBSCRIBE_TAG, type DailyReport } from '../../src/content/report.js';
import { EditorialError } from '../../src/content/rules.js';
import { tempStore } from '../helpers/replay-store.js';
import { LOOP_DATE, loopStore, NOON, type LoopStore } from './_loop.js';

const NOW = new Date(NOON);

/** The visible text of an HTML document: tags dropped, entities decoded, whitespace folded. */
function visibleText(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<title>[\s\S]*?<\/title>/g, ' ')
    .replace(/<\/?a\b[^>]*>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

describe('daily report on the replay loop', () => {
  let loop: LoopStore;
  let report: DailyReport;
  beforeAll(async () => {
    loop = await loopStore('settled');
    report = buildDailyReport(await readContentFacts(loop.store, { now: NOW }));
  }, 120_000);
  afterAll(() => loop?.cleanup());

  it('is built from the snapshot signals, the settle and the 30-day record; the empty streak watch is left out with its reason', () => {
    expect(report.date).toBe(LOOP_DATE);
    expect(report.subject).toBe('propgrade daily for Wed Nov 5');
    expect(report.sections.map((s) => s.id)).toEqual(['board', 'settle', 'record']);
    expect(report.omitted).toEqual([{ id: 'streaks', reason: expect.stringContaining('consecutive settled results') }]);
    expect(report.text).toContain('The largest claims on the board, each at the price and time it was graded:');
    expect(report.text).toMatch(/A\+ \S.* at [+-]\d+ \(\w+\), graded \d{1,2}:\d{2} [AP]M ET against a fair price of [+-]\d+ from \d+ other books/);
    expect(report.figures.length).toBeGreaterThan(20);
  });

  it('carries the responsible-gambling footer in both formats: 21+, 1-800-GAMBLER and listmonk\'s unsubscribe tag', () => {
    for (const body of [report.text, report.html]) {
      expect(body).toContain('21+');
      expect(body).toContain('1-800-GAMBLER');
      expect(body).toContain(UNSUBSCRIBE_TAG);
    }
    expect(UNSUBSCRIBE_TAG).toBe('{{ UnsubscribeURL }}');
    expect(report.html).toContain(`<a href="${UNSUBSCRIBE_TAG}">Unsubscribe</a>`);
  });

  it('HTML and text carry the same content: every line of the text is in the HTML\'s visible text', () => {
    const visible = visibleText(report.html);
    for (const line of report.text.split('\n')) {
      const words = line.replace(/^- /, '').replace(/^--$/, '').trim();
      if (words === '' || words === words.toUpperCase()) continue; // headings are capitalised in text only
      // A text table pads its cells with spaces; the HTML carries the same cells in a <table>.
      expect(visible, line).toContain(words.replace(/ Unsubscribe: \{\{ UnsubscribeURL \}\}$/, '').replace(/\s+/g, ' '));
    }
  });

  it('has no exclamation mark anywhere and no banned vocabulary', () => {
    expect(report.html).not.toContain('!');
    expect(report.text).not.toContain('!');
    expect(report.text).not.toMatch(/\b(guaranteed|lock|risk-free|sure thing|free money)\b/i);
  });

  it('refuses a report whose copy would break the rules, with the term named', async () => {
    const facts = await readContentFacts(loop.store, { now: NOW });
    const slate = facts.slates[0];
    if (!slate) throw new Error('no slate');
    for (const r of slate.rows) if (r.player === 'Jalen Brunson') r.player = 'Jalen Brunson, a sure thing';
    expect(() => buildDailyReport(facts)).toThrow(EditorialError);
    expect(() => buildDailyReport(facts)).toThrow(/banned term 'sure thing'/);
  });

  it('with only a settle (the next day, no slate stored): sends the settle and the record and says what a grade claims', async () => {
    const next = buildDailyReport(await readContentFacts(loop.store, { now: NOW, date: '2025-11-06' }));
    expect(next.sections.map((s) => s.id)).toEqual(['settle', 'record']);
    expect(next.omitted.map((o) => o.id)).toContain('board');
    expect(next.text).toContain('A grade is a claim about a price');
  });
});

describe('empty daily report', () => {
  it('is refused when the date has no graded read and no settled entry (exit code 1)', async () => {
    const t = tempStore();
    try {
      let error: unknown;
      try {
        buildDailyReport(await readContentFacts(t.store, { now: NOW }));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(EmptyReportError);
      expect((error as EmptyReportError).exitCode).toBe(1);
      expect((error as Error).message).toMatch(/would be empty .*no graded read on the 2025-11-05 slate and no settled public entry/);
    } finally {
      t.cleanup();
    }
  });
});
