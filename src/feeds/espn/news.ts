import { z } from 'zod';
import { normalizeName } from '../../domain/names.js';
import type { Transport } from '../transport/types.js';
import { teamAbbr } from '../teams/lookup.js';
import { ESPN_SITE_BASE, type EspnLeague } from './common.js';
import { fetchJson, type AdapterLog } from '../json.js';

export function newsUrl(league: EspnLeague): string {
  return `${ESPN_SITE_BASE}/${league.path}/news`;
}

/** Spec "News item": athlete and team come only from the item's categories, absent otherwise. */
export const newsItemSchema = z.object({
  id: z.string(),
  headline: z.string(),
  description: z.string().nullable(),
  published: z.string().nullable(),
  type: z.string().nullable(),
  athlete: z.object({ name: z.string(), key: z.string() }).optional(),
  team: z.object({ name: z.string(), abbr: z.string().nullable() }).optional(),
  href: z.string().nullable(),
});
export type NewsItem = z.infer<typeof newsItemSchema>;

const rawCategory = z.looseObject({
  type: z.string().optional(),
  description: z.string().optional(),
  athleteId: z.union([z.number(), z.string()]).optional(),
  teamId: z.union([z.number(), z.string()]).optional(),
  athlete: z.looseObject({ description: z.string().optional() }).optional(),
  team: z.looseObject({ description: z.string().optional() }).optional(),
});

const rawArticle = z.looseObject({
  id: z.union([z.number(), z.string()]),
  headline: z.string(),
  description: z.string().optional(),
  published: z.string().optional(),
  type: z.string().optional(),
  links: z.looseObject({ web: z.looseObject({ href: z.string().optional() }).optional() }).optional(),
  categories: z.array(z.unknown()).optional(),
});

/** Site news has `articles`; the now-API feed has `headlines`. */
const rawNews = z.looseObject({ articles: z.array(z.unknown()).optional(), headlines: z.array(z.unknown()).optional() });

function categoriesOf(raw: unknown[] | undefined): Array<z.infer<typeof rawCategory>> {
  return (raw ?? []).flatMap((c) => {
    const p = rawCategory.safeParse(c);
    return p.success ? [p.data] : [];
  });
}

/** News feed to items; the first athlete / team category of an item names its athlete / team. */
export function parseNews(json: unknown, league: EspnLeague, log?: AdapterLog): NewsItem[] | null {
  const top = rawNews.safeParse(json);
  const list = top.success ? (top.data.articles ?? top.data.headlines) : undefined;
  if (!list) {
    log?.warn('espn news: unknown shape', { league: league.path });
    return null;
  }
  const items: NewsItem[] = [];
  let skipped = 0;
  for (const raw of list) {
    const p = rawArticle.safeParse(raw);
    if (!p.success) {
      skipped++;
      continue;
    }
    const a = p.data;
    const cats = categoriesOf(a.categories);
    const athleteCat = cats.find((c) => c.type === 'athlete' && (c.description ?? c.athlete?.description));
    const teamCat = cats.find((c) => c.type === 'team' && (c.description ?? c.team?.description));
    const item: NewsItem = {
      id: String(a.id),
      headline: a.headline,
      description: a.description ?? null,
      published: a.published ?? null,
      type: a.type ?? null,
      href: a.links?.web?.href ?? null,
    };
    const athleteName = athleteCat?.description ?? athleteCat?.athlete?.description;
    if (athleteName) {
      // normalizeName also turns the now-API's "Varsho, Daulton" into First Last order.
      const n = normalizeName(athleteName);
      item.athlete = { name: n.display, key: n.key };
    }
    const teamName = teamCat?.description ?? teamCat?.team?.description;
    if (teamCat && teamName) {
      // By name, not by teamId: a league's feed also tags other leagues' teams, whose ids collide.
      item.team = { name: teamName, abbr: teamAbbr(league.sport, teamName) };
    }
    items.push(item);
  }
  if (skipped > 0) log?.warn(`espn news: skipped ${skipped} malformed item(s)`, { league: league.path });
  return items;
}

export async function fetchNews(transport: Transport, league: EspnLeague, log?: AdapterLog): Promise<NewsItem[] | null> {
  const json = await fetchJson(transport, 'espn', newsUrl(league), 'espn news', log);
  return json === null ? null : parseNews(json, league, log);
}
