import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveTransport, LIVE_DEFAULTS } from '../../src/feeds/transport/index.js';
import { replayKey } from '../../src/feeds/transport/replay-key.js';
import { classifyFeed, FEED_KINDS } from '../../src/feeds/check/kinds.js';
import { liveProbes, UNKNOWN_KIND, type CheckEntry } from '../../src/feeds/check/probes.js';
import { checkLive, checkReplayFolder, NO_ODDS_KEY, type FeedsCheckReport } from '../../src/jobs/feeds-check.js';
import { startLocalServer, type Handler, type LocalServer } from '../feeds/transport/local-server.js';

const root = (rel: string) => fileURLToPath(new URL(`../../${rel}`, import.meta.url));
const FIXTURES = root('test/fixtures');
const fixture = (rel: string) => readFileSync(join(FIXTURES, rel), 'utf8');

function entry(report: FeedsCheckReport, file: string): CheckEntry {
  const found = report.entries.find((e) => e.file === file);
  if (!found) throw new Error(`no entry for ${file}`);
  return found;
}

describe('feeds check over the real fixture payloads (test/fixtures/manifest.json)', () => {
  let report: FeedsCheckReport;
  beforeAll(async () => {
    report = await checkReplayFolder(FIXTURES);
  });

  it('the generated manifest is up to date with its builder', () => {
    expect(() => execFileSync(process.execPath, [root('scripts/build-feeds-replay.mjs'), '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('every entry is classified, fetched through the replay at its recordedAt, and parsed', () => {
    const manifest = JSON.parse(fixture('manifest.json')) as { entries: Array<{ file: string }> };
    expect(report.entries).toHaveLength(manifest.entries.length);
    expect(report.entries).toHaveLength(75);
    expect(report.entries.filter((e) => e.outcome !== 'parsed')).toEqual([]);
    expect(report.entries.filter((e) => e.kind === UNKNOWN_KIND)).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.providers.map((p) => [p.provider, p.reachable, p.ok, p.unknown])).toEqual([
      ['odds-api', true, true, 0],
      ['espn', true, true, 0],
      ['mlb-statsapi', true, true, 0],
      ['savant', true, true, 0],
    ]);
  });

  it('every catalogued kind is reported with at least one entry', () => {
    const reported = new Set(report.providers.flatMap((p) => p.kinds.map((k) => `${p.provider}:${k.kind}`)));
    for (const k of FEED_KINDS) expect(reported, `${k.provider}:${k.kind}`).toContain(`${k.provider}:${k.kind}`);
    expect(reported.size).toBe(FEED_KINDS.length);
  });

  it('Odds API counts equal what the adapter tests assert', () => {
    expect(entry(report, 'odds-api/sports-list-2025-05.json').records).toBe(80);
    expect(entry(report, 'odds-api/sports-list-2026-03-03.json').records).toBe(84);
    expect(entry(report, 'odds-api/nba-event-odds-player-points-2024-02-22-CLE-ORL.json').records).toBe(482);
    expect(entry(report, 'odds-api/nba-event-odds-player-points-2024-02-22-TOR-BKN.json').records).toBe(572);
    expect(entry(report, 'odds-api/mlb-event-odds-batter-props-2025-08-01.json').records).toBe(361);
    expect(entry(report, 'odds-api/mlb-event-odds-pitcher-props-2025-08-06.json').records).toBe(36);
    expect(entry(report, 'odds-api/soccer-bundesliga-event-odds-player-shots-h2h-2025-11-25.json').records).toBe(253);
    expect(entry(report, 'odds-api/nba-historical-event-odds-player-points-2025-03-09.json').records).toBe(94);
    expect(entry(report, 'odds-api/wnba-historical-event-odds-player-props-2024-06-11T1125Z.json').records).toBe(36 + 16 + 32 + 12 + 16);
    expect(entry(report, 'odds-api/wnba-historical-event-odds-player-props-2024-06-11T2320Z-closing.json').records).toBe(64 + 20 + 56 + 20 + 36);
    expect(entry(report, 'odds-api/mma-odds-h2h-2025-09-13.json').records).toBe(87);
    expect(entry(report, 'odds-api/mma-odds-h2h-2021-11-13.json').records).toBe(23);
    expect(entry(report, 'odds-api/soccer-bundesliga-events-2025-11-25.json').records).toBe(18);
    // Game lines and other sports parse to zero props, each with the adapter's own warning.
    const h2h = entry(report, 'odds-api/nba-historical-event-odds-h2h-2024-01-25.json');
    expect([h2h.records, h2h.warnings]).toEqual([0, ['odds-api event odds cd0bc7d0c238f4446ce1c03d0cea7ec4: skipped 2 markets propgrade does not grade: h2h (2)']]);
    expect(entry(report, 'odds-api/ncaab-odds-h2h-spreads-totals-2026-03-03.json').warnings).toEqual(['odds-api mma odds: dropped 5: not an mma event: basketball_ncaab (5)']);
  });

  it('the captured credit headers travel with the ncaab odds entry', () => {
    expect(entry(report, 'odds-api/ncaab-odds-h2h-spreads-totals-2026-03-03.json').credits).toEqual({ remaining: 497, used: 3, last: null });
    expect(report.providers.find((p) => p.provider === 'odds-api')?.credits).toEqual({ remaining: 497, used: 3, last: null });
  });

  it('two recordings of one URL are both served, each at its own recordedAt', () => {
    const wnba = report.entries.filter((e) => e.url === 'https://site.api.espn.com/apis/site/v2/sports/basketball/wnba/scoreboard?dates=20250603');
    expect(wnba.map((e) => e.file)).toEqual([
      'espn/wnba-scoreboard-2025-06-03-final.json',
      'espn/wnba-scoreboard-2025-06-03-live-halftime.json',
      'espn/wnba-scoreboard-2025-06-03-pregame.json',
    ]);
    expect(wnba.every((e) => e.outcome === 'parsed' && e.records === 3)).toBe(true);
    const lists = report.entries.filter((e) => e.kind === 'sports list').map((e) => [e.recordedAt, e.records]);
    expect(lists).toEqual([
      ['2025-05-16T00:00:00Z', 80],
      ['2026-03-03T00:00:00Z', 84],
    ]);
  });

  it('ESPN, MLB Stats API and Savant counts are the real ones', () => {
    expect(entry(report, 'espn/nba-injuries-2026-05-23.json').records).toBe(104);
    expect(entry(report, 'espn/mma-ufc-scoreboard-2025-09-27.json').records).toBe(14);
    expect(entry(report, 'espn/mma-ufc-scoreboard-range-2025-09.json').records).toBe(97);
    expect(entry(report, 'espn/mma-pfl-scoreboard-2025-10-03.json').records).toBe(12);
    expect(entry(report, 'espn/nba-roster-LAL-2026-05-23.json').records).toBe(17);
    expect(entry(report, 'espn/mlb-roster-NYY-2026-05-25.json').records).toBe(26);
    expect(entry(report, 'espn/nba-summary-401772994-2025-05-31.json').records).toBe(30);
    expect(entry(report, 'espn/soccer-fifaworld-summary-760495-2026-07-01-live.json').records).toBe(52);
    expect(entry(report, 'espn/mlb-scoreboard-2025-06-05.json').records).toBe(13);
    expect(entry(report, 'espn/multi-news-nowapi-2025-06-01.json').records).toBe(5);
    expect(entry(report, 'espn/nfl-athlete-gamelog-3139477-SHAPE-REFERENCE.json').records).toBe(19);
    expect(entry(report, 'mlb-statsapi/mlb-boxscore-716896-2023-08-22.json').records).toBe(30);
    expect(entry(report, 'mlb-statsapi/mlb-schedule-2023-08-22.json').records).toBe(15);
    expect(entry(report, 'mlb-statsapi/mlb-sports-players-2023.json').records).toBe(1421);
    expect(entry(report, 'mlb-statsapi/mlb-team-roster-133-2022.json').records).toBe(37);
    expect(entry(report, 'savant/mlb-pitch-arsenal-stats-2025.csv').records).toBe(826);
    expect(entry(report, 'savant/mlb-pitch-arsenals-avg-speed-2025.csv').records).toBe(344);
    const kinds = Object.fromEntries(report.providers.flatMap((p) => p.kinds.map((k) => [k.kind, k])));
    expect(kinds['injuries']).toMatchObject({ entries: 1, parsed: 1, failed: 0, records: 104, unit: 'injuries' });
    expect(kinds['fight cards']).toMatchObject({ entries: 4, parsed: 4, records: 14 + 5 + 97 + 12, unit: 'bouts' });
  });

  it('the per-game MLB stats split has no date, so the adapter dates nothing and says so', () => {
    const log = entry(report, 'mlb-statsapi/mlb-people-stats-game-gamelog-2022.json');
    expect([log.kind, log.records, log.warnings]).toEqual(['game log', 0, ['mlb game log: 1 split(s) without a date skipped']]);
  });
});

describe('feeds check over the bundled NBA replay (data/replay)', () => {
  it('parses every entry', async () => {
    const report = await checkReplayFolder(root('data/replay'));
    // 75 NBA / context / stats entries + the WNBA day's 19 (issue 26) + the MLB day of 2025-08-16 (7 events lists, 81 event odds, a schedule, 15 box scores).
    // + the EPL matchday of 2025-08-30 (issue 42): 3 events lists, 14 event odds, a scoreboard, 6 summaries.
    expect(report.entries).toHaveLength(75 + 19 + 104 + 24);
    expect(report.entries.every((e) => e.outcome === 'parsed' && (e.records ?? 0) > 0)).toBe(true);
    expect(report.ok).toBe(true);
    const odds = report.providers.find((p) => p.provider === 'odds-api')!;
    expect(odds.kinds.map((k) => [k.kind, k.entries])).toEqual([
      ['event odds (player props)', 34 + 8 + 81 + 14],
      ['events', 4 + 6 + 7 + 3],
      ['featured odds (mma h2h/totals)', 1],
      ['outrights (futures)', 1],
    ]);
    // The stats recordings (issue 17): 2 seasons x 2 Savant exports, an MLB schedule and live feed.
    expect(report.providers.find((p) => p.provider === 'savant')?.kinds.map((k) => [k.kind, k.entries])).toEqual([
      ['pitch arsenal stats', 2],
      ['pitch velocity (avg speed)', 2],
    ]);
    expect(report.providers.find((p) => p.provider === 'mlb-statsapi')?.parsed).toBe(2 + 16);
  });
});

describe('feeds check on a broken replay folder', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'propgrade-feeds-check-'));
    const html = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';
    writeFileSync(join(dir, 'html.json'), html);
    writeFileSync(join(dir, 'empty.json'), '');
    // A real error page spans lines; a one-line page reads as a header with no rows (see the report).
    writeFileSync(join(dir, 'html.csv'), html.replace(/></g, '>\n<'));
    writeFileSync(join(dir, 'scores.json'), fixture('odds-api/nba-scores-2024-02-22.json'));
    writeFileSync(join(dir, 'sports.json'), fixture('odds-api/sports-list-2026-03-03.json'));
    const e = (provider: 'odds-api' | 'espn' | 'savant', url: string, file: string, extra: Record<string, unknown> = {}) => ({
      key: replayKey({ provider, url }),
      file,
      status: 200,
      headers: {},
      ...extra,
    });
    const manifest = {
      version: 1,
      entries: [
        e('espn', 'https://site.api.espn.com/apis/site/v2/sports/basketball/nba/scoreboard?dates=20251105', 'html.json'),
        e('odds-api', 'https://api.the-odds-api.com/v4/sports/basketball_nba/events/abc/odds', 'empty.json'),
        e('savant', 'https://baseballsavant.mlb.com/leaderboard/pitch-arsenal-stats?csv=true', 'html.csv'),
        e('odds-api', 'https://api.the-odds-api.com/v4/sports/basketball_nba/scores', 'scores.json'),
        e('espn', 'https://site.api.espn.com/apis/site/v2/sports/basketball/nba/injuries', 'gone.json'),
        e('odds-api', 'https://api.the-odds-api.com/v4/sports', 'sports.json', { recordedAt: '2026-03-03T00:00:00Z' }),
        e('odds-api', 'https://api.the-odds-api.com/v4/sports', 'html.json', { recordedAt: '2026-03-03T00:00:00Z' }),
        { key: 'not a key', file: 'sports.json', status: 200, headers: {} },
      ],
    };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports failures and warnings instead of throwing', async () => {
    const report = await checkReplayFolder(dir);
    expect(report.ok).toBe(false);
    const byFile = (f: string) => report.entries.filter((x) => x.file === f);
    const html = byFile('html.json')[0]!;
    expect([html.kind, html.outcome, html.records]).toEqual(['scoreboard', 'failed', null]);
    expect(html.warnings).toEqual(['espn scoreboard: body is not JSON']);
    const empty = byFile('empty.json')[0]!;
    expect([empty.outcome, empty.warnings]).toEqual(['failed', ['odds-api event odds: empty response body']]);
    const csv = byFile('html.csv')[0]!;
    expect([csv.kind, csv.outcome]).toEqual(['pitch arsenal stats', 'failed']);
    expect(csv.warnings).toEqual(['savant arsenal stats: unknown columns']);
  });

  it('an uncatalogued URL is an unknown kind, not skipped', async () => {
    const report = await checkReplayFolder(dir);
    const scores = report.entries.find((x) => x.file === 'scores.json')!;
    expect([scores.kind, scores.outcome, scores.reason]).toEqual([UNKNOWN_KIND, 'unknown-kind', 'no catalogued kind answers this URL']);
    expect(report.providers.find((p) => p.provider === 'odds-api')?.unknown).toBe(1);
  });

  it('a missing file, a shadowed recording and an unreadable key are reported', async () => {
    const report = await checkReplayFolder(dir);
    const gone = report.entries.find((x) => x.file === 'gone.json')!;
    expect([gone.outcome, gone.reason]).toEqual(['unreachable', 'replay file missing: gone.json (for espn GET https://site.api.espn.com/apis/site/v2/sports/basketball/nba/injuries)']);
    expect(report.providers.find((p) => p.provider === 'espn')?.reachable).toBe(false);
    const lists = report.entries.filter((x) => x.kind === 'sports list');
    expect(lists.map((x) => [x.file, x.outcome])).toEqual([
      ['sports.json', 'unreachable'],
      ['html.json', 'failed'],
    ]);
    expect(lists[0]!.reason).toBe('never served: the replay answers this request at 2026-03-03T00:00:00Z with html.json');
    expect(report.warnings).toEqual(['entry for sports.json: key is not "<provider> GET <url>": not a key']);
  });
});

describe('classification', () => {
  it('is by provider and path, so a loopback origin classifies like the real host', () => {
    expect(classifyFeed('espn', 'http://127.0.0.1:9/apis/site/v2/sports/mma/ufc/scoreboard?dates=20250927')?.kind).toBe('fight cards');
    expect(classifyFeed('espn', 'https://site.api.espn.com/apis/site/v2/sports/soccer/esp.1/scoreboard')?.kind).toBe('scoreboard');
    expect(classifyFeed('espn', 'https://site.api.espn.com/apis/site/v2/sports/football/nfl/scoreboard')).toBeNull();
    expect(classifyFeed('mlb-statsapi', 'https://statsapi.mlb.com/api/v1/people/1/stats?stats=gameLog&group=hitting&season=2025')?.kind).toBe('game log');
    expect(classifyFeed('odds-api', 'https://api.the-odds-api.com/v4/sports/basketball_nba/scores')).toBeNull();
    expect(classifyFeed('savant', 'not a url')).toBeNull();
  });
});

describe('feeds check live, against a loopback server', () => {
  const DATE = '2025-09-27';
  let server: LocalServer;
  let dead: LocalServer;
  const creditHeaders = JSON.parse(fixture('odds-api/response-headers-ncaab-odds-2026-03-03-original.json')) as Record<string, string>;

  /** Real payloads by the probe's path; ESPN by league. */
  function bodyFor(pathname: string): { file: string; type: string } {
    if (pathname === '/v4/sports') return { file: 'odds-api/sports-list-2026-03-03.json', type: 'application/json' };
    if (pathname.startsWith('/v4/sports/')) return { file: 'odds-api/soccer-bundesliga-events-2025-11-25.json', type: 'application/json' };
    const espn: Record<string, string> = {
      'basketball/nba': 'espn/nba-scoreboard-2025-10-02.json',
      'basketball/wnba': 'espn/wnba-scoreboard-2025-06-03-final.json',
      'baseball/mlb': 'espn/mlb-scoreboard-2025-09-27.json',
      'soccer/eng.1': 'espn/soccer-eng1-scoreboard-2025-09-27.json',
      'mma/ufc': 'espn/mma-ufc-scoreboard-2025-09-27.json',
    };
    const league = /^\/apis\/site\/v2\/sports\/([^/]+\/[^/]+)\/scoreboard$/.exec(pathname)?.[1];
    if (league && espn[league]) return { file: espn[league], type: 'application/json' };
    if (pathname === '/api/v1/schedule') return { file: 'mlb-statsapi/mlb-schedule-2023-08-22.json', type: 'application/json' };
    if (pathname === '/leaderboard/pitch-arsenal-stats') return { file: 'savant/mlb-pitch-arsenal-stats-2025.csv', type: 'text/csv' };
    if (pathname === '/leaderboard/pitch-arsenals') return { file: 'savant/mlb-pitch-arsenals-avg-speed-2025.csv', type: 'text/csv' };
    throw new Error(`no fixture for ${pathname}`);
  }

  beforeAll(async () => {
    const paths = liveProbes(DATE, { withOddsApi: true }).map((p) => new URL(p.url).pathname);
    const routes: Record<string, Handler> = {};
    for (const path of paths) {
      const { file, type } = bodyFor(path);
      routes[path] = (_req, res) => res.writeHead(200, { 'content-type': type, ...(path.startsWith('/v4/') ? creditHeaders : {}) }).end(fixture(file));
    }
    server = await startLocalServer(routes);
    dead = await startLocalServer({});
    await dead.close(); // nothing listens on this port any more
  });
  afterAll(() => server.close());

  const transport = () => createLiveTransport({ ...LIVE_DEFAULTS, retries: 0, timeoutMs: 3_000 });
  const everywhere = () => ({ 'odds-api': server.base, espn: server.base, 'mlb-statsapi': server.base, savant: server.base });

  it('with a key: every provider reachable and parsed; the key goes on the wire only', async () => {
    const t = transport();
    const report = await checkLive(t, { date: DATE, now: new Date('2025-09-27T16:00:00Z'), oddsApiKey: 'secret-key-123', bases: everywhere() });
    await t.close();
    expect(report.ok).toBe(true);
    expect(report.providers.map((p) => [p.provider, p.reachable, p.entries, p.parsed])).toEqual([
      ['odds-api', true, 12, 12],
      ['espn', true, 5, 5],
      ['mlb-statsapi', true, 1, 1],
      ['savant', true, 2, 2],
    ]);
    expect(report.entries.find((e) => e.kind === 'sports list')?.records).toBe(84);
    expect(report.entries.find((e) => e.kind === 'fight cards')?.records).toBe(14);
    expect(report.entries.find((e) => e.kind === 'pitch arsenal stats')?.records).toBe(826);
    expect(report.providers[0]!.credits).toEqual({ remaining: 497, used: 3, last: null });
    expect(server.seen.filter((u) => u.startsWith('/v4/')).every((u) => u.includes('apiKey=secret-key-123'))).toBe(true);
    expect(JSON.stringify(report)).not.toContain('secret-key-123');
    expect(server.seen).toContain('/apis/site/v2/sports/baseball/mlb/scoreboard?dates=20250927');
    expect(server.seen).toContain('/api/v1/schedule?sportId=1&date=2025-09-27&hydrate=probablePitcher,lineups');
  });

  it('without a key the Odds API is skipped and said so; an unreachable provider fails the check', async () => {
    const t = transport();
    const report = await checkLive(t, { now: new Date('2025-09-27T16:00:00Z'), bases: { ...everywhere(), savant: dead.base } });
    await t.close();
    expect(report.date).toBe('2025-09-27');
    const byProvider = Object.fromEntries(report.providers.map((p) => [p.provider, p]));
    expect(byProvider['odds-api']).toMatchObject({ skipped: NO_ODDS_KEY, entries: 0, ok: true });
    expect(byProvider['espn']).toMatchObject({ reachable: true, ok: true });
    expect(byProvider['savant']).toMatchObject({ reachable: false, ok: false, failed: 2 });
    expect(report.entries.filter((e) => e.provider === 'savant').every((e) => e.outcome === 'unreachable' && e.reason !== null)).toBe(true);
    expect(report.ok).toBe(false);
  });

  it('an HTML error page from a reachable host is a parse failure with a warning', async () => {
    const html = await startLocalServer({
      '/api/v1/schedule': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Service Unavailable</body></html>'),
    });
    const t = transport();
    const report = await checkLive(t, { date: DATE, now: new Date(), bases: { ...everywhere(), 'mlb-statsapi': html.base } });
    await t.close();
    await html.close();
    const schedule = report.entries.find((e) => e.kind === 'schedule')!;
    expect([schedule.outcome, schedule.status, schedule.warnings]).toEqual(['failed', 200, ['mlb schedule: body is not JSON']]);
    expect(report.providers.find((p) => p.provider === 'mlb-statsapi')).toMatchObject({ reachable: true, ok: false });
    expect(report.ok).toBe(false);
  });
});
