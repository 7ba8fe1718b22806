import { describe, expect, it } from 'vitest';
import { espnLeague } from '../../../src/feeds/espn/common.js';
import { fetchScoreboard, parseScoreboard, scoreboardGameSchema, scoreboardUrl } from '../../../src/feeds/espn/scoreboard.js';
import { collectingLog, fixtureTransport, readFixtureJson } from './fixture-transport.js';

const mlb = espnLeague('mlb');
const load = (file: string) => readFixtureJson('espn', file);

describe('ESPN scoreboard URL', () => {
  it('uses exactly the dates= query with the slate date', () => {
    expect(scoreboardUrl(mlb, '2025-06-05')).toBe('https://site.api.espn.com/apis/site/v2/sports/baseball/mlb/scoreboard?dates=20250605');
    expect(scoreboardUrl(espnLeague('soccer', 'eng.1'), '2025-05-25')).toBe(
      'https://site.api.espn.com/apis/site/v2/sports/soccer/eng.1/scoreboard?dates=20250525',
    );
    expect(espnLeague('wnba').path).toBe('basketball/wnba');
    expect(espnLeague('mma', 'pfl').path).toBe('mma/pfl');
  });
});

describe('ESPN scoreboard parsing (real payloads)', () => {
  const files: Array<[string, ReturnType<typeof espnLeague>, number]> = [
    ['mlb-scoreboard-2025-05-17.json', mlb, 15],
    ['mlb-scoreboard-2025-06-04.json', mlb, 15],
    ['mlb-scoreboard-2025-06-05.json', mlb, 13],
    ['mlb-scoreboard-2025-06-06.json', mlb, 15],
    ['mlb-scoreboard-2025-09-27.json', mlb, 15],
    ['mlb-scoreboard-2025-09-28.json', mlb, 15],
    ['nba-scoreboard-2024-12-01.json', espnLeague('nba'), 10],
    ['nba-scoreboard-2024-12-15.json', espnLeague('nba'), 7],
    ['nba-scoreboard-2025-10-02.json', espnLeague('nba'), 2],
    ['wnba-scoreboard-2025-06-03-pregame.json', espnLeague('wnba'), 3],
    ['wnba-scoreboard-2025-06-03-live-halftime.json', espnLeague('wnba'), 3],
    ['wnba-scoreboard-2025-06-03-final.json', espnLeague('wnba'), 3],
    ['soccer-eng1-scoreboard-2025-05-25.json', espnLeague('soccer', 'eng.1'), 10],
    ['soccer-eng1-scoreboard-2025-09-27.json', espnLeague('soccer', 'eng.1'), 7],
  ];
  it.each(files)('%s parses every event into a valid record', (file, league, count) => {
    const log = collectingLog();
    const games = parseScoreboard(load(file), league, log);
    expect(games).toHaveLength(count);
    for (const g of games ?? []) expect(scoreboardGameSchema.safeParse(g).success).toBe(true);
    expect(log.warnings).toEqual([]);
  });

  it('reads a probable pitcher ERA string as a number (Grant Holmes "3.78")', () => {
    const games = parseScoreboard(load('mlb-scoreboard-2025-06-05.json'), mlb)!;
    const g = games.find((x) => x.event.id === '401695832')!;
    expect(g.event).toMatchObject({ homeTeam: 'Atlanta Braves', awayTeam: 'Arizona Diamondbacks', homeAbbr: 'ATL', awayAbbr: 'ARI', commenceTime: '2025-06-05T16:15:00Z' });
    expect(g.homeProbable).toMatchObject({ name: 'Grant Holmes', espnId: '33840', era: 3.78, eraText: '3.78', record: '(3-4, 3.78)' });
    expect(g.awayProbable).toMatchObject({ name: 'Brandon Pfaadt', era: 5.05 });
    // Not started: ESPN prints "0" scores, which are not real scores.
    expect(g.status).toBe('scheduled');
    expect(g.homeScore).toBeNull();
    expect(g.awayScore).toBeNull();
  });

  it('keeps a real 0.00 ERA and leaves ERA null when ESPN sent no statistics', () => {
    const pom = parseScoreboard(load('mlb-scoreboard-2025-06-05.json'), mlb)!
      .flatMap((g) => [g.homeProbable, g.awayProbable])
      .find((p) => p?.name === 'Drew Pomeranz');
    expect(pom).toMatchObject({ era: 0, eraText: '0.00' });
    const g = parseScoreboard(load('mlb-scoreboard-2025-06-04.json'), mlb)!.find((x) => x.event.id === '401695826')!;
    const gipson = [g.homeProbable, g.awayProbable].find((p) => p?.name === 'Sawyer Gipson-Long');
    expect(gipson).toMatchObject({ era: null, eraText: null, record: null });
  });

  it('leaves a side without a probable pitcher null', () => {
    const g = parseScoreboard(load('mlb-scoreboard-2025-09-28.json'), mlb)!.find((x) => x.event.id === '401697325')!;
    expect(g.homeProbable).toBeNull();
    expect(g.awayProbable).not.toBeNull();
  });

  it('maps status names: postponed, suspended, rain delay, final with scores', () => {
    const june4 = parseScoreboard(load('mlb-scoreboard-2025-06-04.json'), mlb)!;
    const ppd = june4.find((x) => x.event.id === '401695827')!;
    expect(ppd).toMatchObject({ status: 'postponed', statusName: 'STATUS_POSTPONED', completed: false, homeScore: null, awayScore: null });
    expect(june4.filter((g) => g.status === 'final')).toHaveLength(8);
    expect(june4.filter((g) => g.status === 'in_progress')).toHaveLength(6);
    const june6 = parseScoreboard(load('mlb-scoreboard-2025-06-06.json'), mlb)!;
    expect(june6.filter((g) => g.status === 'suspended')).toHaveLength(1);
    const sept27 = parseScoreboard(load('mlb-scoreboard-2025-09-27.json'), mlb)!;
    expect(sept27.find((g) => g.statusName === 'STATUS_RAIN_DELAY')?.status).toBe('in_progress');
  });

  it('follows the WNBA live progression: scheduled -> halftime -> final', () => {
    const wnba = espnLeague('wnba');
    const dalSea = (file: string) => parseScoreboard(load(file), wnba)!.find((g) => g.event.homeAbbr === 'SEA' && g.event.awayAbbr === 'DAL')!;
    expect(dalSea('wnba-scoreboard-2025-06-03-pregame.json').status).toBe('scheduled');
    const half = dalSea('wnba-scoreboard-2025-06-03-live-halftime.json');
    expect(half).toMatchObject({ status: 'in_progress', statusName: 'STATUS_HALFTIME', completed: false });
    expect(half.homeScore).not.toBeNull();
    const fin = dalSea('wnba-scoreboard-2025-06-03-final.json');
    expect(fin).toMatchObject({ status: 'final', completed: true });
    // The "+00:00" form the upstream repo re-serialised to is normalised like ESPN's "Z" form.
    expect(fin.event.commenceTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('treats soccer STATUS_FULL_TIME (completed) as final', () => {
    const games = parseScoreboard(load('soccer-eng1-scoreboard-2025-05-25.json'), espnLeague('soccer', 'eng.1'))!;
    expect(games.every((g) => g.status === 'final' && g.statusName === 'STATUS_FULL_TIME')).toBe(true);
    expect(games.every((g) => g.event.sport === 'soccer' && g.league === 'eng.1')).toBe(true);
  });

  it('drops an event without a date, with a warning', () => {
    const raw = load('nba-scoreboard-2025-10-02.json') as { events: Array<Record<string, unknown>> };
    const first = structuredClone(raw.events[0]!) as { date?: string; competitions: Array<{ date?: string }> };
    delete first.date;
    delete first.competitions[0]!.date;
    const log = collectingLog();
    const games = parseScoreboard({ ...raw, events: [first, raw.events[1]] }, espnLeague('nba'), log);
    expect(games).toHaveLength(1);
    expect(log.warnings[0]?.msg).toMatch(/dropped 1 event/);
  });

  it('returns null with a warning for an unknown shape, and [] for no events', () => {
    for (const junk of [null, 42, 'x', { foo: 1 }, { events: 'nope' }]) {
      const log = collectingLog();
      expect(parseScoreboard(junk, mlb, log)).toBeNull();
      expect(log.warnings).toHaveLength(1);
    }
    expect(parseScoreboard({ events: [] }, mlb)).toEqual([]);
  });
});

describe('ESPN scoreboard fetch through a Transport', () => {
  it('requests the scoreboard URL as JSON and parses the served payload', async () => {
    const url = scoreboardUrl(mlb, '2025-06-05');
    const { transport, requests } = fixtureTransport({ [url]: { provider: 'espn', file: 'mlb-scoreboard-2025-06-05.json' } });
    const games = await fetchScoreboard(transport, mlb, '2025-06-05');
    expect(games).toHaveLength(13);
    expect(requests).toEqual([{ provider: 'espn', url, accept: 'json' }]);
  });

  it('turns unavailable data, an HTML error page and an empty body into null plus a warning', async () => {
    const url = scoreboardUrl(mlb, '2025-06-05');
    for (const routes of [{}, { [url]: { body: '<html><body>502 Bad Gateway</body></html>' } }, { [url]: { body: '' } }, { [url]: { body: '{"events": [' } }]) {
      const log = collectingLog();
      const { transport } = fixtureTransport(routes);
      await expect(fetchScoreboard(transport, mlb, '2025-06-05', log)).resolves.toBeNull();
      expect(log.warnings).toHaveLength(1);
    }
  });
});
