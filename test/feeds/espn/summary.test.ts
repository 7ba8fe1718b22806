import { describe, expect, it } from 'vitest';
import { playerGameStatSchema } from '../../../src/domain/entities.js';
import { espnLeague } from '../../../src/feeds/espn/common.js';
import { fetchSummary, gameSummarySchema, parseSummary, summaryUrl } from '../../../src/feeds/espn/summary.js';
import { collectingLog, fixtureTransport, readFixtureJson } from './fixture-transport.js';

const nba = espnLeague('nba');
const load = (file: string) => readFixtureJson('espn', file);

describe('ESPN NBA summary (401772994, IND v NY, final)', () => {
  const summary = parseSummary(load('nba-summary-401772994-2025-05-31.json'), nba)!;

  it('reads the game status and teams', () => {
    expect(gameSummarySchema.safeParse(summary).success).toBe(true);
    expect(summary).toMatchObject({ eventId: '401772994', status: 'final', completed: true, homeAbbr: 'IND', awayAbbr: 'NY', commenceTime: '2025-06-01T00:00:00Z' });
  });

  it("reads Karl-Anthony Towns's box-score line", () => {
    const kat = summary.lines.find((l) => l.playerName === 'Karl-Anthony Towns')!;
    expect(playerGameStatSchema.safeParse(kat).success).toBe(true);
    expect(kat).toMatchObject({
      sport: 'nba',
      team: 'NY',
      opponent: 'IND',
      // 00:00Z tip on 2025-06-01 is the evening of 2025-05-31 in US Eastern time.
      date: '2025-05-31',
      gameId: '401772994',
      minutes: 38,
      source: 'espn:summary',
    });
    expect(kat.stats).toEqual({ points: 22, rebounds: 14, assists: 2, threes: 0, pra: 38, blocks: 0, steals: 1 });
    expect(kat.extras).toEqual({ fga: 19, fta: 10, threes_attempted: 4, turnovers: 2 });
  });

  it('keeps a DNP player as minutes 0 with no stats (the payload sends none)', () => {
    const tucker = summary.lines.find((l) => l.playerName === 'PJ Tucker')!;
    expect(tucker).toMatchObject({ minutes: 0, stats: {}, extras: {} });
    expect(summary.lines).toHaveLength(30);
  });
});

describe('ESPN NBA summary before tip-off (401812480)', () => {
  it('has a scheduled status, no player lines, and the injury list with chips', () => {
    const s = parseSummary(load('nba-summary-401812480-2025-10-02-pregame.json'), nba)!;
    expect(s.status).toBe('scheduled');
    expect(s.lines).toEqual([]);
    const embiid = s.injuries.find((i) => i.playerName === 'Joel Embiid')!;
    expect(embiid).toMatchObject({ status: 'Day-To-Day', chip: 'GTD', team: 'PHI', athleteId: '3059318' });
    expect(s.injuries.find((i) => i.playerName === 'Jared McCain')?.chip).toBe('OUT');
  });
});

describe('ESPN soccer summaries', () => {
  it('reads shots and shots on target from the live World Cup summary; minutes stay null', () => {
    const s = parseSummary(load('soccer-fifaworld-summary-760495-2026-07-01-live.json'), espnLeague('soccer', 'fifa.world'))!;
    expect(s).toMatchObject({ status: 'in_progress', completed: false, homeAbbr: 'ENG', awayAbbr: 'COD' });
    expect(s.lines).toHaveLength(52);
    const bellingham = s.lines.find((l) => l.playerName === 'Jude Bellingham')!;
    expect(bellingham).toMatchObject({ sport: 'soccer', team: 'ENG', opponent: 'COD', minutes: null, date: '2026-07-01' });
    expect(bellingham.stats).toEqual({ shots: 2, shots_on_target: 2, goals: 0, assists: 0, tackles: null });
    const madueke = s.lines.find((l) => l.playerName === 'Noni Madueke')!;
    expect(madueke.stats).toEqual({ shots: 2, shots_on_target: 0, goals: 0, assists: 0, tackles: null });
    // ESPN's summaries carry no tackles and no minutes: both stay unknown (null), never 0.
    // An unused substitute at 45' has appearances 0 (kept as a real input, not as minutes).
    expect(s.lines.find((l) => l.playerName === 'Bukayo Saka')?.extras['appearances']).toBe(0);
  });

  it('has no lines for a pre-match summary (empty rosters)', () => {
    const s = parseSummary(load('soccer-eng1-summary-740643-2025-09-21-pregame.json'), espnLeague('soccer', 'eng.1'))!;
    expect(s.status).toBe('scheduled');
    expect(s.lines).toEqual([]);
  });

  it('reads the MLB summary status and injuries but leaves box lines to the MLB Stats API', () => {
    const s = parseSummary(load('mlb-summary-401472463-2023-07-19.json'), espnLeague('mlb'))!;
    expect(s).toMatchObject({ status: 'final', completed: true });
    expect(s.lines).toEqual([]);
    const gonzales = s.injuries.find((i) => i.playerName === 'Nick Gonzales')!;
    expect(gonzales).toMatchObject({ status: '10-Day-IL', chip: 'OUT', team: 'PIT' });
  });
});

describe('ESPN summary faults', () => {
  it('returns null with a warning for unknown shapes', () => {
    for (const junk of [null, [], { boxscore: {} }, { header: 'x' }]) {
      const log = collectingLog();
      expect(parseSummary(junk, nba, log)).toBeNull();
      expect(log.warnings.length).toBeGreaterThan(0);
    }
  });

  it('fetches through the transport', async () => {
    const url = summaryUrl(nba, '401772994');
    expect(url).toBe('https://site.api.espn.com/apis/site/v2/sports/basketball/nba/summary?event=401772994');
    const { transport } = fixtureTransport({ [url]: { provider: 'espn', file: 'nba-summary-401772994-2025-05-31.json' } });
    expect((await fetchSummary(transport, nba, '401772994'))?.lines).toHaveLength(30);
  });
});
