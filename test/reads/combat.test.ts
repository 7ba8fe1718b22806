import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { cardProfile, fighterStyle, styleEdge } from '../../src/domain/combat-card.js';
import { normalizeName } from '../../src/domain/names.js';
import { espnLeague, scoreboardUrl, upcomingFightCardsUrl } from '../../src/feeds/espn/index.js';
import { sportOddsUrl } from '../../src/feeds/odds-api/index.js';
import type { FetchOutcome, FetchRequest, Transport } from '../../src/feeds/transport/types.js';
import { readCombat, readFight, type CombatView } from '../../src/reads/combat.js';
import { ContextCache } from '../../src/store/cache.js';
import type { ContextProviders } from '../../src/feeds/factory.js';
import type { ContextDeps } from '../../src/feeds/context.js';
import { silentLogger } from '../../src/feeds/sources.js';
import { kvGet } from '../../src/store/repo/kv.js';
import { addCreditsSpent } from '../../src/store/repo/odds-credits.js';
import { tempStore } from '../helpers/replay-store.js';

/**
 * Fight cards on the real recordings (test/fixtures, copies of ../shared/feeds): ESPN's UFC card of
 * 2025-09-27 (Ulberg vs. Reyes), the PFL Dubai card of 2025-10-03, the final DWCS card of
 * 2025-09-02, the Sep-Oct UFC range, the sports.core event document, and The Odds API's MMA h2h
 * board of 2025-09-13 (US books, American odds).
 */

const espn = (f: string) => readFileSync(`test/fixtures/espn/${f}`, 'utf8');
const ODDS_BODY = readFileSync('test/fixtures/odds-api/mma-odds-h2h-2025-09-13.json', 'utf8');
const UFC = espnLeague('mma', 'ufc');
const PFL = espnLeague('mma', 'pfl');
const ODDS_URL = sportOddsUrl('mma_mixed_martial_arts', ['h2h', 'totals'], { regions: ['us'] });
const NOW = new Date('2025-09-26T12:00:00Z');

const ROUTES: Record<string, string> = {
  [scoreboardUrl(UFC, '2025-09-27')]: espn('mma-ufc-scoreboard-2025-09-27.json'),
  [scoreboardUrl(PFL, '2025-10-03')]: espn('mma-pfl-scoreboard-2025-10-03.json'),
  [scoreboardUrl(UFC, '2025-09-02')]: espn('mma-ufc-scoreboard-2025-09-02.json'),
  [upcomingFightCardsUrl(UFC)]: espn('mma-ufc-scoreboard-range-2025-09.json'),
  [ODDS_URL]: ODDS_BODY,
};

function transport(routes: Record<string, string | FetchOutcome>) {
  const calls: FetchRequest[] = [];
  const t: Transport = {
    kind: 'live',
    async fetch(request) {
      calls.push(request);
      const r = routes[request.url];
      if (r === undefined) return { ok: false, status: 404, reason: `not recorded: ${request.url}` };
      return typeof r === 'string' ? { ok: true, status: 200, headers: {}, body: r, source: 'live' } : r;
    },
  };
  return { t, calls };
}

let cleanups: Array<() => void> = [];
afterEach(() => {
  cleanups.forEach((c) => c());
  cleanups = [];
});

function deps(routes: Record<string, string | FetchOutcome> = ROUTES, env: Record<string, string> = {}, oddsAvailable = true) {
  const s = tempStore();
  cleanups.push(s.cleanup);
  const tr = transport(routes);
  const providers: ContextProviders = oddsAvailable
    ? { source: 'live', keyless: tr.t, odds: tr.t, oddsApiKey: 'k', close: async () => {} }
    : { source: 'live', keyless: tr.t, odds: null, oddsMissing: 'ODDS_API_KEY is not set', close: async () => {} };
  const d: ContextDeps = { store: s.store, config: loadConfig(env), cache: new ContextCache(s.store), providers, now: NOW, wallNow: () => NOW, log: silentLogger };
  return { d, calls: tr.calls };
}

async function card(view: Promise<CombatView>) {
  const v = await view;
  if (!v.available) throw new Error(v.reason);
  return v;
}

interface RawCompetitor {
  id: string;
  athlete: { fullName: string; flag?: { alt?: string } };
  records: Array<{ summary: string }>;
}
interface RawBout {
  id: string;
  type: { abbreviation: string };
  format: { regulation: { periods: number } };
  competitors: RawCompetitor[];
}
const rawBouts = JSON.parse(espn('mma-ufc-scoreboard-2025-09-27.json')).events[0].competitions as RawBout[];
const rawOdds = JSON.parse(ODDS_BODY) as Array<{ home_team: string; away_team: string; bookmakers: Array<{ key: string; markets: Array<{ key: string; outcomes: Array<{ name: string; price: number }> }> }> }>;

/** Best American price for a fighter in a bout, straight from the raw board (a higher price pays more). */
function rawBest(a: string, b: string, fighter: string, books?: string[]): number | null {
  const ev = rawOdds.find((e) => [e.home_team, e.away_team].sort().join('|') === [a, b].sort().join('|'))!;
  const prices = ev.bookmakers.filter((bk) => !books || books.includes(bk.key)).flatMap((bk) => bk.markets.flatMap((m) => m.outcomes.filter((o) => o.name === fighter).map((o) => o.price)));
  if (prices.length === 0) return null;
  const implied = (p: number) => (p > 0 ? 100 / (p + 100) : -p / (-p + 100));
  return prices.reduce((x, y) => (implied(y) < implied(x) ? y : x));
}

describe('fight cards (real UFC Fight Night 2025-09-27)', () => {
  it('renders every two-fighter bout with the tale of the tape exactly as ESPN lists it', async () => {
    const v = await card(readCombat(deps().d, '2025-09-27'));
    expect(v.cards).toHaveLength(1);
    const c = v.cards[0]!;
    expect([c.name, c.league, c.bouts.length, c.skippedBouts]).toEqual(['UFC Fight Night: Ulberg vs. Reyes', 'ufc', 14, 0]);
    for (const b of c.bouts) {
      const raw = rawBouts.find((r) => r.id === b.id)!;
      expect([b.weightClass, b.scheduledRounds]).toEqual([raw.type.abbreviation, raw.format.regulation.periods]);
      expect(b.fighters).toHaveLength(2);
      for (const f of b.fighters) {
        const rc = raw.competitors.find((x) => x.id === f.athleteId)!;
        expect([f.name, f.record, f.country]).toEqual([normalizeName(rc.athlete.fullName).display, rc.records[0]!.summary, rc.athlete.flag?.alt ?? null]);
      }
      expect(b.dataLimited).toEqual(['method', 'round', 'ko']);
    }
    expect(v.dataLimited).toEqual(['method', 'round', 'ko']);
    expect(v.leaguesUnavailable).toEqual(['pfl']); // no PFL recording for this date: said, not hidden
  });

  it('joins odds by normalized names (best moneyline across the books); a bout whose fighters do not both join has no odds and says so', async () => {
    const v = await card(readCombat(deps().d, '2025-09-27'));
    const bouts = v.cards[0]!.bouts;
    const unjoined = bouts.filter((b) => b.odds === null).map((b) => [b.fighters[0].name, b.fighters[1].name, b.oddsNote]);
    // "Jimmy Crute" on ESPN is "Jim Crute" at the books: no alias, so no guess.
    expect(unjoined).toEqual([
      ['Colby Thicknesse', 'Josias Musasa', 'no odds: no Odds API bout joins both fighters by name'],
      ['Jimmy Crute', 'Ivan Erslan', 'no odds: no Odds API bout joins both fighters by name'],
    ]);
    const main = bouts.find((b) => b.id === '401801745')!;
    expect(main.odds!.moneyline.map((m) => [m.fighter, m.best?.price])).toEqual([
      ['Carlos Ulberg', rawBest('Dominick Reyes', 'Carlos Ulberg', 'Carlos Ulberg')],
      ['Dominick Reyes', rawBest('Dominick Reyes', 'Carlos Ulberg', 'Dominick Reyes')],
    ]);
    expect(main.odds!.books).toBe(4);
    // The recorded board holds h2h only: no round totals, and the bout says so rather than showing any.
    expect(main.odds!.roundTotals).toEqual([]);
    expect(main.oddsNote).toBe('no round-total prices in the odds answer');
    // Peričić: an accented ESPN name joins the books' "Brando Pericic".
    expect(bouts.find((b) => b.fighters[0].name === 'Brando Peričić')!.odds).not.toBeNull();
  });

  it('ALLOWED_BOOKS limits the prices to those books', async () => {
    // The request names the books (bookmakers=williamhill_us); the full real board answers it, so the filter is propgrade's own.
    const url = sportOddsUrl('mma_mixed_martial_arts', ['h2h', 'totals'], { bookmakers: ['williamhill_us'] });
    const v = await card(readCombat(deps({ ...ROUTES, [url]: ODDS_BODY }, { ALLOWED_BOOKS: 'williamhill_us' }).d, '2025-09-27'));
    const main = v.cards[0]!.bouts.find((b) => b.id === '401801745')!;
    expect(main.odds!.moneyline.map((m) => m.best)).toEqual([
      { price: rawBest('Dominick Reyes', 'Carlos Ulberg', 'Carlos Ulberg', ['williamhill_us']), book: 'williamhill_us' },
      { price: rawBest('Dominick Reyes', 'Carlos Ulberg', 'Dominick Reyes', ['williamhill_us']), book: 'williamhill_us' },
    ]);
  });

  it('a card carries only records: every style is empty (thin data) and the style edge is a model read with no edge', async () => {
    const v = await card(readCombat(deps().d, '2025-09-27'));
    for (const b of v.cards[0]!.bouts) {
      expect(b.fighters.map((f) => f.style)).toEqual([null, null]);
      expect(b.styleEdge).toMatchObject({ kind: 'model read, not a grade', edge: null, score: null });
      expect(b.styleEdge.reason).toMatch(/thin data/);
    }
  });

  it('a bout without exactly two fighters is not rendered (counted instead)', async () => {
    const board = JSON.parse(espn('mma-ufc-scoreboard-2025-09-27.json'));
    board.events[0].competitions[3].competitors = board.events[0].competitions[3].competitors.slice(0, 1);
    const v = await card(readCombat(deps({ ...ROUTES, [scoreboardUrl(UFC, '2025-09-27')]: JSON.stringify(board) }).d, '2025-09-27'));
    expect(v.cards[0]!.bouts).toHaveLength(13);
    expect(v.cards[0]!.skippedBouts).toBe(1);
    expect(v.cards[0]!.bouts.some((b) => b.id === board.events[0].competitions[3].id)).toBe(false);
  });
});

describe('fight cards: other real cards, off-card, failures', () => {
  it('PFL Dubai: twelve bouts, none listed by The Odds API, so none carries odds', async () => {
    const v = await card(readCombat(deps().d, '2025-10-03'));
    const pfl = v.cards.find((c) => c.league === 'pfl')!;
    expect(pfl.bouts).toHaveLength(12);
    expect(pfl.bouts.every((b) => b.odds === null && b.oddsNote!.startsWith('no odds'))).toBe(true);
  });

  it('a final card (DWCS 2025-09-02) marks the winners', async () => {
    const v = await card(readCombat(deps().d, '2025-09-02'));
    const bouts = v.cards[0]!.bouts;
    expect(bouts).toHaveLength(5);
    expect(bouts.every((b) => b.status === 'final' && b.fighters.filter((f) => f.winner === true).length === 1)).toBe(true);
  });

  it('off-card: an empty list, and no odds call is made', async () => {
    const { d, calls } = deps({ [scoreboardUrl(UFC, '2025-09-28')]: '{"events": []}', [scoreboardUrl(PFL, '2025-09-28')]: '{"events": []}' });
    const v = await card(readCombat(d, '2025-09-28'));
    expect(v.cards).toEqual([]);
    expect(calls.some((c) => c.url.includes('the-odds-api'))).toBe(false);
  });

  it('the sports.core event document (competitions as $ref, no fighters) is not a scoreboard: hidden, never thrown', async () => {
    const core = espn('mma-ufc-core-event-600055033.json');
    const v = await readCombat(deps({ [scoreboardUrl(UFC, '2025-10-01')]: core, [scoreboardUrl(PFL, '2025-10-01')]: core }).d, '2025-10-01');
    expect(v).toMatchObject({ date: '2025-10-01', available: false });
  });

  it('both scoreboards down: hidden with the reason', async () => {
    const v = await readCombat(deps({}).d, '2025-09-27');
    expect(v.available).toBe(false);
    expect(!v.available && v.reason).toMatch(/no ESPN MMA scoreboard/);
  });

  it('no odds source, or a spent daily budget: the cards stand and each bout says why it has no odds', async () => {
    const noKey = await card(readCombat(deps(ROUTES, {}, false).d, '2025-09-27'));
    expect(noKey.odds).toEqual({ available: false, reason: 'no odds source: ODDS_API_KEY is not set' });
    expect(noKey.cards[0]!.bouts.every((b) => b.odds === null && b.oddsNote === 'odds unavailable: no odds source: ODDS_API_KEY is not set')).toBe(true);
    const { d, calls } = deps(ROUTES, { ODDS_API_DAILY_BUDGET: '1' });
    const spent = await card(readCombat(d, '2025-09-27'));
    expect(!spent.odds.available && spent.odds.reason).toMatch(/daily credit budget reached/);
    expect(calls.some((c) => c.url.includes('the-odds-api'))).toBe(false);
  });

  it('one MMA odds call per hour for every card, counted in the daily budget', async () => {
    const { d, calls } = deps();
    await readCombat(d, '2025-09-27');
    await readCombat({ ...d, now: new Date(NOW.getTime() + 30 * 60_000) }, '2025-10-03');
    expect(calls.filter((c) => c.url.includes('the-odds-api'))).toHaveLength(1);
    expect(await kvGet(d.store, 'odds-api:credits:2025-09-26', NOW)).toBe(2); // h2h + totals, one region
  });

  it("the budget carries what the day's snapshot runs spent, and the day's count adds the odds call to it", async () => {
    const { d, calls } = deps(ROUTES, { ODDS_API_DAILY_BUDGET: '7' });
    await addCreditsSpent(d.store, NOW, 5); // a snapshot run earlier that ET day
    const v = await card(readCombat(d, '2025-09-27'));
    expect(v.odds.available).toBe(true);
    expect(calls.filter((c) => c.url.includes('the-odds-api'))).toHaveLength(1);
    expect(await kvGet(d.store, 'odds-api:credits:2025-09-26', NOW)).toBe(7);
    // One credit short of the call's two: refused, nothing spent, the count unchanged.
    const short = deps(ROUTES, { ODDS_API_DAILY_BUDGET: '6' });
    await addCreditsSpent(short.d.store, NOW, 5);
    const refused = await card(readCombat(short.d, '2025-09-27'));
    expect(!refused.odds.available && refused.odds.reason).toMatch(/daily credit budget reached: call needs 2 credits, 1 of 6 left today/);
    expect(await kvGet(short.d.store, 'odds-api:credits:2025-09-26', NOW)).toBe(5);
  });
});

describe('one fight by id', () => {
  it('finds a bout listed by an earlier card read, or on the upcoming cards; an unknown id is null (404)', async () => {
    const { d } = deps();
    await readCombat(d, '2025-09-27');
    const main = await readFight(d, '401801745');
    expect(main).toMatchObject({ available: true, bout: { id: '401801745', fighters: [{ name: 'Carlos Ulberg' }, { name: 'Dominick Reyes' }] } });
    // Never read by date: found on ESPN's upcoming window (the Sep-Oct range).
    const fresh = deps().d;
    const ranged = await readFight(fresh, '401801745');
    expect(ranged && ranged.available && ranged.bout.card.name).toBe('UFC Fight Night: Ulberg vs. Reyes');
    expect(await readFight(d, '999999999')).toBeNull();
  });
});

describe('style edge (a model read over the six-style registry)', () => {
  const style = (primary: string, blend: Array<[string, number]>) => ({ primary, secondary: blend[1]?.[0] ?? null, blend: blend.map(([id, weight]) => ({ id, weight })) });

  it('favours the style that tends to win the matchup, weighted by the blends', () => {
    expect(styleEdge({ name: 'A', style: style('WRESTLER', [['WRESTLER', 1]]) }, { name: 'B', style: style('STRIKER', [['STRIKER', 1]]) })).toMatchObject({ edge: 'A', score: 1 });
    expect(styleEdge({ name: 'A', style: style('STRIKER', [['STRIKER', 1]]) }, { name: 'B', style: style('WRESTLER', [['WRESTLER', 1]]) })).toMatchObject({ edge: 'B', score: -1 });
    expect(styleEdge({ name: 'A', style: style('COUNTER', [['COUNTER', 0.5], ['STRIKER', 0.5]]) }, { name: 'B', style: style('COUNTER', [['COUNTER', 1]]) })).toMatchObject({ edge: null, score: 0 });
    expect(styleEdge({ name: 'A', style: null }, { name: 'B', style: style('WRESTLER', [['WRESTLER', 1]]) })).toMatchObject({ kind: 'model read, not a grade', edge: null, score: null });
  });

  it('a record alone is thin data: no style (classification needs two of range, tempo, outcome)', () => {
    const f = { name: 'Neil Magny', key: 'neil magny', athleteId: '3001914', record: '30-14-0', country: null, winner: null };
    expect(cardProfile(f)).toMatchObject({ fights: 44, wins: 30, ko_wins: null, slpm: null });
    expect(fighterStyle(cardProfile(f))).toBeNull();
    expect(cardProfile({ ...f, record: null })).toBeNull();
  });
});
