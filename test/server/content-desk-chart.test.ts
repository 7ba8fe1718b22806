import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createUser } from '../../src/accounts/users.js';
import { loopStore, NOON, type LoopStore } from '../content/_loop.js';
import { runCli } from '../helpers/cli.js';
import { startServer, type Running } from './_harness.js';

/**
 * The record chart on /desk (issue 33 item 11), read back from the rendered page in Debian's
 * headless chromium and checked against `propgrade record --json` on the same store: the figures
 * come from the record, the positions from the browser's layout, never from the chart's own code.
 * The bundled recording holds no Pinnacle price, so Pinnacle is made to price some lines (issue 43):
 * the first 25 public entries with a consensus close get a Pinnacle verdict (the consensus one) and
 * a Pinnacle close lead (10 min for 22, 100 min for 3, none over 3 h), written with SQL.
 */
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`content-desk-chart: skipped, ${CHROMIUM} is not installed (apt-get install chromium)`);

interface Rate {
  n: number;
  pct: number | null;
  ci95: [number, number] | null;
}
interface Band extends Rate {
  band: string;
  beat: number;
}
interface RecordJson {
  tiers: Array<{ grade: string; units: { n: number; roi_pct: number | null; roi_ci95: [number, number] | null }; claim: { n: number; mean_ev_pct: number | null }; beat_close_by_lead: Band[]; beat_close_pinnacle_by_lead: Band[] }>;
  aggregate: { window: { from: string; to: string }; beat_close_by_lead: Band[]; beat_close_pinnacle_by_lead: Band[] };
}

/** A mark's rendered box in CSS pixels. */
interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  cx: number;
  cy: number;
}

async function box(page: Page, selector: string): Promise<Box | null> {
  return page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, cx: r.left + r.width / 2, cy: r.top + r.height / 2 };
  }).catch(() => null);
}

/** The record's JSON carries one decimal; the chart's attributes two. */
const nearJson = (attr: string | null, json: number): boolean => attr !== null && Math.abs(Number(attr) - json) <= 0.0501;

const data = (page: Page, selector: string, name: string): Promise<string | null> => page.$eval(selector, (el, n) => el.getAttribute(n), name).catch(() => null);

describe.skipIf(!hasChromium)('the record chart on /desk, read back in headless Chromium', () => {
  let loop: LoopStore;
  let server: Running;
  let browser: Browser;
  let record: RecordJson;
  let token: string;

  beforeAll(async () => {
    loop = await loopStore('settled');
    const priced = loop.store.sqlite.prepare("select id from ledger_entries where user_id is null and clv_verdict is not null and close_method = 'one_yardstick' order by id limit 25").all() as Array<{ id: number }>;
    expect(priced).toHaveLength(25);
    const set = loop.store.sqlite.prepare('update ledger_entries set pinnacle_clv_verdict = clv_verdict, pinnacle_close_lead_minutes = ? where id = ?');
    priced.forEach((r, i) => set.run(i < 22 ? 10 : 100, r.id));
    const now = new Date(NOON);
    ({ token } = await createUser(loop.store, { email: 'founder@propgrade.test', tier: 'free' }, now));
    server = await startServer({ store: loop.store, config: loadConfig({ DESK_ALLOWLIST: 'founder@propgrade.test' }), now: () => now, runSnapshot: async () => [] });
    // The record as the CLI prints it, on the same store, on its own data clock (the loop's newest snapshot, NOON, the
    // server's clock): a replayed store on its own clock reads the recording whole, as the desk does; `--now` would read
    // the outcomes as of NOON, before the settle (13d73e8), which the desk does not.
    const cli = await runCli(['--db', loop.path, 'record', '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    record = JSON.parse(cli.stdout) as RecordJson;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    loop?.cleanup();
  });

  it('draws every tier claim, ROI interval and beat-close band the record reports, at positions matching the figures', async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 1200 }, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
    const page = await context.newPage();
    const requests: string[] = [];
    const cspErrors: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    const res = await page.goto(`${server.base}/desk`);
    expect(res?.status()).toBe(200);

    // One inline chart, named and described, over the record's own window; nothing fetched from anywhere.
    expect(await page.locator('svg.record-chart').count()).toBe(1);
    expect(await data(page, 'svg.record-chart', 'data-window-from')).toBe(record.aggregate.window.from);
    expect(await data(page, 'svg.record-chart', 'data-window-to')).toBe(record.aggregate.window.to);
    expect(await page.$eval('svg.record-chart > title', (e) => e.textContent)).toContain(record.aggregate.window.from);
    expect((await page.$eval('svg.record-chart > desc', (e) => e.textContent)) ?? '').toMatch(/A\+: claimed \+\d/);
    expect(requests).toEqual([`${server.base}/desk`]);
    expect(cspErrors, cspErrors.join('\n')).toEqual([]);

    // The ROI axis as laid out: each tick's rendered x against the percentage it prints.
    const ticks = await page.$$eval('svg.record-chart g.tick', (els) =>
      els.map((e) => {
        const line = e.querySelector('line')?.getBoundingClientRect();
        return { pct: Number(e.getAttribute('data-pct')), x: line ? line.left + line.width / 2 : NaN, label: e.querySelector('text')?.textContent ?? '' };
      }),
    );
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    const first = ticks[0];
    const last = ticks[ticks.length - 1];
    if (!first || !last) throw new Error('no axis ticks');
    const pxPerPct = (last.x - first.x) / (last.pct - first.pct);
    expect(pxPerPct).toBeGreaterThan(0);
    const pctAt = (x: number): number => first.pct + (x - first.x) / pxPerPct;
    for (const t of ticks) {
      expect(pctAt(t.x)).toBeCloseTo(t.pct, 0);
      expect(t.label).toBe(`${t.pct > 0 ? '+' : ''}${t.pct}%`);
    }
    // Half a pixel of rounding either way, in percentage points.
    const tol = Math.max(0.6, 1 / pxPerPct);

    let drawnRoi = 0;
    let buildingRoi = 0;
    for (const t of record.tiers) {
      const sel = `svg.record-chart [data-tier="${t.grade}"]`;
      const row = (await page.$eval(`svg.record-chart g.tier-row[data-tier="${t.grade}"]`, (e) => e.textContent)) ?? '';
      expect(row).toContain(`n=${t.units.n}`);
      // The claim: a diamond whose centre sits at the record's mean claimed EV.
      if (t.claim.mean_ev_pct === null) {
        expect(await page.locator(`${sel}.claim-mark`).count()).toBe(0);
      } else {
        expect(nearJson(await data(page, `${sel}.claim-mark`, 'data-claimed-ev'), t.claim.mean_ev_pct)).toBe(true);
        expect(Number(await data(page, `${sel}.claim-mark`, 'data-n'))).toBe(t.claim.n);
        const claim = await box(page, `${sel}.claim-mark`);
        expect(Math.abs(pctAt(claim?.cx ?? NaN) - t.claim.mean_ev_pct)).toBeLessThan(tol);
      }
      // The ROI: drawn only at n >= 20, its whisker spanning exactly the record's 95% interval.
      const roi = t.units.roi_pct;
      const ci = t.units.roi_ci95;
      if (roi === null || ci === null) {
        expect(await page.locator(`${sel}.roi-mark`).count()).toBe(0);
        expect(row).toContain(t.units.n === 0 ? 'no settled stake' : `record building: ${t.units.n} of 20`);
        buildingRoi++;
        continue;
      }
      drawnRoi++;
      expect(nearJson(await data(page, `${sel}.roi-mark`, 'data-roi'), roi)).toBe(true);
      expect(nearJson(await data(page, `${sel}.roi-mark`, 'data-roi-lo'), ci[0])).toBe(true);
      expect(nearJson(await data(page, `${sel}.roi-mark`, 'data-roi-hi'), ci[1])).toBe(true);
      expect(Number(await data(page, `${sel}.roi-mark`, 'data-n'))).toBe(t.units.n);
      const interval = await box(page, `${sel}.roi-mark .roi-interval`);
      const point = await box(page, `${sel}.roi-mark .roi-point`);
      if (!interval || !point) throw new Error(`${t.grade}: ROI mark not rendered`);
      expect(Math.abs(pctAt(interval.left) - ci[0])).toBeLessThan(tol);
      expect(Math.abs(pctAt(interval.right) - ci[1])).toBeLessThan(tol);
      expect(Math.abs(pctAt(point.cx) - roi)).toBeLessThan(tol);
      expect(point.cy).toBeCloseTo(interval.cy, 0);
      expect(row).toContain(`${roi > 0 ? '+' : ''}${roi.toFixed(1)}%`);
    }
    // The bundled loop has both: tiers past the gate and one still building.
    expect(drawnRoi).toBeGreaterThan(0);
    expect(buildingRoi).toBeGreaterThan(0);

    // Beat the close per lead band: a bar whose share of its track is the record's rate, at n >= 20 only.
    const rows = [...record.tiers.map((t) => ({ name: t.grade, bands: t.beat_close_by_lead })), { name: 'All', bands: record.aggregate.beat_close_by_lead }];
    const heads = await page.$$eval('svg.record-chart text.band-head', (els) => els.map((e) => e.textContent));
    expect(heads).toEqual(['close ≤30m', 'close 30m–3h', 'close >3h']);
    let drawnBars = 0;
    let buildingCells = 0;
    for (const r of rows) {
      expect(r.bands.map((b) => b.band)).toEqual(['within_30m', '30m_to_3h', 'over_3h']);
      for (const b of r.bands) {
        const cell = `svg.record-chart [data-tier="${r.name}"][data-band="${b.band}"]`;
        const cls = await data(page, cell, 'class');
        const textIn = (await page.$eval(cell, (e) => e.textContent)) ?? '';
        expect(Number(await data(page, cell, 'data-n'))).toBe(b.n);
        if (b.n === 0) {
          expect(cls).toBe('beat-none');
          expect(textIn).toBe('no close');
        } else if (b.pct === null) {
          expect(cls).toBe('beat-building');
          expect(textIn).toBe(`record building:${b.n} of 20`);
          expect(Number(await data(page, cell, 'data-beat'))).toBe(b.beat);
          buildingCells++;
        } else {
          expect(cls).toBe('beat-mark');
          drawnBars++;
          expect(nearJson(await data(page, cell, 'data-beat-pct'), b.pct)).toBe(true);
          expect(textIn).toBe(`${b.pct.toFixed(1)}% (n=${b.n})`);
          const track = await box(page, `${cell} .beat-track`);
          const bar = await box(page, `${cell} .beat-bar`);
          const whisker = await box(page, `${cell} .beat-interval`);
          if (!track || !bar || !whisker || !b.ci95) throw new Error(`${r.name} ${b.band}: bar not rendered`);
          const width = track.right - track.left;
          expect(bar.left).toBeCloseTo(track.left, 0);
          expect(Math.abs(((bar.right - bar.left) / width) * 100 - b.pct)).toBeLessThan(1);
          expect(Math.abs(((whisker.left - track.left) / width) * 100 - b.ci95[0])).toBeLessThan(1);
          expect(Math.abs(((whisker.right - track.left) / width) * 100 - b.ci95[1])).toBeLessThan(1);
        }
      }
    }
    expect(drawnBars).toBeGreaterThan(0);
    expect(buildingCells).toBeGreaterThan(0);

    // Beat Pinnacle's own close: only the bands holding one (here within 30 min, 30 min to 3 h), a
    // bar at n >= 20 spanning the record's rate and interval, the gate below, nothing where none.
    const pinAll = record.aggregate.beat_close_pinnacle_by_lead;
    expect(pinAll.map((b) => b.n)).toEqual([22, 3, 0]);
    const pinHeads = await page.$$eval('svg.record-chart text.band-head-pinnacle', (els) => els.map((e) => e.textContent));
    expect(pinHeads).toEqual(['close ≤30m', 'close 30m–3h']);
    const pinRows = [...record.tiers.filter((t) => t.beat_close_pinnacle_by_lead.some((b) => b.n > 0)).map((t) => ({ name: t.grade, bands: t.beat_close_pinnacle_by_lead })), { name: 'All', bands: pinAll }];
    let pinBars = 0;
    for (const r of pinRows) {
      for (const b of r.bands) {
        const cell = `svg.record-chart [data-tier="${r.name}"][data-band="${b.band}"][data-yardstick="pinnacle"]`;
        if (b.n === 0) {
          expect(await page.locator(cell).count(), `${r.name} ${b.band}`).toBe(0);
          continue;
        }
        expect(Number(await data(page, cell, 'data-n'))).toBe(b.n);
        if (b.pct === null) {
          expect(await data(page, cell, 'class')).toBe('beat-building');
          continue;
        }
        pinBars++;
        expect(nearJson(await data(page, cell, 'data-beat-pct'), b.pct)).toBe(true);
        const track = await box(page, `${cell} .beat-track`);
        const bar = await box(page, `${cell} .beat-bar`);
        const whisker = await box(page, `${cell} .beat-interval`);
        if (!track || !bar || !whisker || !b.ci95) throw new Error(`${r.name} ${b.band}: Pinnacle bar not rendered`);
        const width = track.right - track.left;
        expect(Math.abs(((bar.right - bar.left) / width) * 100 - b.pct)).toBeLessThan(1);
        expect(Math.abs(((whisker.left - track.left) / width) * 100 - b.ci95[0])).toBeLessThan(1);
        expect(Math.abs(((whisker.right - track.left) / width) * 100 - b.ci95[1])).toBeLessThan(1);
      }
    }
    expect(pinBars).toBeGreaterThan(0);
    expect(await page.locator('svg.record-chart [data-yardstick="pinnacle"][data-band="over_3h"]').count()).toBe(0);
    await context.close();
  }, 60_000);
});
