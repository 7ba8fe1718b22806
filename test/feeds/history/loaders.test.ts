import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nbaGameDateFromUtc } from '../../../src/feeds/history/et-date.js';
import { loadNbaGameLogsCsv, parseNbaGameLogsCsv, teamOf } from '../../../src/feeds/history/nba-gamelogs.js';
import { loadNbaThreesResultsCsv } from '../../../src/feeds/history/nba-threes-results.js';
import { loadHistoricalPropsCsv } from '../../../src/feeds/history/props.js';

const fx = (name: string) => readFileSync(`test/fixtures/history/${name}`, 'utf8');

describe('parseNbaGameLogsCsv (real NBA.com game-log excerpt)', () => {
  const rows = parseNbaGameLogsCsv(fx('gamelogs-nop-excerpt.csv'));

  it('reads every row into PlayerGameStat with canonical stats and PRA', () => {
    expect(rows).toHaveLength(108);
    // Source line: 2025-26,Herbert Jones,1630529,2025-11-04,NOP vs. CHA,W,36.0,4,9,0.444,3,5,0.6,0,0,0.0,2,3,5,1,1,0,2,3,11,1,CHA,HOME,Herbert Jones
    const g = rows.find((r) => r.playerName === 'Herbert Jones' && r.date === '2025-11-04');
    expect(g).toEqual({
      sport: 'nba',
      playerKey: 'herbert jones',
      playerName: 'Herbert Jones',
      // Stored as ESPN codes, the store-wide convention (NBA.com NOP -> ESPN NO).
      team: 'NO',
      opponent: 'CHA',
      date: '2025-11-04',
      gameId: null,
      minutes: 36,
      stats: { points: 11, rebounds: 5, assists: 1, threes: 3, pra: 17, blocks: 0, steals: 1 },
      extras: { fgm: 4, fga: 9, ftm: 0, fta: 0, threes_attempted: 5, oreb: 2, dreb: 3, tov: 2, pf: 3, plus_minus: 1, nba_player_id: 1630529 },
      source: 'nba_api PlayerGameLog',
    });
  });

  it('the Odds API spelling "Herb Jones" keys to the same player', async () => {
    const { normalizeName } = await import('../../../src/domain/names.js');
    expect(normalizeName('Herb Jones').key).toBe(rows.find((r) => r.playerName === 'Herbert Jones')?.playerKey);
  });

  it('an unknown header yields no rows and a warning, never a throw', () => {
    expect(loadNbaGameLogsCsv('a,b\n1,2\n')).toEqual({ rows: [], warnings: [expect.stringContaining('unknown header')] });
    expect(teamOf('BOS @ NYK')).toBe('BOS');
    expect(teamOf('garbage')).toBeNull();
  });
});

describe('loadNbaThreesResultsCsv (real excerpt)', () => {
  it('keeps agreeing rows, drops the disagreeing duplicate key, reads quoted names', () => {
    const { rows, warnings } = loadNbaThreesResultsCsv(fx('threes-results-excerpt.csv'));
    expect(rows.map((r) => [r.playerName, r.date, r.stats.threes, r.minutes])).toEqual([
      ['Jose Alvarado', '2024-10-23', 1, 12.8],
      ['Jose Alvarado', '2024-10-25', 0, 13.19],
      ['Kevin Cross, Jr.', '2024-12-27', 0, 3.4833333333333334],
    ]);
    expect(warnings).toEqual(['threes results: AJ Johnson 2025-01-23 has disagreeing duplicates; both dropped']);
  });
});

describe('loadHistoricalPropsCsv', () => {
  it('reads the all-markets layout with event id, ET date and snapshot time', () => {
    const { rows, warnings } = loadHistoricalPropsCsv(fx('all-markets-nop-excerpt.csv'));
    expect(warnings).toEqual([]);
    expect(rows).toHaveLength(35);
    // 20251104_170000,d0cf832f...,Herb Jones,player_rebounds,3.5,betrivers,Charlotte Hornets @ New Orleans Pelicans,2025-11-05T01:10:00Z,-127.0,-105.0
    expect(rows.find((r) => r.book === 'betrivers' && r.date === '2025-11-04')).toEqual({
      date: '2025-11-04',
      commenceTime: '2025-11-05T01:10:00Z',
      eventId: 'd0cf832f822b3a6b77e7889ab1a8110b',
      game: 'Charlotte Hornets @ New Orleans Pelicans',
      snapshotAt: '2025-11-04T17:00:00Z',
      player: 'Herb Jones',
      stat: 'rebounds',
      line: 3.5,
      book: 'betrivers',
      overOdds: -127,
      underOdds: -105,
    });
  });

  it('reads the threes layout; a missing price stays null', () => {
    const { rows } = loadHistoricalPropsCsv(fx('threes-props-excerpt.csv'));
    expect(rows).toHaveLength(6);
    expect(rows[0]).toMatchObject({ date: '2024-10-23', eventId: null, snapshotAt: '2024-10-23T15:00:00Z', stat: 'threes', line: 1.5, book: 'draftkings', overOdds: 135, underOdds: -175 });
    expect(rows[5]).toMatchObject({ player: 'Bradley Beal', book: 'bovada', overOdds: null, underOdds: 125 });
  });

  it('an unknown layout is empty with a warning', () => {
    expect(loadHistoricalPropsCsv('x,y\n1,2\n').rows).toEqual([]);
  });

  it('ET date: UTC minus 6 h, so a 04:xx UTC tip stays on the previous US day', () => {
    expect(nbaGameDateFromUtc('2025-11-05T01:10:00Z')).toBe('2025-11-04');
    expect(nbaGameDateFromUtc('2025-11-05T04:30:00Z')).toBe('2025-11-04');
    expect(nbaGameDateFromUtc('2025-11-04T17:00:00Z')).toBe('2025-11-04');
    expect(nbaGameDateFromUtc('not a date')).toBeNull();
  });
});
