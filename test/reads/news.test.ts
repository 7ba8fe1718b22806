import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { normalizeName } from '../../src/domain/names.js';
import { espnLeague, newsUrl } from '../../src/feeds/espn/index.js';
import type { FetchOutcome, FetchRequest, Transport } from '../../src/feeds/transport/types.js';
import { ContextCache } from '../../src/store/cache.js';
import type { ContextDeps } from '../../src/feeds/context.js';
import { newsWire, readNews } from '../../src/reads/news.js';
import { silentLogger } from '../../src/feeds/sources.js';
import { toWire } from '../../src/wire.js';
import { tempStore } from '../helpers/replay-store.js';

/** The news wire on the real ESPN news payloads in test/fixtures/espn (copies of ../shared/feeds/espn). */

const body = (file: string) => readFileSync(`test/fixtures/espn/${file}`, 'utf8');
const NBA_URL = newsUrl(espnLeague('nba'));
const T0 = new Date('2026-05-23T20:00:00Z');

interface RawArticle {
  id: number;
  headline: string;
  published: string;
  categories?: Array<{ type?: string; description?: string }>;
}

function transport(answer: () => string | null) {
  const calls: FetchRequest[] = [];
  const t: Transport = {
    kind: 'replay',
    async fetch(request): Promise<FetchOutcome> {
      calls.push(request);
      const b = answer();
      return b === null ? { ok: false, status: 503, reason: 'HTTP 503' } : { ok: true, status: 200, headers: {}, body: b, source: 'replay' };
    },
  };
  return { t, calls };
}

let cleanups: Array<() => void> = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});

function deps(t: Transport, now = T0): ContextDeps {
  const s = tempStore();
  cleanups.push(s.cleanup);
  return { store: s.store, config: loadConfig({}), cache: new ContextCache(s.store), providers: { source: 'live', keyless: t, odds: null, close: async () => {} }, now, log: silentLogger };
}

describe('news wire (real ESPN NBA news, 2026-05-23)', () => {
  const raw = JSON.parse(body('nba-news-2026-05-23.json')) as { articles: RawArticle[] };

  it('lists every item newest first, with the spec fields', async () => {
    const view = await readNews(deps(transport(() => body('nba-news-2026-05-23.json')).t), 'nba');
    if (!view.available) throw new Error(view.reason);
    expect(view.items.map((i) => i.id)).toEqual([...raw.articles].sort((a, b) => b.published.localeCompare(a.published)).map((a) => String(a.id)));
    expect(Object.keys(toWire(view.items[0]) as object).sort()).toEqual(['description', 'headline', 'href', 'id', 'published', 'team', 'type'].sort());
    expect(view.items[0]).toMatchObject({ id: '45539787', published: '2026-05-23T18:31:02Z', type: 'Story' });
  });

  it('takes athlete and team only from the categories (athlete key through the name normalizer), absent otherwise', async () => {
    const view = await readNews(deps(transport(() => body('nba-news-2026-05-23.json')).t), 'nba');
    if (!view.available) throw new Error(view.reason);
    for (const item of view.items) {
      const article = raw.articles.find((a) => String(a.id) === item.id)!;
      const athlete = article.categories?.find((c) => c.type === 'athlete' && c.description);
      const team = article.categories?.find((c) => c.type === 'team' && c.description);
      if (athlete) expect(item.athlete).toEqual({ name: normalizeName(athlete.description!).display, key: normalizeName(athlete.description!).key });
      else expect(item.athlete).toBeUndefined();
      if (team) expect(item.team?.name).toBe(team.description);
      else expect(item.team).toBeUndefined();
    }
    // The headline names Donovan Mitchell, but no athlete category does: no athlete.
    const mitchell = view.items.find((i) => i.id === '48848352')!;
    expect(mitchell.headline).toMatch(/Donovan Mitchell/);
    expect(mitchell.athlete).toBeUndefined();
    expect(view.items.find((i) => i.id === '48817317')!.athlete).toEqual({ name: 'Jalen Brunson', key: normalizeName('Jalen Brunson').key });
  });

  it('deduplicates by id', () => {
    const items = newsWire([
      { id: '1', headline: 'old copy', description: null, published: '2026-05-23T10:00:00Z', type: null, href: null },
      { id: '2', headline: 'other', description: null, published: '2026-05-23T11:00:00Z', type: null, href: null },
      { id: '1', headline: 'new copy', description: null, published: '2026-05-23T12:00:00Z', type: null, href: null },
      { id: '3', headline: 'no time', description: null, published: null, type: null, href: null },
    ]);
    expect(items.map((i) => [i.id, i.headline])).toEqual([
      ['1', 'new copy'],
      ['2', 'other'],
      ['3', 'no time'],
    ]);
  });

  it('reads the other real feeds: MLB and soccer site news, the re-serialised WNBA feed (+00:00 times normalised)', async () => {
    for (const [sport, file] of [
      ['mlb', 'mlb-news-2025-05-20.json'],
      ['soccer', 'soccer-eng1-news-2025-06-01.json'],
      ['wnba', 'wnba-news-2025-06-04.json'],
    ] as const) {
      const view = await readNews(deps(transport(() => body(file)).t), sport);
      if (!view.available) throw new Error(view.reason);
      expect(view.items.length).toBeGreaterThan(0);
      const times = view.items.map((i) => i.published).filter((p): p is string => p !== null);
      expect(times.every((p) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(p))).toBe(true);
      expect([...times].sort().reverse()).toEqual(times);
    }
  });

  it('one upstream call per 15-minute TTL; after it a failure serves the last good wire marked stale with its age', async () => {
    let up = true;
    const tr = transport(() => (up ? body('nba-news-2026-05-23.json') : null));
    const d = deps(tr.t);
    await readNews(d, 'nba');
    await readNews({ ...d, now: new Date(T0.getTime() + 14 * 60_000) }, 'nba');
    expect(tr.calls).toHaveLength(1);
    expect(tr.calls[0]!.url).toBe(NBA_URL);
    up = false;
    const stale = await readNews({ ...d, now: new Date(T0.getTime() + 20 * 60_000) }, 'nba');
    expect(stale).toMatchObject({ available: true, stale: true, ageSeconds: 1200, count: 5 });
    expect(tr.calls).toHaveLength(2);
  });

  it('unknown shapes and failures with nothing cached hide the wire (with the reason), never throw', async () => {
    for (const b of ['{"unexpected": {"shape": true}}', '<html>maintenance</html>', '', '[]', null]) {
      const view = await readNews(deps(transport(() => b).t), 'nba');
      expect(view.available, String(b)).toBe(false);
      expect(!view.available && view.reason).toMatch(/no ESPN basketball\/nba news/);
    }
    // An article without a headline is dropped, the rest stay.
    const partial = JSON.stringify({ articles: [{ id: 1 }, { id: 2, headline: 'kept', published: '2026-05-23T10:00:00Z' }] });
    const view = await readNews(deps(transport(() => partial).t), 'nba');
    expect(view.available && view.items.map((i) => i.headline)).toEqual(['kept']);
  });
});
