import { describe, expect, it } from 'vitest';
import { modelAggregate, tierCalibration, type RecordRow } from '../../src/domain/records.js';
import { recordTableHtml, recordTableText, renderRecordChart, type RecordChartData } from '../../src/content/record-chart.js';

/**
 * The record chart's renderer on a record tallied from hand-written ledger rows: the figures the
 * test expects are worked out here from the rows (prices, outcomes, verdicts), not read from the
 * tally, and then found in the SVG's marks, geometry and labels.
 */
const NOW = new Date('2025-11-06T12:00:00Z');

let seq = 0;
function row(grade: string, outcome: RecordRow['outcome'], extra: Partial<RecordRow> = {}): RecordRow {
  seq++;
  return {
    userId: null,
    sport: 'nba',
    gameDate: '2025-11-05',
    team: 'NY',
    player: `Player ${seq}`,
    playerKey: `player-${seq}`,
    grade,
    pWin: 0.55,
    outcome,
    clvVerdict: null,
    lockedPrice: -110,
    closeMethod: 'one_yardstick',
    closeLeadMinutes: null,
    ...extra,
  };
}

function times<T>(n: number, f: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => f(i));
}

// A: 25 stakes at -110 with p_win 0.55, 15 hit; 22 closes taken 10 min out (12 beat), 3 taken 100 min out.
// B: 5 stakes at +100 with p_win 0.51 (below the gate), no close. C and F: nothing.
const rows: RecordRow[] = [
  ...times(25, (i) => row('A', i < 15 ? 'hit' : 'miss', i < 22 ? { clvVerdict: i % 2 === 0 || i === 21 ? 'beat' : 'faded', closeLeadMinutes: 10 } : { clvVerdict: 'beat', closeLeadMinutes: 100 })),
  ...times(5, (i) => row('B', i < 2 ? 'hit' : 'miss', { lockedPrice: 100, pWin: 0.51 })),
];
const scope = { now: NOW, days: 30 };
const data: RecordChartData = { window: { from: '2025-10-08', to: '2025-11-06' }, tiers: tierCalibration(rows, scope), all: modelAggregate(rows, scope).beatCloseByLead, allPinnacle: modelAggregate(rows, scope).beatClosePinnacleByLead };

// Worked by hand: a -110 win returns 100/110 units; 15 wins and 10 losses over 25 stakes.
const WIN = 100 / 110;
const A_ROI = ((15 * WIN - 10) / 25) * 100; // +14.55%
const A_CLAIM = (0.55 * (1 + WIN) - 1) * 100; // +5.0%
const B_CLAIM = (0.51 * 2 - 1) * 100; // +2.0%
const A_BEAT = (12 / 22) * 100; // 54.5%

const svg = renderRecordChart(data, 'rc') ?? '';

/** The attributes of the first element matching `tag` whose attributes include every `has` pair. */
function element(tag: string, has: Record<string, string>): Record<string, string> | null {
  for (const m of svg.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, 'g'))) {
    const attrs = Object.fromEntries([...(m[1] ?? '').matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1] ?? '', a[2] ?? '']));
    if (Object.entries(has).every(([k, v]) => attrs[k] === v)) return attrs;
  }
  return null;
}

/** The markup of the <g> opened with these attributes, up to the next </g>. */
function group(has: Record<string, string>): string {
  const attrs = Object.entries(has).map(([k, v]) => `${k}="${v}"`);
  const start = [...svg.matchAll(/<g\b[^>]*>/g)].find((m) => attrs.every((a) => m[0].includes(a)));
  if (start?.index === undefined) return '';
  return svg.slice(start.index, svg.indexOf('</g>', start.index));
}

describe('record chart renderer', () => {
  it('is one self-contained SVG: no request, no script, no style attribute, a title and a description', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.replace('xmlns="http://www.w3.org/2000/svg"', '')).not.toMatch(/https?:|href|<script|<image|<foreignObject|@import|style=/i);
    expect([...svg.matchAll(/url\(([^)]*)\)/g)].map((m) => m[1])).toEqual(expect.arrayContaining(['#rc-hatch']));
    expect([...svg.matchAll(/url\(([^)]*)\)/g)].every((m) => m[1] === '#rc-hatch')).toBe(true);
    expect(svg).toContain('aria-labelledby="rc-title rc-desc"');
    expect(svg).toMatch(/<title id="rc-title">The public record 2025-10-08 to 2025-11-06/);
    expect(svg).toMatch(/<desc id="rc-desc">[^<]*A: claimed \+5\.0% EV, ROI \+14\.5% \(95% interval/);
    expect(svg).not.toContain('!');
  });

  it('draws the claim and the ROI with its interval at n >= 20, on an axis that holds both', () => {
    const claim = element('path', { class: 'claim-mark', 'data-tier': 'A' });
    expect(Number(claim?.['data-claimed-ev'])).toBeCloseTo(A_CLAIM, 2);
    expect(claim?.['data-n']).toBe('25');
    const roi = element('g', { class: 'roi-mark', 'data-tier': 'A' });
    expect(Number(roi?.['data-roi'])).toBeCloseTo(A_ROI, 2);
    expect(roi?.['data-n']).toBe('25');
    const lo = Number(roi?.['data-roi-lo']);
    const hi = Number(roi?.['data-roi-hi']);
    expect(lo).toBeLessThan(A_ROI);
    expect(hi).toBeGreaterThan(A_ROI);
    // The interval is symmetric about the mean (a normal interval of the per-stake profit).
    expect(A_ROI - lo).toBeCloseTo(hi - A_ROI, 1);
    // Geometry: the ticks define the scale; the whisker's ends and the dot sit at their figures.
    const ticks = [...svg.matchAll(/<g class="tick" data-pct="([-\d.]+)"><line x1="([\d.]+)"/g)].map((m) => ({ pct: Number(m[1]), x: Number(m[2]) }));
    const [t0, t1] = [ticks[0], ticks[ticks.length - 1]];
    if (!t0 || !t1) throw new Error('no ticks');
    expect(t0.pct).toBeLessThanOrEqual(lo);
    expect(t1.pct).toBeGreaterThanOrEqual(hi);
    const xOf = (p: number) => t0.x + ((p - t0.pct) / (t1.pct - t0.pct)) * (t1.x - t0.x);
    const g = group({ class: 'roi-mark', 'data-tier': 'A' });
    const line = /class="roi-interval" x1="([\d.]+)" y1="[\d.]+" x2="([\d.]+)"/.exec(g);
    expect(Number(line?.[1])).toBeCloseTo(xOf(lo), 0);
    expect(Number(line?.[2])).toBeCloseTo(xOf(hi), 0);
    expect(Number(/class="roi-point" cx="([\d.]+)"/.exec(g)?.[1])).toBeCloseTo(xOf(A_ROI), 0);
    // Labels carry the figures with their unit, so nothing rests on the marks' shape or colour.
    expect(svg).toContain('claim +5.0%; ROI +14.5% [');
  });

  it('draws no ROI below n = 20 and says how far the record is from one; the claim still shows', () => {
    expect(element('g', { class: 'roi-mark', 'data-tier': 'B' })).toBeNull();
    expect(Number(element('path', { class: 'claim-mark', 'data-tier': 'B' })?.['data-claimed-ev'])).toBeCloseTo(B_CLAIM, 2);
    expect(group({ class: 'tier-row', 'data-tier': 'B' })).toContain('ROI: record building: 5 of 20');
    expect(group({ class: 'tier-row', 'data-tier': 'C' })).toContain('ROI: no settled stake');
    expect(element('path', { class: 'claim-mark', 'data-tier': 'C' })).toBeNull();
  });

  it('splits beat-the-close by lead band: a bar at n >= 20, counts below it, "no close" where none', () => {
    const mark = element('g', { class: 'beat-mark', 'data-tier': 'A', 'data-band': 'within_30m' });
    expect(Number(mark?.['data-beat-pct'])).toBeCloseTo(A_BEAT, 2);
    expect(mark?.['data-n']).toBe('22');
    const cell = group({ class: 'beat-mark', 'data-tier': 'A', 'data-band': 'within_30m' });
    const track = /class="beat-track" x="[\d.]+" y="[\d.]+" width="([\d.]+)"/.exec(cell);
    const bar = /class="beat-bar" x="[\d.]+" y="[\d.]+" width="([\d.]+)"/.exec(cell);
    expect(Number(bar?.[1]) / Number(track?.[1])).toBeCloseTo(A_BEAT / 100, 2);
    expect(cell).toContain('54.5% (n=22)');
    const near = element('g', { class: 'beat-building', 'data-tier': 'A', 'data-band': '30m_to_3h' });
    expect(near?.['data-n']).toBe('3');
    expect(group({ class: 'beat-building', 'data-tier': 'A', 'data-band': '30m_to_3h' })).toMatch(/record building:<\/text><text[^>]*>3 of 20</);
    expect(element('g', { class: 'beat-none', 'data-tier': 'A', 'data-band': 'over_3h' })).not.toBeNull();
    expect(element('g', { class: 'beat-none', 'data-tier': 'B', 'data-band': 'within_30m' })).not.toBeNull();
    // All tiers together: the same 22 closes within 30 minutes.
    expect(Number(element('g', { class: 'beat-mark', 'data-tier': 'All', 'data-band': 'within_30m' })?.['data-beat-pct'])).toBeCloseTo(A_BEAT, 2);
    expect([...svg.matchAll(/class="band-head"[^>]*>([^<]*)</g)].map((m) => m[1])).toEqual(['close ≤30m', 'close 30m–3h', 'close &gt;3h']);
  });

  it('writes the same figures as a text table and an HTML table, with a legend line for every column', () => {
    const text = recordTableText(data);
    expect(text[0]).toMatch(/^Tier\s+Claimed EV\s+ROI \[95%\]\s+Beat ≤30m\s+Beat 30m–3h\s+Beat >3h$/);
    expect(text.find((l) => l.startsWith('A '))).toMatch(/^A\s+\+5\.0% \(n=25\)\s+\+14\.5% \[[-+]\d+\.\d%, \+\d+\.\d%\] \(n=25\)\s+54\.5% \(n=22\)\s+record building: 3 of 20\s+-$/);
    expect(text.find((l) => l.startsWith('B '))).toMatch(/^B\s+\+2\.0% \(n=5\)\s+record building: 5 of 20\s+-\s+-\s+-$/);
    for (const head of ['Claimed EV', 'ROI [95%]', 'Beat ≤30m', 'Beat 30m–3h', 'Beat >3h']) expect(text.some((l) => l.startsWith(`${head}: `))).toBe(true);
    const html = recordTableHtml(data);
    expect(html).toContain('<th scope="row">A</th><td>+5.0% (n=25)</td>');
    expect(html).toContain('<td>54.5% (n=22)</td>');
  });

  it('draws nothing for a window with no settled stake and no close', () => {
    const empty = [row('A', 'pending'), row('C', 'pending')];
    expect(renderRecordChart({ window: data.window, tiers: tierCalibration(empty, scope), all: modelAggregate(empty, scope).beatCloseByLead, allPinnacle: modelAggregate(empty, scope).beatClosePinnacleByLead })).toBeNull();
  });
});
