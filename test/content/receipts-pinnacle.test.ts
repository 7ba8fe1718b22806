import { describe, expect, it } from 'vitest';
import type { ContentFacts, LedgerFact } from '../../src/domain/facts.js';
import { buildDailyReport } from '../../src/content/report.js';
import { recordChartData, recordTableText, renderRecordChart } from '../../src/content/record-chart.js';
import { receipts } from '../../src/content/templates/record.js';

/**
 * RECEIPTS, the desk's record chart and the newsletter's record section on the record's second
 * yardstick (issue 43): beat close against Pinnacle's own no-vig close per lead band, beside the
 * consensus one, on hand-written MLB entries where Pinnacle priced some lines. Every expected figure
 * is counted here from the rows (verdicts and lead minutes) with the Wilson interval worked out
 * here, never read from the code's own fields.
 */

let nextId = 1;
function entry(grade: string, outcome: LedgerFact['outcome'], extra: Partial<LedgerFact> = {}): LedgerFact {
  const id = nextId++;
  return {
    id,
    sport: 'mlb',
    eventId: `ev-${id % 9}`,
    commenceTime: '2025-08-16T23:10:00Z',
    gameDate: '2025-08-16',
    player: `Pitcher ${id}`,
    playerKey: `pitcher-${id}`,
    team: 'NYY',
    opponent: 'STL',
    statType: 'strikeouts',
    line: 5.5,
    side: 'over',
    grade,
    book: 'fanduel',
    price: -110,
    pWin: 0.55,
    gradedAt: '2025-08-16T14:00:00Z',
    outcome,
    actualValue: null,
    clvVerdict: null,
    clvPct: null,
    closeMethod: 'one_yardstick',
    closeLeadMinutes: null,
    pinnacleClvVerdict: null,
    pinnacleCloseLeadMinutes: null,
    archetype: null,
    ...extra,
  };
}

const times = <T,>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

// A: 30 settled; every one has a consensus close (26 taken 12 min out, 4 taken 150 min out).
// Pinnacle priced 28 of them: 24 closes 8 min out (13 beat), 4 closes 95 min out (1 beat), none over 3 h.
// C: 10 settled, consensus closes 200 min out (all faded); Pinnacle priced 3, closes 20 min out (none beat).
const A = times(30, (i) =>
  entry('A', i < 16 ? 'hit' : 'miss', {
    clvVerdict: i % 3 === 0 ? 'faded' : 'beat',
    closeLeadMinutes: i < 26 ? 12 : 150,
    ...(i < 24 ? { pinnacleClvVerdict: i % 2 === 0 || i === 23 ? 'beat' : 'faded', pinnacleCloseLeadMinutes: 8 } : i < 28 ? { pinnacleClvVerdict: (['beat', 'flat', 'faded', 'faded'] as const)[i - 24], pinnacleCloseLeadMinutes: 95 } : {}),
  }),
);
const C = times(10, (i) => entry('C', i < 4 ? 'hit' : 'miss', { clvVerdict: 'faded', closeLeadMinutes: 200, ...(i < 3 ? { pinnacleClvVerdict: 'faded', pinnacleCloseLeadMinutes: 20 } : {}) }));
const RECORD = [...A, ...C];

function factsOf(record: LedgerFact[]): ContentFacts {
  return {
    date: '2025-08-16',
    now: '2025-08-17T12:00:00Z',
    slates: [],
    settleDate: '2025-08-16',
    settle: record,
    window: { from: '2025-07-18', to: '2025-08-16' },
    windows: [{ sport: 'mlb', from: '2025-07-18', to: '2025-08-16' }],
    record,
  };
}

/** Wilson score 95% interval in percent, worked here. */
function wilson(k: number, n: number): [number, number] {
  const z = 1.959963984540054;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [(c - h) * 100, (c + h) * 100];
}
const shown = (k: number, n: number) => {
  const [lo, hi] = wilson(k, n);
  return `${((k / n) * 100).toFixed(1)}% (n=${n}) [${lo.toFixed(1)}-${hi.toFixed(1)}]`;
};

/** The raw rows' Pinnacle closes in a lead band (minutes, as docs/ledger.md draws the edges). */
const pinIn = (rows: LedgerFact[], lo: number, hi: number) => rows.filter((e) => e.pinnacleClvVerdict !== null && e.pinnacleCloseLeadMinutes !== null && e.pinnacleCloseLeadMinutes > lo && e.pinnacleCloseLeadMinutes <= hi);
const beatOf = (rows: LedgerFact[]) => rows.filter((e) => e.pinnacleClvVerdict === 'beat').length;
const WITHIN = pinIn(RECORD, 0, 30);
const NEAR = pinIn(RECORD, 30, 180);
const FAR = pinIn(RECORD, 180, Infinity);
const PIN_ALL = [...WITHIN, ...NEAR, ...FAR];

describe('RECEIPTS carries beat close against Pinnacle by lead band, beside the consensus', () => {
  const result = receipts(factsOf(RECORD));
  if (!('draft' in result)) throw new Error(`RECEIPTS omitted: ${result.omit}`);
  const d = result.draft;
  const text = d.body.map((b) => ('text' in b ? b.text : b.items.join('\n'))).join('\n');
  const pinPara = d.body.map((b) => ('text' in b ? b.text : '')).find((t) => t.startsWith('Against Pinnacle')) ?? '';
  const fig = (key: string) => d.brief.figures.find((f) => f.key === key);

  it('the fixture: Pinnacle closes in two bands, none over 3 h', () => {
    expect([WITHIN.length, beatOf(WITHIN), NEAR.length, beatOf(NEAR), FAR.length]).toEqual([27, 13, 4, 1, 0]);
  });

  it('leads with the band nearest the start that holds a Pinnacle close, % with its interval at n >= 20, the gate below, no band without one', () => {
    expect(pinPara).toBe(
      `Against Pinnacle's own no-vig close, over the entries Pinnacle priced at the graded line: closes taken within 30 min of the start: ${shown(13, 27)} beat; closes taken 30 min to 3 h before the start: record building: 4 of 20 beat; every lead time together: ${shown(14, 31)}.`,
    );
    expect(pinPara).not.toContain('more than 3 h');
    expect(pinPara).not.toMatch(/\b0 of 20\b|n=0\b/);
  });

  it('its figures name the raw rows they count', () => {
    const within = fig('beat_close_pinnacle.by_lead.within_30m');
    expect(within?.value).toBeCloseTo((100 * beatOf(WITHIN)) / WITHIN.length, 10);
    expect(within?.n).toBe(WITHIN.length);
    expect(within?.source.ids).toEqual(WITHIN.map((e) => e.id));
    expect(fig('beat_close_pinnacle.by_lead.30m_to_3h')).toMatchObject({ value: `${beatOf(NEAR)} of ${NEAR.length}`, display: 'record building: 4 of 20', n: 4 });
    expect(fig('beat_close_pinnacle.by_lead.over_3h')).toBeUndefined();
    expect(fig('beat_close_pinnacle')?.source.ids).toEqual(PIN_ALL.map((e) => e.id).sort((a, b) => a - b));
    expect(fig('beat_close_pinnacle')?.n).toBe(31);
  });

  it('the numbers variant and the thread carry both yardsticks, nearest band first', () => {
    const pinNumbers = d.numbers.filter((l) => l.includes('Pinnacle'));
    expect(pinNumbers).toEqual([
      `beat Pinnacle's no-vig close, closes within 30 min of the start: ${shown(13, 27)}`,
      "beat Pinnacle's no-vig close, closes 30 min to 3 h before the start: record building: 4 of 20",
      `beat Pinnacle's no-vig close, every lead time: ${shown(14, 31)}`,
    ]);
    // The consensus yardstick: A's 26 closes 12 min out (beat unless i % 3 == 0: 17), 4 at 150 min (i = 26..29: 3 beat), C's 10 at 200 min (0 beat).
    const consensus = d.numbers.filter((l) => l.startsWith('beat close'));
    expect(consensus).toEqual([
      `beat close, closes within 30 min of the start: ${shown(17, 26)}`,
      'beat close, closes 30 min to 3 h before the start: record building: 4 of 20',
      'beat close, closes more than 3 h before the start: record building: 10 of 20',
      `beat close, every lead time: ${shown(20, 40)}`,
    ]);
    expect(d.thread).toContain(pinPara);
    // The consensus sentence leads with the nearest band too, every lead time last.
    const rateLine = d.thread[1] ?? '';
    expect(rateLine.indexOf('closes taken within 30 min of the start')).toBeGreaterThan(rateLine.indexOf('Beat the close ('));
    expect(rateLine.indexOf('every lead time together')).toBeGreaterThan(rateLine.indexOf('closes taken more than 3 h'));
  });

  it("each tier carries its own Pinnacle bands: A 13 of 24 within 30 min, 1 of 4 at 30 min to 3 h; C 0 of 3", () => {
    const a = d.body.flatMap((b) => ('items' in b ? b.items : [])).find((l) => l.startsWith('A ')) ?? '';
    expect(a).toContain(`; beat Pinnacle's close ${shown(13, 24)} (closes within 30 min of the start); beat Pinnacle's close record building: 4 of 20 (closes 30 min to 3 h before the start)`);
    const c = d.body.flatMap((b) => ('items' in b ? b.items : [])).find((l) => l.startsWith('C ')) ?? '';
    expect(c).toContain("; beat Pinnacle's close record building: 3 of 20 (closes within 30 min of the start)");
    expect(c).not.toContain("Pinnacle's close record building: 0");
    expect(fig('tier.C.beat_close_pinnacle.30m_to_3h')).toBeUndefined();
    expect(text).not.toContain('!');
  });

  it('says nothing of Pinnacle where Pinnacle priced no line', () => {
    const none = RECORD.map((e) => ({ ...e, pinnacleClvVerdict: null, pinnacleCloseLeadMinutes: null }));
    const r = receipts(factsOf(none));
    if (!('draft' in r)) throw new Error('omitted');
    expect(JSON.stringify(r.draft)).not.toContain('Pinnacle');
    const data = recordChartData(factsOf(none));
    expect(renderRecordChart(data)).not.toContain('data-yardstick="pinnacle"');
    expect(recordTableText(data).join('\n')).not.toContain('Pinnacle');
  });
});

describe('the record chart (desk page and newsletter) draws the Pinnacle bands that hold a close', () => {
  const data = recordChartData(factsOf(RECORD));
  const svg = renderRecordChart(data, 'rc') ?? '';
  const cell = (tier: string, band: string) => new RegExp(`<g class="([\\w-]+)" data-tier="${tier.replace('+', '\\+')}" data-band="${band}" data-yardstick="pinnacle"([^>]*)>`).exec(svg);

  it('a bar with its interval at n >= 20, the gate below, nothing in a band or tier without a Pinnacle close', () => {
    const all = cell('All', 'within_30m');
    expect(all?.[1]).toBe('beat-mark');
    const [lo, hi] = wilson(13, 27);
    expect(Number(/data-beat-pct="([\d.]+)"/.exec(all?.[2] ?? '')?.[1])).toBeCloseTo((13 / 27) * 100, 2);
    expect(Number(/data-beat-lo="([\d.]+)"/.exec(all?.[2] ?? '')?.[1])).toBeCloseTo(lo, 2);
    expect(Number(/data-beat-hi="([\d.]+)"/.exec(all?.[2] ?? '')?.[1])).toBeCloseTo(hi, 2);
    expect(/data-n="(\d+)"/.exec(all?.[2] ?? '')?.[1]).toBe('27');
    expect(cell('All', '30m_to_3h')?.[1]).toBe('beat-building');
    expect(cell('A', 'within_30m')?.[1]).toBe('beat-mark');
    expect(cell('C', 'within_30m')?.[1]).toBe('beat-building');
    // Hidden, never 0: no over-3 h Pinnacle cell at all, and none for C at 30 min to 3 h (no such close).
    for (const tier of ['All', 'A', 'C']) expect(cell(tier, 'over_3h')).toBeNull();
    expect(cell('C', '30m_to_3h')).toBeNull();
    expect(svg).not.toMatch(/data-yardstick="pinnacle" data-n="0"/);
    expect([...svg.matchAll(/class="band-head-pinnacle"[^>]*>([^<]*)</g)].map((m) => m[1])).toEqual(['close ≤30m', 'close 30m–3h']);
    // The consensus panel keeps its three bands, "no close" where it has none.
    expect([...svg.matchAll(/class="band-head"[^>]*>([^<]*)</g)].map((m) => m[1])).toEqual(['close ≤30m', 'close 30m–3h', 'close &gt;3h']);
    expect(svg).toMatch(/<desc id="rc-desc">[^<]*All tiers against Pinnacle(&#39;|&#x27;|')s own no-vig close: 48\.1% \(n=27\) for closes within 30 min of the start, record building: 4 of 20 for closes 30 min to 3 h before the start\./);
  });

  it('the table (report.txt, the HTML fallback) has a column per Pinnacle band with a close, none for the others', () => {
    const t = recordTableText(data);
    expect(t[0]).toMatch(/Beat >3h\s+Pinnacle ≤30m\s+Pinnacle 30m–3h$/);
    expect(t.find((l) => l.startsWith('All tiers'))).toMatch(/48\.1% \(n=27\)\s+record building: 4 of 20$/);
    expect(t.find((l) => l.startsWith('C '))).toMatch(/record building: 3 of 20\s+-$/);
  });

  it("the newsletter's record section carries both, in its text and its HTML", () => {
    const report = buildDailyReport(factsOf(RECORD));
    expect(report.sections.map((s) => s.id)).toContain('record');
    expect(report.text).toContain(`Against Pinnacle's own no-vig close, over the entries Pinnacle priced at the graded line: closes taken within 30 min of the start: ${shown(13, 27)} beat`);
    expect(report.text).toMatch(/Pinnacle ≤30m\s+Pinnacle 30m–3h/);
    expect(report.html).toContain('data-yardstick="pinnacle"');
    expect(report.figures.find((f) => f.key === 'record.beat_close_pinnacle.by_lead.within_30m')?.n).toBe(27);
  });
});
