import { AppError } from '../errors.js';
import { blocksToHtml, blocksToText, escapeHtml, heading, paragraph, type Block, type Figure } from './document.js';
import type { ContentFacts } from '../domain/facts.js';
import { dayText } from './format.js';
import { recordChartData, recordTableHtml, recordTableText, renderRecordChart } from './record-chart.js';
import { assertEditorial } from './rules.js';
import { receipts, theSettle, streakWatch } from './templates/record.js';
import { morningWire } from './templates/slate.js';
import { CLAIM_LINE, RG_LINE, type TemplateResult } from './template.js';

/**
 * The daily report (spec "Daily report"): the day's strongest real reads, the last settle, the
 * streak watch and the 30-day model record, as HTML and plain text built from the same blocks, with
 * the responsible-gambling footer in both. Pure: facts in, document out; sending is listmonk's job.
 */

/** listmonk's own template tag for the recipient's unsubscribe link (docs: Templating, template expressions). */
export const UNSUBSCRIBE_TAG = '{{ UnsubscribeURL }}';

export interface ReportSection {
  id: 'board' | 'settle' | 'streaks' | 'record';
  title: string;
  blocks: Block[];
}

export interface DailyReport {
  date: string;
  generatedAt: string;
  subject: string;
  sections: ReportSection[];
  /** Sections left out, with the reason (nothing real to say). */
  omitted: Array<{ id: ReportSection['id']; reason: string }>;
  /** Every figure the report printed, with its source rows and n. */
  figures: Figure[];
  html: string;
  text: string;
}

/** The report for a date with no real graded read and no settled entry: refused, nothing is sent. */
export class EmptyReportError extends AppError {
  constructor(date: string, why: string) {
    super('CONFLICT', `refused: the daily report for ${date} would be empty (${why}); nothing was built or sent`);
    this.name = 'EmptyReportError';
  }
}

const SECTIONS: ReadonlyArray<{ id: ReportSection['id']; title: string; build: (f: ContentFacts) => TemplateResult }> = [
  { id: 'board', title: "Today's board", build: morningWire },
  { id: 'settle', title: 'The last settle', build: theSettle },
  { id: 'streaks', title: 'Streak watch', build: streakWatch },
  { id: 'record', title: 'The record, 30 days', build: receipts },
];

const FOOTER_TEXT = [RG_LINE, 'Grades are claims about prices against the market, checked in public on every settled game. Nothing here is betting advice.', `You get this email because you subscribed to the propgrade daily report. Unsubscribe: ${UNSUBSCRIBE_TAG}`];

function footerHtml(): string {
  return [
    '<hr>',
    `<p class="rg">${escapeHtml('21+ only. Gambling problem? Call ')}<a href="tel:+18004262537">1-800-GAMBLER</a>.</p>`,
    `<p class="rg">${escapeHtml(FOOTER_TEXT[1] ?? '')}</p>`,
    `<p class="rg">You get this email because you subscribed to the propgrade daily report. <a href="${UNSUBSCRIBE_TAG}">Unsubscribe</a></p>`,
  ].join('\n');
}

const STYLE = 'body{font-family:Georgia,serif;max-width:640px;margin:0 auto;padding:16px;color:#1b1b1b;line-height:1.5}h1{font-size:22px}h2{font-size:18px;margin-top:28px}li{margin:6px 0}.rg{font-size:13px;color:#555}svg.record-chart{display:block;width:100%;max-width:560px;height:auto}table.record-table{border-collapse:collapse;font-size:13px}table.record-table th,table.record-table td{border:1px solid #ccc;padding:3px 6px;text-align:left}.legend{font-size:12px;color:#555;margin:2px 0}';

/** True when the facts hold a real graded read for the date (any graded row on its slate). */
export function hasGradedRead(facts: ContentFacts): boolean {
  return facts.slates.some((s) => s.rows.some((r) => r.grade !== null));
}

/**
 * Builds the report. Throws EmptyReportError when the date has no real graded read and no settled
 * entry, and EditorialError when any part breaks the editorial rules (src/content/rules.ts).
 */
export function buildDailyReport(facts: ContentFacts): DailyReport {
  if (!hasGradedRead(facts) && facts.settleDate === null) {
    throw new EmptyReportError(facts.date, `no graded read on the ${facts.date} slate and no settled public entry for ${facts.date} or the day before`);
  }
  const sections: ReportSection[] = [];
  const omitted: DailyReport['omitted'] = [];
  const figures: Figure[] = [];
  for (const s of SECTIONS) {
    const result = s.build(facts);
    if ('omit' in result) {
      omitted.push({ id: s.id, reason: result.omit });
      continue;
    }
    sections.push({ id: s.id, title: s.title, blocks: result.draft.body });
    figures.push(...result.draft.brief.figures.map((f) => ({ ...f, key: `${s.id}.${f.key}` })));
  }
  const day = dayText(facts.date);
  const title = `propgrade daily, ${day}`;
  const subject = `propgrade daily for ${day}`;
  // The board section opens with what a grade claims; without it the report says so up front.
  const intro: Block[] = sections.some((s) => s.id === 'board') ? [] : [paragraph(CLAIM_LINE)];
  // The record section leads with its picture in HTML and the same figures as a table in text.
  const record = sections.some((s) => s.id === 'record') ? recordChartData(facts) : null;
  const chart = record === null ? null : renderRecordChart(record, 'record-chart');
  const table = record === null || chart === null ? [] : [paragraph(recordTableText(record).join('\n'))];
  const textBlocks: Block[] = [heading(title.toUpperCase()), ...intro, ...sections.flatMap((s) => [heading(s.title.toUpperCase()), ...(s.id === 'record' ? table : []), ...s.blocks])];
  const text = `${blocksToText(textBlocks)}\n\n--\n${FOOTER_TEXT.join('\n')}\n`;
  const html = [
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title><style>${STYLE}</style></head>`,
    '<body>',
    `<h1>${escapeHtml(title)}</h1>`,
    blocksToHtml(intro),
    ...sections.map((s) => `<h2>${escapeHtml(s.title)}</h2>\n${s.id === 'record' && record !== null && chart !== null ? `${chart}\n${recordTableHtml(record)}\n` : ''}${blocksToHtml(s.blocks, 'h2')}`),
    footerHtml(),
    '</body>',
    '</html>',
    '',
  ].join('\n');
  assertEditorial(`the daily report for ${facts.date}`, { subject, text, html });
  return { date: facts.date, generatedAt: facts.now, subject, sections, omitted, figures, html, text };
}
