import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/db.js';
import { runCli } from '../helpers/cli.js';
import { replayLoopFiles } from '../helpers/replay-store.js';
import { quiet, startServer, type Running } from '../server/_harness.js';

const NEXT_MORNING = '2025-11-06T12:00:00Z';

interface Row {
  grade: string | null;
  outcome: string;
  locked_price: number | null;
}

/** Units from decimal odds (a route independent of the code's profitPerUnit): hit = decimal - 1, miss = -1, push = 0. */
function unitsOf(rows: Row[]): { n: number; units: number } {
  let n = 0;
  let units = 0;
  for (const r of rows) {
    if (!['hit', 'miss', 'push'].includes(r.outcome) || r.locked_price === null) continue;
    n++;
    const decimal = r.locked_price > 0 ? 1 + r.locked_price / 100 : 1 + 100 / -r.locked_price;
    if (r.outcome === 'hit') units += decimal - 1;
    if (r.outcome === 'miss') units -= 1;
  }
  return { n, units };
}

const signed = (u: number) => `${u > 0 ? '+' : u < 0 ? '-' : ''}${Math.abs(u).toFixed(2)} u`;

describe('propgrade record (in-process CLI, the README replay loop)', () => {
  let dir: string;
  let presettle: string;
  let settled: string;
  let rows: Row[];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-record-cli-'));
    ({ presettle, settled } = await replayLoopFiles(dir));
    const store = openStore(settled);
    rows = store.sqlite.prepare('select grade, outcome, locked_price from ledger_entries where user_id is null').all() as Row[];
    void store.close();
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('shows units at the locked price and ROI beside the hit rate (n >= 20)', async () => {
    const expected = unitsOf(rows);
    expect(expected.n).toBeGreaterThanOrEqual(20);
    const r = await runCli(['--db', settled, 'record', '--now', NEXT_MORNING]);
    expect(r.code).toBe(0);
    const roi = (expected.units / expected.n) * 100;
    expect(r.stdout).toContain(`units at the locked price: ${signed(expected.units)}, ROI ${roi > 0 ? '+' : ''}${roi.toFixed(1)}% (n=${expected.n})`);
    const lines = r.stdout.split('\n');
    const hitRate = lines.findIndex((l) => l.startsWith('hit rate: '));
    expect(lines[hitRate + 1]).toMatch(/^units at the locked price: /);

    const json = JSON.parse((await runCli(['--db', settled, '--json', 'record', '--now', NEXT_MORNING])).stdout);
    expect(json.aggregate.units.n).toBe(expected.n);
    expect(json.aggregate.units.units).toBeCloseTo(expected.units, 5);
    expect(json.aggregate.units.roi_pct).toBeCloseTo(roi, 1);
    expect(json.settled_elsewhere).toBeNull();
  });

  it('per tier: units always, ROI only at n >= 20, and "record building: n of 20 needed" below', async () => {
    const json = JSON.parse((await runCli(['--db', settled, '--json', 'record', '--now', NEXT_MORNING])).stdout);
    const text = (await runCli(['--db', settled, 'record', '--now', NEXT_MORNING])).stdout;
    let building = 0;
    for (const tier of json.tiers as Array<{ grade: string; units: { n: number; units: number | null; roi_pct: number | null } }>) {
      const expected = unitsOf(rows.filter((r) => r.grade === tier.grade));
      expect(tier.units.n).toBe(expected.n);
      if (expected.n === 0) expect(tier.units.units).toBeNull();
      else expect(tier.units.units).toBeCloseTo(expected.units, 5);
      if (expected.n < 20) {
        building++;
        expect(tier.units.roi_pct).toBeNull();
        expect(text).toMatch(new RegExp(`│ ${tier.grade.replace('+', '\\+')} .*record building: ${expected.n} of 20 needed`));
      } else expect(tier.units.roi_pct).not.toBeNull();
    }
    expect(building).toBeGreaterThan(0); // the replay's A+ tier is small
    expect(text).not.toMatch(/\d+ of 20 \(record building\)/);
    // One wording in every cell: each "n of 20 needed" says it is the record building.
    expect(text.match(/(?<!record building: )\b\d+ of 20 needed/g)).toBeNull();
  });

  it('beat close per lead band of the close, per tier and in all, from the stored capture and start times', async () => {
    const store = openStore(settled);
    const closes = store.sqlite
      .prepare(`select grade, clv_verdict as verdict, closing_captured_at as capturedAt, commence_time as commence from ledger_entries where user_id is null and clv_verdict is not null and close_method = 'one_yardstick'`)
      .all() as Array<{ grade: string | null; verdict: string; capturedAt: string; commence: string }>;
    void store.close();
    // The band by hand: minutes from capture to start; <= 30, <= 180, more.
    const band = (c: { capturedAt: string; commence: string }) => {
      const m = (Date.parse(c.commence) - Date.parse(c.capturedAt)) / 60_000;
      return m <= 30 ? 'within_30m' : m <= 180 ? '30m_to_3h' : 'over_3h';
    };
    const count = (list: typeof closes) =>
      ['within_30m', '30m_to_3h', 'over_3h'].map((b) => {
        const inBand = list.filter((c) => band(c) === b);
        const beat = inBand.filter((c) => c.verdict === 'beat').length;
        return { band: b, n: inBand.length, beat, faded: inBand.filter((c) => c.verdict === 'faded').length, flat: inBand.filter((c) => c.verdict === 'flat').length, pct: inBand.length >= 20 ? Math.round((1000 * beat) / inBand.length) / 10 : null }; // the wire's one decimal
      });
    const json = JSON.parse((await runCli(['--db', settled, '--json', 'record', '--now', NEXT_MORNING])).stdout);
    const strip = (bands: Array<Record<string, unknown>>) => bands.map(({ ci95: _ci, ...rest }) => rest);
    expect(strip(json.aggregate.beat_close_by_lead)).toEqual(count(closes));
    for (const tier of json.tiers as Array<{ grade: string; beat_close_by_lead: Array<Record<string, unknown>> }>) expect(strip(tier.beat_close_by_lead)).toEqual(count(closes.filter((c) => c.grade === tier.grade)));
    // The bundled day's closes are the 17:05 UTC snapshot, hours before every tip: only the last band has any.
    expect(count(closes)[2]!.n).toBe(closes.length);

    const text = (await runCli(['--db', settled, 'record', '--now', NEXT_MORNING])).stdout;
    expect(text).toContain('Beat close ≤30m');
    expect(text).toContain('Beat close >3h');
    expect(text).toMatch(/^Beat close ≤30m \/ 30m–3h \/ >3h: /m);
    const far = count(closes)[2]!;
    // The all-entries line leads with the nearest band that has closes; the empty ones follow, indented.
    expect(text).toContain(`beat close (consensus of the other books), closes more than 3 h before the start: ${far.pct!.toFixed(1)}% (n=${far.n})`);
    expect(text).toContain('  closes within 30 min of the start: none');
    expect(text).not.toMatch(/when the game started/);
  });

  it('a window with nothing settled says where the settled entries are, and the suggestion works', async () => {
    const settledCount = rows.filter((r) => r.outcome !== 'pending').length;
    const far = await runCli(['--db', settled, 'record', '--now', '2026-11-24T12:00:00Z']);
    expect(far.code).toBe(0);
    // 2025-11-05..2026-11-24 needs 385 days, beyond --days' limit of 365: only --now is offered.
    expect(far.stdout).toContain(`no settled entries in the 30 days to 2026-11-24; ${settledCount} settled entries exist, the latest on 2025-11-05: try --now 2025-11-06T12:00:00Z`);
    const farJson = JSON.parse((await runCli(['--db', settled, '--json', 'record', '--now', '2026-11-24T12:00:00Z'])).stdout);
    expect(farJson.settled_elsewhere).toMatchObject({ settled: settledCount, latest_game_date: '2025-11-05', try_days: null, try_date: '2025-11-05' });

    const month = await runCli(['--db', settled, 'record', '--now', '2025-12-20T12:00:00Z']);
    expect(month.stdout).toContain('the latest on 2025-11-05: try --now 2025-11-06T12:00:00Z or --days 46');
    const followed = JSON.parse((await runCli(['--db', settled, '--json', 'record', '--now', '2025-12-20T12:00:00Z', '--days', '46'])).stdout);
    expect(followed.aggregate.counts.entries).toBe(rows.length);
    expect(followed.settled_elsewhere).toBeNull();

    const day = await runCli(['--db', settled, 'record', '--date', '2025-11-04']);
    expect(day.stdout).toContain(`no settled entries on 2025-11-04; ${settledCount} settled entries exist, the latest on 2025-11-05: try --date 2025-11-05`);

    // Scoped: a team's own settled entries are counted, not the whole record's.
    const store = openStore(settled);
    const ny = (store.sqlite.prepare("select count(*) as n from ledger_entries where user_id is null and team = 'NY' and outcome <> 'pending'").get() as { n: number }).n;
    void store.close();
    expect(ny).toBeGreaterThan(0);
    const team = await runCli(['--db', settled, 'record', '--team', 'ny', '--sport', 'nba', '--now', '2026-11-24T12:00:00Z']);
    expect(team.stdout).toContain(`; ${ny} settled entries exist, the latest on 2025-11-05`);
    // NY is the Knicks and the Liberty: without --sport the record refuses to mix them, as the ledger does.
    const mixed = await runCli(['--db', settled, 'record', '--team', 'NY']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('team NY is the New York Knicks (nba) and the New York Liberty (wnba): add --sport nba or --sport wnba');
  });

  it('a window of pending entries only says to settle them, without a --now from the read clock', async () => {
    const r = await runCli(['--db', presettle, 'record']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/clock \(each sport its own\): nba 2025-11-05T17:05:00.000Z/);
    expect(r.stdout).toMatch(new RegExp(`nothing settled yet in the 30 days to 2025-11-05: ${rows.length} pending; run \`propgrade settle\` after their games`));
    expect(r.stdout).toContain('units at the locked price: no settled stake yet (n=0)');
    const json = JSON.parse((await runCli(['--db', presettle, '--json', 'record'])).stdout);
    expect(json.aggregate.units).toMatchObject({ n: 0, units: null, roi_pct: null });
  });
});

describe('the HTTP record routes carry the same figures', () => {
  let store: ReturnType<typeof openStore>;
  let dir2: string;
  let api: Running;
  let now = new Date(NEXT_MORNING);
  beforeAll(async () => {
    dir2 = mkdtempSync(join(tmpdir(), 'propgrade-record-http-'));
    store = openStore((await replayLoopFiles(dir2)).settled);
    api = await startServer({ store, config: loadConfig({}), now: () => now, log: quiet });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    void store?.close();
    rmSync(dir2, { recursive: true, force: true });
  });
  const get = async (path: string) => (await (await fetch(api.base + path)).json()) as Record<string, any>;

  it('/api/ledger/model: units and ROI in the aggregate and tiers, the total, and CLV status per entry', async () => {
    now = new Date(NEXT_MORNING);
    const rows = store.sqlite.prepare('select grade, outcome, locked_price from ledger_entries where user_id is null').all() as Row[];
    const body = await get('/api/ledger/model?limit=10');
    const expected = unitsOf(rows);
    expect(body.aggregate.units.n).toBe(expected.n);
    expect(body.aggregate.units.units).toBeCloseTo(expected.units, 5);
    expect(body.aggregate.units.roi_pct).toBeCloseTo((expected.units / expected.n) * 100, 1);
    expect(body.tiers.map((t: { units: { n: number } }) => t.units.n)).toEqual(['A+', 'A', 'B', 'C'].map((g) => unitsOf(rows.filter((r) => r.grade === g)).n));
    expect(body).toMatchObject({ total: rows.length, count: 10, limit: 10, settled_elsewhere: null });
    for (const e of body.entries) {
      expect(e.clv_status).toHaveProperty('final', true);
      expect(e.clv_status.verdict === null).toBe(e.clv_status.note !== null);
    }
  });

  it('/api/accuracy: units per tier, and where the settled entries are when the window holds none', async () => {
    now = new Date(NEXT_MORNING);
    const rows = store.sqlite.prepare('select grade, outcome, locked_price from ledger_entries where user_id is null').all() as Row[];
    const body = await get('/api/accuracy');
    expect(body.tiers.map((t: { units: { n: number } }) => t.units.n)).toEqual(['A+', 'A', 'B', 'C'].map((g) => unitsOf(rows.filter((r) => r.grade === g)).n));
    expect(body.settled_elsewhere).toBeNull();
    now = new Date('2026-11-24T12:00:00Z');
    const empty = await get('/api/accuracy');
    expect(empty.tiers.every((t: { n: number; units: { units: number | null } }) => t.n === 0 && t.units.units === null)).toBe(true);
    expect(empty.settled_elsewhere).toMatchObject({ settled: rows.filter((r) => r.outcome !== 'pending').length, latest_game_date: '2025-11-05', try_now: '2025-11-06T12:00:00.000Z' });
    const model = await get('/api/ledger/model');
    expect(model.settled_elsewhere).toMatchObject({ latest_game_date: '2025-11-05' });
    expect(model.total).toBe(0);
  });
});
