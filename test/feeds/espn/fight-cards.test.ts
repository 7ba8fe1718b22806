import { describe, expect, it } from 'vitest';
import { espnLeague } from '../../../src/feeds/espn/common.js';
import { fetchFightCards, fightCardSchema, parseFightCards } from '../../../src/feeds/espn/fight-cards.js';
import { scoreboardUrl } from '../../../src/feeds/espn/scoreboard.js';
import { collectingLog, fixtureTransport, readFixtureJson } from './fixture-transport.js';

const ufc = espnLeague('mma', 'ufc');
const load = (file: string) => readFixtureJson('espn', file);

describe('ESPN MMA fight cards (real payloads)', () => {
  it('reads the UFC 2025-09-27 card: 14 bouts, main event last with tale of the tape', () => {
    const [card] = parseFightCards(load('mma-ufc-scoreboard-2025-09-27.json'), ufc)!;
    expect(fightCardSchema.safeParse(card).success).toBe(true);
    expect(card).toMatchObject({ name: 'UFC Fight Night: Ulberg vs. Reyes', league: 'ufc', skippedBouts: 0 });
    expect(card!.bouts).toHaveLength(14);
    const main = card!.bouts.at(-1)!;
    expect(main).toMatchObject({ id: '401801745', weightClass: 'Light Heavyweight', scheduledRounds: 5, status: 'scheduled' });
    expect(main.fighters.map((f) => [f.name, f.athleteId, f.record, f.winner])).toEqual([
      ['Carlos Ulberg', '4695736', '13-1-0', null],
      ['Dominick Reyes', '4233039', '15-4-0', null],
    ]);
    expect(main.dataLimited).toEqual(['method', 'round', 'ko']);
    expect(card!.bouts[0]).toMatchObject({ weightClass: 'W Strawweight', scheduledRounds: 3 });
  });

  it('reads winner flags only once a bout is final (DWCS 2025-09-02)', () => {
    const [card] = parseFightCards(load('mma-ufc-scoreboard-2025-09-02.json'), ufc)!;
    expect(card!.bouts).toHaveLength(5);
    const first = card!.bouts[0]!;
    expect(first.status).toBe('final');
    expect(first.fighters.map((f) => [f.name, f.record, f.winner])).toEqual([
      ['Tommy McMillen', '9-0-0', true],
      ['David Mgoyan', '7-1-0', false],
    ]);
  });

  it('counts bouts across the range file and the PFL card', () => {
    const cards = parseFightCards(load('mma-ufc-scoreboard-range-2025-09.json'), ufc)!;
    expect(cards).toHaveLength(13);
    expect(cards.reduce((n, c) => n + c.bouts.length, 0)).toBe(97);
    const [pfl] = parseFightCards(load('mma-pfl-scoreboard-2025-10-03.json'), espnLeague('mma', 'pfl'))!;
    expect(pfl!.bouts).toHaveLength(12);
    expect(pfl!.bouts.at(-1)!.fighters.map((f) => f.name)).toEqual(['Usman Nurmagomedov', 'Paul Hughes']);
  });

  it('skips and counts a bout without exactly two fighters', () => {
    const raw = structuredClone(load('mma-ufc-scoreboard-2025-09-27.json')) as { events: Array<{ competitions: Array<{ competitors: unknown[] }> }> };
    raw.events[0]!.competitions[3]!.competitors.pop();
    const log = collectingLog();
    const [card] = parseFightCards(raw, ufc, log)!;
    expect(card!.bouts).toHaveLength(13);
    expect(card!.skippedBouts).toBe(1);
    expect(log.warnings[0]?.msg).toMatch(/1 bout/);
  });

  it('does not read the core-API event (competitions are $ref links, no fighters): null with a warning', () => {
    const log = collectingLog();
    expect(parseFightCards(load('mma-ufc-core-event-600055033.json'), ufc, log)).toBeNull();
    expect(log.warnings).toHaveLength(1);
  });

  it('fetches the MMA scoreboard through the transport', async () => {
    const url = scoreboardUrl(ufc, '2025-09-27');
    const { transport } = fixtureTransport({ [url]: { provider: 'espn', file: 'mma-ufc-scoreboard-2025-09-27.json' } });
    expect((await fetchFightCards(transport, ufc, '2025-09-27'))?.[0]?.bouts).toHaveLength(14);
  });
});
