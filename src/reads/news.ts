import type { Sport } from '../domain/sports.js';
import { espnLeague, fetchNews, type NewsItem } from '../feeds/espn/index.js';
import { toUtcIso } from '../feeds/espn/common.js';
import { CONTEXT_CACHE, freshnessOf, type Freshness } from '../store/cache.js';
import { contextKey, loadLog, replayTracking, requireUpstream, type ContextDeps } from '../feeds/context.js';

/**
 * The news wire (spec: News item): ESPN news for a sport through the context cache (15 min).
 * athlete and team come only from an item's categories (the adapter's rule) and are absent
 * otherwise; items are deduplicated by id and listed newest first.
 */

export type NewsView =
  | ({ sport: Sport; available: true; count: number; items: NewsItem[] } & Freshness)
  | { sport: Sport; available: false; reason: string };

/** Newest first (an item without a readable time last), one item per id (the newest copy wins). */
export function newsWire(items: readonly NewsItem[]): NewsItem[] {
  const stamped = items.map((item, order) => {
    const published = toUtcIso(item.published);
    return { item: { ...item, published }, at: published === null ? Number.NEGATIVE_INFINITY : Date.parse(published), order };
  });
  stamped.sort((a, b) => b.at - a.at || a.order - b.order);
  const seen = new Set<string>();
  const out: NewsItem[] = [];
  for (const s of stamped) {
    if (seen.has(s.item.id)) continue;
    seen.add(s.item.id);
    out.push(s.item);
  }
  return out;
}

export async function readNews(deps: ContextDeps, sport: Sport, options: { limit?: number; refresh?: boolean } = {}): Promise<NewsView> {
  const league = espnLeague(sport);
  requireUpstream(deps, 'the news wire');
  const read = await deps.cache.read<NewsItem[]>(contextKey(deps.providers, 'news', sport), CONTEXT_CACHE.news, deps.now, {
    ...replayTracking(deps),
    ...(options.refresh ? { refresh: true } : {}),
    load: async () => {
      const log = loadLog(deps.log);
      const items = await fetchNews(deps.providers.keyless, league, log);
      return items === null ? { ok: false, reason: log.why(`no ESPN ${league.path} news`) } : { ok: true, value: newsWire(items) };
    },
  });
  if (!read.ok) return { sport, available: false, reason: read.reason };
  const items = options.limit === undefined ? read.value : read.value.slice(0, options.limit);
  return { sport, available: true, ...freshnessOf(read), count: items.length, items };
}
