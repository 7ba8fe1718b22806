import { describe, expect, it } from 'vitest';
import { espnLeague } from '../../../src/feeds/espn/common.js';
import { fetchNews, newsItemSchema, newsUrl, parseNews } from '../../../src/feeds/espn/news.js';
import { collectingLog, fixtureTransport, readFixtureJson } from './fixture-transport.js';

const load = (file: string) => readFixtureJson('espn', file);

describe('ESPN news (real payloads)', () => {
  it.each([
    ['mlb-news-2025-05-20.json', 'mlb', 5],
    ['nba-news-2026-05-23.json', 'nba', 5],
    ['wnba-news-2025-06-04.json', 'wnba', 3],
    ['soccer-eng1-news-2025-06-01.json', 'soccer', 6],
    ['multi-news-nowapi-2025-06-01.json', 'mlb', 5],
  ] as const)('%s parses every item', (file, sport, count) => {
    const items = parseNews(load(file), espnLeague(sport))!;
    expect(items).toHaveLength(count);
    for (const item of items) expect(newsItemSchema.safeParse(item).success).toBe(true);
  });

  it('takes athlete and team from the categories', () => {
    const item = parseNews(load('mlb-news-2025-05-20.json'), espnLeague('mlb'))!.find((i) => i.id === '45232220')!;
    expect(item).toMatchObject({
      headline: 'Brewers C Contreras fights through fractured finger at plate',
      published: '2025-05-20T04:30:00Z',
      type: 'HeadlineNews',
      athlete: { name: 'William Contreras', key: 'william contreras' },
      team: { name: 'Milwaukee Brewers', abbr: 'MIL' },
      href: 'https://www.espn.com/mlb/story/_/id/45232220/brewers-c-contreras-fights-fractured-finger-plate',
    });
  });

  it('has no athlete when no category names one, even if the headline does', () => {
    const item = parseNews(load('nba-news-2026-05-23.json'), espnLeague('nba'))!.find((i) => i.id === '48848352')!;
    expect(item.headline).toContain('Donovan Mitchell');
    expect(item).not.toHaveProperty('athlete');
    expect(item.team).toEqual({ name: 'Cleveland Cavaliers', abbr: 'CLE' });
  });

  it('has neither athlete nor team for an item with only league/topic categories', () => {
    const item = parseNews(load('soccer-eng1-news-2025-06-01.json'), espnLeague('soccer', 'eng.1'))!.find((i) => i.id === '45342881')!;
    expect(item).not.toHaveProperty('athlete');
    expect(item).not.toHaveProperty('team');
  });

  it('reads the now-API "Last, First" athlete as First Last', () => {
    const item = parseNews(load('multi-news-nowapi-2025-06-01.json'), espnLeague('mlb'))!.find((i) => i.id === '45421330')!;
    expect(item.athlete).toEqual({ name: 'Daulton Varsho', key: 'daulton varsho' });
    expect(item.team).toEqual({ name: 'Toronto Blue Jays', abbr: 'TOR' });
  });

  it('fetches through the transport; unknown shapes are null with a warning', async () => {
    const league = espnLeague('wnba');
    const url = newsUrl(league);
    const { transport } = fixtureTransport({ [url]: { provider: 'espn', file: 'wnba-news-2025-06-04.json' } });
    const items = await fetchNews(transport, league);
    expect(items?.[0]).toMatchObject({ id: '45452447', athlete: { name: 'Li Yueru' }, team: { name: 'Seattle Storm', abbr: 'SEA' } });
    const log = collectingLog();
    expect(parseNews({ articles: 3 }, league, log)).toBeNull();
    expect(log.warnings).toHaveLength(1);
  });
});
