import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';
import { everySportLoopFile } from '../helpers/replay-store.js';

/**
 * The desk's RECEIPTS is `propgrade record` (issue 41 item 3): on a store holding the three recorded
 * sports and the NBA loop, the desk pack counts the same entries in the same windows (each sport's
 * 30 days ending on its own data clock), prints the same counts, rates, units, ROI and intervals,
 * and names each sport's window; the newsletter's record section and the desk page's chart carry
 * the same figures. Before: the desk counted 448 entries, 30 days to the pack's date for every sport.
 *
 * Pinnacle's yardstick (issue 43): the bundled recording holds no Pinnacle price (and its only
 * closes are the NBA loop's), so the test has Pinnacle price some lines: the first 30 public entries
 * with a consensus close get a Pinnacle verdict (the consensus one) and a Pinnacle close lead (10 min
 * for 25 of them, 100 min for 5, none over 3 h), written with SQL before the record and the desk read
 * the store.
 */

/** Each sport's 30 ET days ending on the ET date of its newest snapshot (the bundled recording's clocks). */
const WINDOWS = [
  { sport: 'mlb', from: '2025-07-18', to: '2025-08-16' },
  { sport: 'nba', from: '2025-10-07', to: '2025-11-05' },
  { sport: 'wnba', from: '2024-05-04', to: '2024-06-02' },
  // The EPL matchday of 2025-08-30 (issue 42): its 4 pre-grades.
  { sport: 'soccer', from: '2025-08-01', to: '2025-08-30' },
];

interface Figure {
  key: string;
  value: number | string;
  display: string;
  n: number | null;
  source: { ids: number[] };
}
type Json = Record<string, any>;
/** The record's JSON prints a percentage to one place and units to six (the wire's rounding); the desk keeps the full value. */
const r1 = (v: number | string | undefined): number => Math.round(Number(v) * 10) / 10 + 0;

describe('the desk RECEIPTS equals propgrade record on the same store', () => {
  let dir: string;
  let db: string;
  let inWindow: number[];
  /** The raw rows' Pinnacle closes per band, counted with SQL. */
  let pinBands: Array<{ band: string; n: number; beat: number; ids: number[] }>;
  let record: Json;
  let receipts: { status: string; headline: string; long: string; wire: string[]; numbers: string[]; brief: Figure[] };
  const cli = (argv: string[]) => runCli(['--db', db, ...argv], { NO_COLOR: '1' });
  const fig = (key: string): Figure => {
    const f = receipts.brief.find((x) => x.key === key);
    if (!f) throw new Error(`no figure ${key} in RECEIPTS: ${receipts.brief.map((x) => x.key).join(', ')}`);
    return f;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-receipts-'));
    db = join(dir, 'pg.sqlite');
    await everySportLoopFile(db, cli);
    // The raw rows: which public entries fall in their sport's window, read with SQL, not through the code under test.
    const store = openStore(db);
    const rows = store.sqlite.prepare('select id, sport, game_date from ledger_entries where user_id is null order by id').all() as Array<{ id: number; sport: string; game_date: string }>;
    inWindow = rows.filter((r) => WINDOWS.some((w) => w.sport === r.sport && r.game_date >= w.from && r.game_date <= w.to)).map((r) => r.id);
    // Pinnacle prices some lines: 25 closes 10 min out, 5 at 100 min, none over 3 h.
    const priced = store.sqlite.prepare("select id from ledger_entries where user_id is null and clv_verdict is not null and close_method = 'one_yardstick' order by id limit 30").all() as Array<{ id: number }>;
    expect(priced).toHaveLength(30);
    const set = store.sqlite.prepare('update ledger_entries set pinnacle_clv_verdict = clv_verdict, pinnacle_close_lead_minutes = ? where id = ?');
    priced.forEach((r, i) => set.run(i < 25 ? 10 : 100, r.id));
    const pin = store.sqlite.prepare('select id, pinnacle_clv_verdict as verdict, pinnacle_close_lead_minutes as lead from ledger_entries where user_id is null and pinnacle_clv_verdict is not null order by id').all() as Array<{ id: number; verdict: string; lead: number }>;
    await store.close();
    const counted = pin.filter((r) => inWindow.includes(r.id));
    pinBands = [
      { band: 'within_30m', rows: counted.filter((r) => r.lead > 0 && r.lead <= 30) },
      { band: '30m_to_3h', rows: counted.filter((r) => r.lead > 30 && r.lead <= 180) },
      { band: 'over_3h', rows: counted.filter((r) => r.lead > 180) },
    ].map((b) => ({ band: b.band, n: b.rows.length, beat: b.rows.filter((r) => r.verdict === 'beat').length, ids: b.rows.map((r) => r.id) }));
    const rec = await cli(['record', '--json']);
    expect(rec.code, rec.stderr).toBe(0);
    record = JSON.parse(rec.stdout) as Json;
    const desk = await cli(['desk', '--json', '--out', join(dir, 'desk')]);
    expect(desk.code, desk.stderr).toBe(0);
    const pack = JSON.parse(desk.stdout) as Json;
    receipts = pack.templates.find((t: Json) => t.id === 'receipts');
  }, 240_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('counts the entries the record counts, in the record\'s windows, and says so', () => {
    expect(receipts.status).toBe('ready');
    // 448 NBA, 20 WNBA, 20 MLB and 4 EPL pre-grades.
    expect(inWindow).toHaveLength(492);
    expect(record.aggregate.counts.entries).toBe(492);
    const entries = fig('entries');
    expect(entries.value).toBe(492);
    expect([...entries.source.ids].sort((a, b) => a - b)).toEqual(inWindow);
    expect(record.windows).toEqual(WINDOWS);
    // The copy names each sport's window (the sports with entries), as the record does.
    expect(receipts.long).toContain("each sport's 30 days to its own newest snapshot (MLB Jul 18 to Aug 16; NBA Oct 7 to Nov 5; WNBA May 4 to Jun 2, 2024; SOCCER Aug 1 to Aug 30)");
    for (const w of WINDOWS) expect(receipts.numbers).toContain(`window, ${w.sport}: ${w.from} to ${w.to}`);
  });

  it('prints the record\'s counts, rates, units, ROI and intervals', () => {
    const a = record.aggregate;
    for (const k of ['hits', 'misses', 'pushes', 'voids', 'pending'] as const) expect(fig(k).value, k).toBe(a.counts[k]);
    expect(r1(fig('hit_rate').value)).toBe(a.hit_rate.pct);
    expect(fig('hit_rate').n).toBe(a.hit_rate.n);
    expect(fig('window.units').value).toBeCloseTo(a.units.units, 5);
    expect(fig('window.stakes').value).toBe(a.units.n);
    expect(r1(fig('window.roi').value)).toBe(a.units.roi_pct);
    expect(r1(fig('beat_close').value)).toBe(a.beat_close.pct);
    expect(fig('beat_close').n).toBe(a.beat_close.n);
    // The intervals, printed as the record prints them: Wilson for a share, games resampled for the ROI.
    const ci = (c: [number, number]) => `[${c[0].toFixed(1)}-${c[1].toFixed(1)}]`;
    expect(receipts.numbers).toContain(`hit rate: ${a.hit_rate.pct.toFixed(1)}% (n=${a.hit_rate.n}) ${ci(a.hit_rate.ci95)}`);
    const roi = receipts.numbers.find((l) => l.startsWith('ROI: '));
    const signed = (v: number) => `${v > 0 ? '+' : ''}${(Math.round(v * 10) / 10).toFixed(1)}%`;
    expect(roi).toBe(`ROI: ${signed(a.units.roi_pct)} [${signed(a.units.roi_ci95[0])} to ${signed(a.units.roi_ci95[1])}]`);
    for (const b of a.beat_close_by_lead.filter((x: Json) => x.n > 0)) {
      expect(fig(`beat_close.by_lead.${b.band}`).n, b.band).toBe(b.n);
      if (b.pct !== null) expect(r1(fig(`beat_close.by_lead.${b.band}`).value), b.band).toBe(b.pct);
    }
  });

  it("prints beat close against Pinnacle's own close per lead band as the record does, nearest band first, no band without a close", () => {
    expect(pinBands.map((b) => b.n)).toEqual([25, 5, 0]);
    const a = record.aggregate;
    expect(a.beat_close_pinnacle_by_lead.map((b: Json) => [b.band, b.n, b.beat])).toEqual(pinBands.map((b) => [b.band, b.n, b.beat]));
    const ci = (c: [number, number]) => `[${c[0].toFixed(1)}-${c[1].toFixed(1)}]`;
    const pinLines = receipts.numbers.filter((l) => l.includes('Pinnacle'));
    const within = a.beat_close_pinnacle_by_lead[0];
    const pooled = a.beat_close_pinnacle;
    expect(pinLines).toEqual([
      `beat Pinnacle's no-vig close, closes within 30 min of the start: ${within.pct.toFixed(1)}% (n=${within.n}) ${ci(within.ci95)}`,
      `beat Pinnacle's no-vig close, closes 30 min to 3 h before the start: record building: 5 of 20`,
      `beat Pinnacle's no-vig close, every lead time: ${pooled.pct.toFixed(1)}% (n=${pooled.n}) ${ci(pooled.ci95)}`,
    ]);
    for (const b of pinBands.filter((x) => x.n > 0)) {
      const f = fig(`beat_close_pinnacle.by_lead.${b.band}`);
      expect(f.n, b.band).toBe(b.n);
      expect([...f.source.ids].sort((x, y) => x - y), b.band).toEqual(b.ids);
    }
    expect(r1(fig('beat_close_pinnacle.by_lead.within_30m').value)).toBe(within.pct);
    expect(receipts.brief.some((f) => f.key === 'beat_close_pinnacle.by_lead.over_3h')).toBe(false);
    // The copy leads with the band nearest the start.
    expect(receipts.long).toContain(`Against Pinnacle's own no-vig close, over the entries Pinnacle priced at the graded line: closes taken within 30 min of the start: ${within.pct.toFixed(1)}% (n=${within.n}) ${ci(within.ci95)} beat; closes taken 30 min to 3 h before the start: record building: 5 of 20 beat; every lead time together: `);
    // Each tier's Pinnacle bands are the record's.
    for (const t of record.tiers) {
      for (const b of t.beat_close_pinnacle_by_lead as Json[]) {
        const f = receipts.brief.find((x) => x.key === `tier.${t.grade}.beat_close_pinnacle.${b.band}`);
        if (b.n === 0) expect(f, `${t.grade} ${b.band}`).toBeUndefined();
        else expect(f?.n, `${t.grade} ${b.band}`).toBe(b.n);
      }
    }
  });

  it('prints each tier as the record does', () => {
    const shown = record.tiers.filter((t: Json) => t.counts.hits + t.counts.misses > 0);
    expect(shown.length).toBeGreaterThan(1);
    for (const t of shown) {
      expect(fig(`tier.${t.grade}.record`).value, t.grade).toBe(`${t.counts.hits}-${t.counts.misses}`);
      const rate = fig(`tier.${t.grade}.hit_rate`);
      expect(t.hit_rate.pct === null ? rate.value : r1(rate.value), t.grade).toBe(t.hit_rate.pct ?? `${t.counts.hits} of ${t.hit_rate.n}`);
      expect(fig(`tier.${t.grade}.units`).value, t.grade).toBeCloseTo(t.units.units, 5);
      if (t.units.roi_pct !== null) expect(r1(fig(`tier.${t.grade}.roi`).value), t.grade).toBe(t.units.roi_pct);
    }
  });

  it('draws the record\'s tiers and intervals on the desk page', () => {
    const html = readFileSync(join(dir, 'desk', 'desk.html'), 'utf8');
    expect(html).toContain(`data-window-from="${WINDOWS[2]!.from}" data-window-to="${WINDOWS[1]!.to}"`);
    const drawn = [...html.matchAll(/class="roi-mark" data-tier="([^"]+)" data-roi="([^"]+)" data-roi-lo="([^"]+)" data-roi-hi="([^"]+)" data-n="(\d+)"/g)].map((m) => ({ grade: m[1], roi: [m[2], m[3], m[4]].map(r1), n: Number(m[5]) }));
    const withInterval = record.tiers.filter((x: Json) => x.units.roi_ci95 !== null);
    expect(withInterval.length).toBeGreaterThan(0);
    expect(drawn).toEqual(withInterval.map((t: Json) => ({ grade: t.grade, roi: [t.units.roi_pct, ...t.units.roi_ci95], n: t.units.n })));
    // Pinnacle's bands with a close, drawn beside the consensus: All within 30 min a bar, 30 min to 3 h the gate, nothing over 3 h.
    const pin = [...html.matchAll(/<g class="([\w-]+)" data-tier="All" data-band="([\w]+)" data-yardstick="pinnacle" (?:data-beat-pct="([^"]+)" )?data-n="(\d+)"/g)].map((m) => ({ cls: m[1], band: m[2], pct: m[3] === undefined ? null : r1(m[3]), n: Number(m[4]) }));
    const [bandWithin] = record.aggregate.beat_close_pinnacle_by_lead as Json[];
    expect(pin).toEqual([
      { cls: 'beat-mark', band: 'within_30m', pct: bandWithin?.pct, n: bandWithin?.n },
      { cls: 'beat-building', band: '30m_to_3h', pct: null, n: 5 },
    ]);
  });
});
