import fs, { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The MLB season builder keeps a book's two-sided price where the raw file lists the same line
 * twice in one version (issue 43): Pointsbet and Sportsbet write a line once in their over-only
 * "N+" ladder and once, with both sides, as the over/under market. Checked against the raw rows of
 * one near-start version (2025-06-13T22:36:27Z, ten minutes before Mitchell Parker's first pitch):
 * every raw row priced on both sides whose book and pitcher the folder carries then is in the
 * folder with both sides, at the raw prices converted as the adapter reads decimals.
 */
const SHARED = path.resolve('..', 'shared');
const GZ = join(SHARED, 'history', 'mlb_player_props_pinnacle_au_2025.csv.gz');
const available = fs.existsSync(GZ) && fs.existsSync(join(SHARED, 'history', 'mlb_pitcher_strikeouts_props_first_last_pregame_2025.csv'));
const DAY = '2025-06-13';
const AT = '2025-06-13T22:36:27Z';
const BOOK: Record<string, string> = { pinnacle: 'pinnacle', neds: 'neds', pointsbet_au: 'pointsbetau', sportsbet: 'sportsbet', tab: 'tab', bet365_au: 'bet365_au' };

const fold = (n: string) =>
  n.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[.']/g, '').replace(/-/g, ' ').split(/\s+/).filter((t) => t && !['jr', 'sr', 'ii', 'iii'].includes(t)).join(' ');
const american = (d: number) => Math.round((d >= 2 ? 100 * (d - 1) : -100 / (d - 1)) * 100) / 100;

interface Body { bookmakers: Array<{ key: string; markets: Array<{ key: string; outcomes: Array<{ name: string; description: string; point: number; price: number }> }> }> }

describe.skipIf(!available)(`MLB season folder: two-sided Australian prices at ${AT}`, () => {
  let dir: string;
  const folder = new Map<string, number>(); // book|market|pitcher|line|side -> price
  const carried = new Set<string>(); // book|market|pitcher
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-season-mlb-pairs-'));
    const { build } = (await import(pathToFileURL(path.resolve('scripts/season-replay/mlb.mjs')).href)) as { build: (o: object) => unknown };
    build({ shared: SHARED, outDir: join(dir, 'replay'), from: DAY, to: DAY });
    const manifest = JSON.parse(fs.readFileSync(join(dir, 'replay', 'manifest.json'), 'utf8')) as { entries: Array<{ file: string; url: string; recordedAt: string }> };
    for (const e of manifest.entries.filter((x) => x.url.includes('/odds?') && x.recordedAt === AT)) {
      const body = JSON.parse(fs.readFileSync(join(dir, 'replay', e.file), 'utf8')) as Body;
      for (const b of body.bookmakers) {
        for (const m of b.markets) {
          for (const o of m.outcomes) {
            carried.add(`${b.key}|${m.key}|${fold(o.description)}`);
            folder.set(`${b.key}|${m.key}|${fold(o.description)}|${o.point}|${o.name}`, o.price);
          }
        }
      }
    }
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('carries both sides of every two-sided raw row of the version', () => {
    const rows = (parse(zlib.gunzipSync(fs.readFileSync(GZ)).toString('utf8'), { columns: true }) as Array<Record<string, string>>).filter(
      (r) => r.snapshot_utc === AT && (r.market === 'pitcher_strikeouts' || r.market === 'pitcher_outs') && Number(r.over_price) > 1 && Number(r.under_price) > 1,
    );
    // Raw two-sided pairs per book, pitcher and line (Neds may list two pairs at one line: the folder keeps one of them).
    const pairs = new Map<string, string[]>();
    for (const r of rows) {
      const key = `${BOOK[r.book_key!]!}|${r.market}|${fold(r.player_name!)}`;
      if (!carried.has(key)) continue; // a pitcher the builder did not tie to a game (counted in its drops)
      const k = `${key}|${Number(r.line)}`;
      pairs.set(k, [...(pairs.get(k) ?? []), `${american(Number(r.over_price))}/${american(Number(r.under_price))}`]);
    }
    let checked = 0;
    const byBook: Record<string, number> = {};
    for (const [k, raw] of pairs) {
      expect(raw, k).toContain(`${folder.get(`${k}|Over`)}/${folder.get(`${k}|Under`)}`);
      checked += 1;
      const book = k.split('|')[0]!;
      byBook[book] = (byBook[book] ?? 0) + 1;
    }
    // The books whose over-only ladder repeats the line: their pairs are in the folder too.
    expect(byBook.pointsbetau ?? 0).toBeGreaterThan(0);
    expect(byBook.sportsbet ?? 0).toBeGreaterThan(0);
    expect(checked).toBeGreaterThanOrEqual(10);
    // Mitchell Parker 4.5 at Pointsbet: raw 2.25 / 1.63 -> +125 / -158.73.
    expect(folder.get('pointsbetau|pitcher_strikeouts|mitchell parker|4.5|Under')).toBe(american(1.63));
  });
});
