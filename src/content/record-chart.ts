import { CLOSE_LEAD_BANDS, CLOSE_LEAD_LABEL, CLOSE_LEAD_SHORT, type BeatCloseBand, type CloseLeadBand } from '../domain/close-lead.js';
import type { ContentFacts } from '../domain/facts.js';
import { MIN_SAMPLE } from '../domain/record-gate.js';
import type { TierCalibration } from '../domain/records.js';
import { escapeHtml } from './document.js';
import { building, percent, shortDay, signedPercent } from './format.js';
import { windowsRecord } from './select.js';

/**
 * The record as a picture (issue 33 item 11): per tier, the mean EV its graded prices claimed (a
 * diamond) against the ROI they returned with its 95% interval (a dot on a whisker), and per tier
 * the share of closes the graded price beat, one cell per lead band of the close. Inline SVG only:
 * no font, image or script from anywhere, presentation attributes rather than style (the desk's
 * CSP refuses inline style attributes), shapes and printed labels so no figure rests on colour.
 * Rates follow the record gate: below n = 20 nothing is drawn and the cell says "record building".
 * Beside the consensus close, Pinnacle's own no-vig close (issue 43) where Pinnacle priced the line:
 * only its bands that hold a close are drawn (a band without one is left out, never drawn as 0).
 * Each drawn mark carries its figure in data-* attributes so a browser test can read it back.
 */

export interface RecordChartData {
  window: { from: string; to: string };
  tiers: readonly TierCalibration[];
  /** Every public entry's beat-close by lead band (the record's "all entries" line). */
  all: readonly BeatCloseBand[];
  /** The same against Pinnacle's own no-vig close, over the entries Pinnacle priced (the record's second yardstick). */
  allPinnacle: readonly BeatCloseBand[];
}

/** The record the RECEIPTS template and the report's record section are written from (`propgrade record`'s windows). */
export function recordChartData(facts: ContentFacts): RecordChartData {
  const { aggregate, tiers } = windowsRecord(facts);
  return { window: facts.window, tiers, all: aggregate.beatCloseByLead, allPinnacle: aggregate.beatClosePinnacleByLead };
}

/** True when the window has something to draw: a settled stake or a close in some tier. */
export function hasChartData(d: RecordChartData): boolean {
  return d.tiers.some((t) => t.units.n > 0 || t.claim.n > 0) || d.all.some((b) => b.n > 0) || d.allPinnacle.some((b) => b.n > 0);
}

const W = 400;
const LABEL_W = 78;
const PLOT_L = LABEL_W + 8;
const PLOT_R = W - 24;
const FONT = 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif';
const INK = '#16181d';
const MUTED = '#555b66';

/** A number for a data attribute: two places, no sign games. */
const attr = (v: number): string => (Math.round(v * 100) / 100).toString();
const px = (v: number): string => (Math.round(v * 10) / 10).toString();

function text(x: number, y: number, s: string, opts: { size?: number; anchor?: 'start' | 'middle' | 'end'; weight?: 'bold'; fill?: string; cls?: string; halo?: boolean } = {}): string {
  const cls = opts.cls ? ` class="${opts.cls}"` : '';
  // A white halo keeps a caption readable where a grid line crosses it.
  const halo = opts.halo ? ' stroke="#ffffff" stroke-width="3" paint-order="stroke"' : '';
  return `<text${cls} x="${px(x)}" y="${px(y)}" font-size="${opts.size ?? 11}" text-anchor="${opts.anchor ?? 'start'}"${opts.weight ? ' font-weight="bold"' : ''} fill="${opts.fill ?? INK}"${halo}>${escapeHtml(s)}</text>`;
}

/** The ROI panel's axis: whole tens that hold zero, every claim and every interval end. */
function roiAxis(tiers: readonly TierCalibration[]): { min: number; max: number; step: number } {
  const values = [0];
  for (const t of tiers) {
    if (t.claim.meanEvPct !== null) values.push(t.claim.meanEvPct);
    if (t.units.roiPct !== null) values.push(t.units.roiPct);
    if (t.units.roiCi95) values.push(...t.units.roiCi95);
  }
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = Math.max(hi - lo, 10);
  const step = span <= 30 ? 5 : span <= 80 ? 10 : span <= 160 ? 20 : 50;
  const min = Math.floor(lo / step) * step;
  const max = Math.ceil(hi / step) * step;
  return { min, max: max === min ? min + step : max, step };
}

function diamond(cx: number, cy: number, r: number): string {
  return `M${px(cx)} ${px(cy - r)}L${px(cx + r)} ${px(cy)}L${px(cx)} ${px(cy + r)}L${px(cx - r)} ${px(cy)}Z`;
}

/** Panel 1: claim against ROI, one row per tier. Returns the markup and the height it used. */
function roiPanel(tiers: readonly TierCalibration[], top: number): { svg: string; height: number } {
  const axis = roiAxis(tiers);
  const x = (v: number): number => PLOT_L + ((v - axis.min) / (axis.max - axis.min)) * (PLOT_R - PLOT_L);
  const out: string[] = [];
  out.push(text(0, top + 12, 'Claimed EV against realised ROI, % per 1-unit stake', { size: 12, weight: 'bold' }));
  // Legend: shapes, not colours.
  const ly = top + 28;
  out.push(`<path d="${diamond(6, ly - 4, 5)}" fill="#ffffff" stroke="${INK}" stroke-width="1.5"/>`);
  out.push(text(15, ly, 'claimed EV (mean of the graded prices)', { size: 10 }));
  out.push(`<line x1="4" y1="${ly + 10}" x2="24" y2="${ly + 10}" stroke="${INK}" stroke-width="1.5"/><circle cx="14" cy="${ly + 10}" r="3.5" fill="${INK}"/>`);
  out.push(text(30, ly + 14, 'realised ROI with its 95% interval (n >= 20)', { size: 10 }));
  const rowTop = top + 52;
  const rowH = 38;
  const plotBottom = rowTop + rowH * tiers.length;
  // Axis ticks and grid: each tick names its value so the scale is read from the marks, not assumed.
  const ticks: string[] = [];
  for (let v = axis.min; v <= axis.max + 1e-9; v += axis.step) {
    const tx = x(v);
    const zero = Math.abs(v) < 1e-9;
    ticks.push(
      `<g class="tick" data-pct="${attr(v)}"><line x1="${px(tx)}" y1="${rowTop - 4}" x2="${px(tx)}" y2="${plotBottom}" stroke="${zero ? INK : '#c9ccd2'}" stroke-width="${zero ? 1.2 : 0.6}"${zero ? '' : ' stroke-dasharray="2 3"'}/>${text(tx, plotBottom + 12, `${v > 0 ? '+' : ''}${v}%`, { size: 10, anchor: 'middle', fill: MUTED })}</g>`,
    );
  }
  out.push(`<g class="roi-axis" data-axis-min="${attr(axis.min)}" data-axis-max="${attr(axis.max)}">${ticks.join('')}</g>`);
  tiers.forEach((t, i) => {
    const cy = rowTop + i * rowH + 12;
    const parts: string[] = [];
    parts.push(text(0, cy + 4, t.grade, { size: 13, weight: 'bold' }));
    parts.push(text(0, cy + 17, `n=${t.units.n}`, { size: 10, fill: MUTED }));
    const claim = t.claim.meanEvPct;
    if (claim !== null) {
      parts.push(`<path class="claim-mark" data-tier="${t.grade}" data-claimed-ev="${attr(claim)}" data-n="${t.claim.n}" d="${diamond(x(claim), cy, 5.5)}" fill="#ffffff" stroke="${INK}" stroke-width="1.5"/>`);
    }
    const roi = t.units.roiPct;
    const ci = t.units.roiCi95;
    let caption: string;
    if (roi !== null && ci !== null) {
      const [lo, hi] = ci;
      parts.push(
        `<g class="roi-mark" data-tier="${t.grade}" data-roi="${attr(roi)}" data-roi-lo="${attr(lo)}" data-roi-hi="${attr(hi)}" data-n="${t.units.n}">` +
          `<line class="roi-interval" x1="${px(x(lo))}" y1="${cy}" x2="${px(x(hi))}" y2="${cy}" stroke="${INK}" stroke-width="1.5"/>` +
          `<line x1="${px(x(lo))}" y1="${cy - 4}" x2="${px(x(lo))}" y2="${cy + 4}" stroke="${INK}" stroke-width="1.5"/>` +
          `<line x1="${px(x(hi))}" y1="${cy - 4}" x2="${px(x(hi))}" y2="${cy + 4}" stroke="${INK}" stroke-width="1.5"/>` +
          `<circle class="roi-point" cx="${px(x(roi))}" cy="${cy}" r="3.5" fill="${INK}"/></g>`,
      );
      caption = `ROI ${signedPercent(roi)} [${signedPercent(lo)} to ${signedPercent(hi)}]`;
    } else {
      caption = t.units.n === 0 ? 'ROI: no settled stake' : `ROI: ${building(t.units.n)}`;
    }
    const claimText = claim === null ? 'claim: none settled' : `claim ${signedPercent(claim)}`;
    parts.push(text(PLOT_L, cy + 19, `${claimText}; ${caption}`, { size: 10.5, fill: MUTED, cls: roi === null ? 'roi-building' : 'roi-caption', halo: true }));
    out.push(`<g class="tier-row" data-tier="${t.grade}">${parts.join('')}</g>`);
  });
  return { svg: out.join('\n'), height: plotBottom + 18 - top };
}

const BAND_W = (PLOT_R - PLOT_L) / CLOSE_LEAD_BANDS.length;

type YardstickId = 'consensus' | 'pinnacle';

function bandCell(row: string, b: BeatCloseBand, left: number, cy: number, yardstick: YardstickId = 'consensus'): string {
  const w = BAND_W - 10;
  const y = `data-yardstick="${yardstick}"`;
  if (b.n === 0) return `<g class="beat-none" data-tier="${row}" data-band="${b.band}" ${y} data-n="0">${text(left, cy + 4, 'no close', { size: 10.5, fill: MUTED })}</g>`;
  if (b.pct === null) {
    return `<g class="beat-building" data-tier="${row}" data-band="${b.band}" ${y} data-n="${b.n}" data-beat="${b.beat}">${text(left, cy - 1, 'record building:', { size: 10, fill: MUTED })}${text(left, cy + 10, `${b.n} of ${MIN_SAMPLE}`, { size: 10, fill: MUTED })}</g>`;
  }
  const bx = (v: number): number => left + (v / 100) * w;
  const ci = b.ci95;
  const whisker = ci
    ? `<line class="beat-interval" x1="${px(bx(ci[0]))}" y1="${cy - 3}" x2="${px(bx(ci[1]))}" y2="${cy - 3}" stroke="${INK}" stroke-width="1.2"/>` +
      `<line x1="${px(bx(ci[0]))}" y1="${cy - 6}" x2="${px(bx(ci[0]))}" y2="${cy}" stroke="${INK}" stroke-width="1.2"/>` +
      `<line x1="${px(bx(ci[1]))}" y1="${cy - 6}" x2="${px(bx(ci[1]))}" y2="${cy}" stroke="${INK}" stroke-width="1.2"/>`
    : '';
  return (
    `<g class="beat-mark" data-tier="${row}" data-band="${b.band}" ${y} data-beat-pct="${attr(b.pct)}" data-n="${b.n}" data-beat="${b.beat}"${ci ? ` data-beat-lo="${attr(ci[0])}" data-beat-hi="${attr(ci[1])}"` : ''}>` +
    `<rect class="beat-track" x="${px(left)}" y="${cy - 8}" width="${px(w)}" height="10" fill="#ffffff" stroke="${MUTED}" stroke-width="0.8"/>` +
    `<rect class="beat-bar" x="${px(left)}" y="${cy - 8}" width="${px(bx(b.pct) - left)}" height="10" fill="url(#rc-hatch)" stroke="${INK}" stroke-width="0.8"/>` +
    whisker +
    text(left, cy + 13, `${percent(b.pct)} (n=${b.n})`, { size: 10.5 }) +
    '</g>'
  );
}

/** Panel 2: beat-close share per tier (and all entries) per lead band of the close. */
function beatPanel(d: RecordChartData, top: number): { svg: string; height: number } {
  const out: string[] = [];
  out.push(text(0, top + 12, 'Beat the close, % of closes, by how long before', { size: 12, weight: 'bold' }));
  out.push(text(0, top + 27, 'the start the close was taken (a % at n >= 20)', { size: 12, weight: 'bold' }));
  const headY = top + 46;
  CLOSE_LEAD_BANDS.forEach((band, i) => out.push(text(PLOT_L + i * BAND_W, headY, `close ${CLOSE_LEAD_SHORT[band]}`, { size: 10, weight: 'bold', cls: 'band-head' })));
  const rows: Array<{ name: string; bands: readonly BeatCloseBand[] }> = [...d.tiers.map((t) => ({ name: t.grade, bands: t.beatCloseByLead })), { name: 'All', bands: d.all }];
  const rowH = 32;
  rows.forEach((r, i) => {
    const cy = headY + 22 + i * rowH;
    const cells = CLOSE_LEAD_BANDS.map((band, j) => {
      const b = r.bands.find((x) => x.band === band) ?? { band, n: 0, beat: 0, faded: 0, flat: 0, pct: null, ci95: null };
      return bandCell(r.name, b, PLOT_L + j * BAND_W, cy);
    });
    out.push(`<g class="beat-row" data-tier="${r.name}">${text(0, cy + 3, r.name === 'All' ? 'All tiers' : r.name, { size: 13, weight: 'bold' })}${cells.join('')}</g>`);
  });
  const legendY = headY + 22 + rows.length * rowH;
  const legend = CLOSE_LEAD_BANDS.map((b) => `${CLOSE_LEAD_SHORT[b]}: ${CLOSE_LEAD_LABEL[b]}`);
  legend.forEach((l, i) => out.push(text(0, legendY + i * 12, l, { size: 10, fill: MUTED })));
  out.push(text(0, legendY + legend.length * 12, 'Hatched bar: share that beat the close; whisker: its 95% interval.', { size: 10, fill: MUTED }));
  return { svg: out.join('\n'), height: legendY + legend.length * 12 + 8 - top };
}

/** The lead bands in which some entry has a Pinnacle close, nearest the start first; the only ones drawn or tabled. */
export function pinnacleBands(d: RecordChartData): CloseLeadBand[] {
  return CLOSE_LEAD_BANDS.filter((band) => d.allPinnacle.some((b) => b.band === band && b.n > 0));
}

/**
 * Panel 3: beat share against Pinnacle's own no-vig close, per tier with such a close (and all
 * entries), in the bands that hold one, nearest the start first. Null when Pinnacle priced no line.
 */
function pinnaclePanel(d: RecordChartData, top: number): { svg: string; height: number } | null {
  const bands = pinnacleBands(d);
  if (bands.length === 0) return null;
  const out: string[] = [];
  out.push(text(0, top + 12, "Beat Pinnacle's own no-vig close, where Pinnacle", { size: 12, weight: 'bold' }));
  out.push(text(0, top + 27, 'priced the graded line (a % at n >= 20)', { size: 12, weight: 'bold' }));
  const headY = top + 46;
  bands.forEach((band, i) => out.push(text(PLOT_L + i * BAND_W, headY, `close ${CLOSE_LEAD_SHORT[band]}`, { size: 10, weight: 'bold', cls: 'band-head-pinnacle' })));
  const rows: Array<{ name: string; bands: readonly BeatCloseBand[] }> = [
    ...d.tiers.filter((t) => t.beatClosePinnacleByLead.some((b) => b.n > 0)).map((t) => ({ name: t.grade, bands: t.beatClosePinnacleByLead })),
    { name: 'All', bands: d.allPinnacle },
  ];
  const rowH = 32;
  rows.forEach((r, i) => {
    const cy = headY + 22 + i * rowH;
    // A band this row has no Pinnacle close in is left empty: hidden, never a 0.
    const cells = bands.map((band, j) => {
      const b = r.bands.find((x) => x.band === band);
      return b && b.n > 0 ? bandCell(r.name, b, PLOT_L + j * BAND_W, cy, 'pinnacle') : '';
    });
    out.push(`<g class="beat-row" data-tier="${r.name}" data-yardstick="pinnacle">${text(0, cy + 3, r.name === 'All' ? 'All tiers' : r.name, { size: 13, weight: 'bold' })}${cells.join('')}</g>`);
  });
  const legendY = headY + 22 + rows.length * rowH;
  out.push(text(0, legendY, "Pinnacle's close: the no-vig fair of its own two prices at the graded", { size: 10, fill: MUTED }));
  out.push(text(0, legendY + 12, 'line; a band or tier without one is not drawn.', { size: 10, fill: MUTED }));
  return { svg: out.join('\n'), height: legendY + 24 + 8 - top };
}

/** The chart's prose twin for <desc>: every figure drawn, in words. */
function describe(d: RecordChartData): string {
  const tierText = d.tiers.map((t) => {
    const claim = t.claim.meanEvPct === null ? 'no settled claim' : `claimed ${signedPercent(t.claim.meanEvPct)} EV`;
    const roi = t.units.roiPct !== null && t.units.roiCi95 ? `ROI ${signedPercent(t.units.roiPct)} (95% interval ${signedPercent(t.units.roiCi95[0])} to ${signedPercent(t.units.roiCi95[1])}, n=${t.units.n})` : t.units.n === 0 ? 'no settled stake' : `ROI ${building(t.units.n)}`;
    const bands = t.beatCloseByLead.filter((b) => b.n > 0).map((b) => `beat the close ${b.pct === null ? building(b.n) : `${percent(b.pct)} (n=${b.n})`} for closes ${CLOSE_LEAD_LABEL[b.band]}`);
    const pin = t.beatClosePinnacleByLead.filter((b) => b.n > 0).map((b) => `beat Pinnacle's close ${b.pct === null ? building(b.n) : `${percent(b.pct)} (n=${b.n})`} for closes ${CLOSE_LEAD_LABEL[b.band]}`);
    return `${t.grade}: ${claim}, ${roi}${bands.length ? `, ${bands.join(', ')}` : ', no close captured'}${pin.length ? `, ${pin.join(', ')}` : ''}.`;
  });
  const pinAll = d.allPinnacle.filter((b) => b.n > 0).map((b) => `${b.pct === null ? building(b.n) : `${percent(b.pct)} (n=${b.n})`} for closes ${CLOSE_LEAD_LABEL[b.band]}`);
  return `Public record ${d.window.from} to ${d.window.to}. ${tierText.join(' ')}${pinAll.length ? ` All tiers against Pinnacle's own no-vig close: ${pinAll.join(', ')}.` : ''}`;
}

/**
 * The chart as one inline <svg> element. `id` prefixes the ids inside it (unique on the page).
 * Null when the window has nothing to draw.
 */
export function renderRecordChart(d: RecordChartData, id = 'record-chart'): string | null {
  if (!hasChartData(d)) return null;
  const head = text(0, 14, `Each tier against its claim, ${shortDay(d.window.from)} to ${shortDay(d.window.to)}`, { size: 13, weight: 'bold' });
  const roi = roiPanel(d.tiers, 26);
  const beat = beatPanel(d, 26 + roi.height + 14);
  const pinnacle = pinnaclePanel(d, 26 + roi.height + 14 + beat.height + 10);
  const height = Math.ceil(26 + roi.height + 14 + beat.height + (pinnacle ? 10 + pinnacle.height : 0));
  const defs = `<defs><pattern id="rc-hatch" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="4" height="4" fill="#ffffff"/><line x1="0" y1="0" x2="0" y2="4" stroke="${INK}" stroke-width="2"/></pattern></defs>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="record-chart" id="${id}" role="img" aria-labelledby="${id}-title ${id}-desc" viewBox="0 0 ${W} ${height}" width="100%" preserveAspectRatio="xMinYMin meet" font-family="${FONT}" data-window-from="${d.window.from}" data-window-to="${d.window.to}">`,
    `<title id="${id}-title">${escapeHtml(`The public record ${d.window.from} to ${d.window.to}: claimed EV against realised ROI per tier, and beat-the-close share per lead band of the close${pinnacle ? ", on the consensus and on Pinnacle's own no-vig close" : ''}`)}</title>`,
    `<desc id="${id}-desc">${escapeHtml(describe(d))}</desc>`,
    defs.replaceAll('rc-hatch', `${id}-hatch`),
    `<rect width="${W}" height="${height}" fill="#ffffff"/>`,
    head,
    roi.svg,
    beat.svg.replaceAll('url(#rc-hatch)', `url(#${id}-hatch)`),
    ...(pinnacle ? [pinnacle.svg.replaceAll('url(#rc-hatch)', `url(#${id}-hatch)`)] : []),
    '</svg>',
  ].join('\n');
}

function pad(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
}

/** A beat-close cell of the text table: "6.9% (n=58)", "record building: 2 of 20", "-" for no close. */
function beatCell(b: BeatCloseBand | undefined): string {
  if (b === undefined || b.n === 0) return '-';
  return b.pct === null ? building(b.n) : `${percent(b.pct)} (n=${b.n})`;
}

/** The chart's figures as table cells, with a legend line for every column head. */
export function recordTable(d: RecordChartData): { head: string[]; rows: string[][]; legend: string[] } {
  const pin = pinnacleBands(d);
  const head = ['Tier', 'Claimed EV', 'ROI [95%]', ...CLOSE_LEAD_BANDS.map((b) => `Beat ${CLOSE_LEAD_SHORT[b]}`), ...pin.map((b) => `Pinnacle ${CLOSE_LEAD_SHORT[b]}`)];
  const rows = d.tiers.map((t) => [
    t.grade,
    t.claim.meanEvPct === null ? '-' : `${signedPercent(t.claim.meanEvPct)} (n=${t.claim.n})`,
    t.units.roiPct !== null && t.units.roiCi95 ? `${signedPercent(t.units.roiPct)} [${signedPercent(t.units.roiCi95[0])}, ${signedPercent(t.units.roiCi95[1])}] (n=${t.units.n})` : t.units.n === 0 ? '-' : building(t.units.n),
    ...CLOSE_LEAD_BANDS.map((band) => beatCell(t.beatCloseByLead.find((b) => b.band === band))),
    ...pin.map((band) => beatCell(t.beatClosePinnacleByLead.find((b) => b.band === band))),
  ]);
  rows.push(['All tiers', '', '', ...CLOSE_LEAD_BANDS.map((band) => beatCell(d.all.find((b) => b.band === band))), ...pin.map((band) => beatCell(d.allPinnacle.find((b) => b.band === band)))]);
  const legend = [
    "Claimed EV: the mean EV of the tier's graded prices against the market's fair, % (n settled stakes).",
    `ROI [95%]: profit per 1-unit stake at the graded price, %, with its 95% interval; shown at n >= ${MIN_SAMPLE}.`,
    ...CLOSE_LEAD_BANDS.map((b) => `Beat ${CLOSE_LEAD_SHORT[b]}: share of closes taken ${CLOSE_LEAD_LABEL[b]} that the graded price beat, % (n closes); "-" no close in the band.`),
    ...pin.map((b) => `Pinnacle ${CLOSE_LEAD_SHORT[b]}: share of Pinnacle's own no-vig closes taken ${CLOSE_LEAD_LABEL[b]} that the graded price beat, over the entries Pinnacle priced, % (n closes); "-" none for the tier. A band where Pinnacle priced no line has no column.`),
  ];
  return { head, rows, legend };
}

/** The same figures as a plain-text table (report.txt, which cannot carry a picture). */
export function recordTableText(d: RecordChartData): string[] {
  const { head, rows, legend } = recordTable(d);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  return [pad(head, widths), ...rows.map((r) => pad(r, widths)), ...legend];
}

/** The same figures as an HTML table: for readers whose mail client drops inline SVG. */
export function recordTableHtml(d: RecordChartData): string {
  const { head, rows, legend } = recordTable(d);
  const cells = (r: readonly string[], tag: 'th' | 'td') => r.map((c, i) => (i === 0 ? `<th scope="row">${escapeHtml(c)}</th>` : `<${tag}>${escapeHtml(c)}</${tag}>`)).join('');
  return [
    '<table class="record-table">',
    `<thead><tr>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead>`,
    `<tbody>${rows.map((r) => `<tr>${cells(r, 'td')}</tr>`).join('')}</tbody>`,
    '</table>',
    ...legend.map((l) => `<p class="legend">${escapeHtml(l)}</p>`),
  ].join('\n');
}
