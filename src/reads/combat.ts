import type { Classification } from '../domain/archetypes/schema.js';
import { boutStatusAt, cardProfile, fighterStyle, joinBoutOdds, styleEdge, type BoutOdds, type CardFighter, type OddsBout, type StyleEdge } from '../domain/combat-card.js';
import type { GameStatus } from '../domain/entities.js';
import { easternDate } from '../domain/time.js';
import { DATA_LIMITED_MARKETS, espnLeague, fetchFightCards, fetchUpcomingFightCards, type Bout, type FightCard } from '../feeds/espn/index.js';
import { createBudget, fetchMmaFightOdds, type MmaFightOdds } from '../feeds/odds-api/index.js';
import { kvGetAsOf, kvSet } from '../store/repo/kv.js';
import { addCreditsSpent, creditsSpentToday } from '../store/repo/odds-credits.js';
import { CONTEXT_CACHE, freshnessOf, type CacheRead, type Freshness } from '../store/cache.js';
import { contextKey, loadLog, replayTracking, requireUpstream, wallTime, type ContextDeps } from '../feeds/context.js';
import { publicReason } from '../feeds/public-reason.js';
import { bookSelection } from '../feeds/factory.js';

/**
 * Fight cards (spec: Combat): ESPN MMA cards (UFC, PFL) for a date joined to The Odds API's MMA
 * prices (moneyline and round totals). Both go through the context cache: cards 15 minutes, odds
 * one hour (one call prices every listed bout; it spends credits inside the daily budget).
 */

export const COMBAT_LEAGUES = ['ufc', 'pfl'] as const;

interface CardsValue {
  cards: FightCard[];
  /** Leagues whose scoreboard did not answer (the others' cards still show). */
  unavailable: string[];
}

/** A card fighter (`winner` set once the bout is final) with the style read. */
export interface FighterView extends CardFighter {
  /** Style blend from the six-style combat registry; null on thin data (a card carries only the record). */
  style: Classification | null;
}

export interface BoutView {
  id: string;
  league: string;
  card: { eventId: string; name: string | null; date: string | null };
  date: string | null;
  status: GameStatus;
  weightClass: string | null;
  scheduledRounds: number | null;
  fighters: [FighterView, FighterView];
  odds: BoutOdds | null;
  /** Why there are no odds, when there are none. */
  oddsNote: string | null;
  /** Method of victory, round and KO markets: the feeds cannot support them with real data. */
  dataLimited: string[];
  styleEdge: StyleEdge;
}

export interface CardView {
  league: string;
  eventId: string;
  name: string | null;
  date: string | null;
  bouts: BoutView[];
  /** Bouts ESPN listed without exactly two readable fighters: not rendered. */
  skippedBouts: number;
}

export type CombatView =
  | ({
      date: string;
      available: true;
      cards: CardView[];
      leaguesUnavailable: string[];
      odds: ({ available: true } & Freshness) | { available: false; reason: string };
      dataLimited: string[];
    } & Freshness)
  | { date: string; available: false; reason: string };

export type FightView = ({ available: true; bout: BoutView; odds: CombatOddsState } & Freshness) | { available: false; reason: string };
type CombatOddsState = ({ available: true } & Freshness) | { available: false; reason: string };

const fightIndexKey = (deps: ContextDeps, id: string) => contextKey(deps.providers, 'fight-index', id);


async function loadCards(deps: ContextDeps, date: string | null): Promise<CacheRead<CardsValue>> {
  return deps.cache.read<CardsValue>(contextKey(deps.providers, 'combat-cards', date ?? 'upcoming'), CONTEXT_CACHE.combatCards, deps.now, {
    ...replayTracking(deps),
    load: async () => {
      const log = loadLog(deps.log);
      const cards: FightCard[] = [];
      const unavailable: string[] = [];
      for (const league of COMBAT_LEAGUES) {
        const l = espnLeague('mma', league);
        const got = date === null ? await fetchUpcomingFightCards(deps.providers.keyless, l, log) : await fetchFightCards(deps.providers.keyless, l, date, log);
        if (got === null) unavailable.push(league);
        else cards.push(...got);
      }
      if (unavailable.length === COMBAT_LEAGUES.length) return { ok: false, reason: log.why(`no ESPN MMA scoreboard (${COMBAT_LEAGUES.join(', ')})${date ? ` for ${date}` : ''}`) };
      return { ok: true, value: { cards, unavailable } };
    },
  });
}

/** MMA odds for every listed bout; inside the daily credit budget (the snapshot runs' own count). */
async function loadOdds(deps: ContextDeps): Promise<CacheRead<MmaFightOdds[]>> {
  const transport = deps.providers.odds;
  if (transport === null) return { ok: false, reason: `no odds source: ${deps.providers.oddsMissing ?? 'no Odds API transport'}` };
  return deps.cache.read<MmaFightOdds[]>(contextKey(deps.providers, 'combat-odds'), CONTEXT_CACHE.combatOdds, deps.now, {
    ...replayTracking(deps),
    load: async () => {
      const log = loadLog(deps.log);
      // Credits are money: counted by the wall clock's day, whatever day the data is read as of.
      const wall = wallTime(deps);
      const spentToday = await creditsSpentToday(deps.store, wall);
      const budget = createBudget(deps.config.ODDS_API_DAILY_BUDGET ?? null, spentToday);
      const res = await fetchMmaFightOdds(transport, {
        books: bookSelection(deps.config),
        log,
        budget,
        ...(deps.providers.oddsApiKey ? { apiKey: deps.providers.oddsApiKey } : {}),
        ...(deps.providers.oddsBase ? { base: deps.providers.oddsBase } : {}),
      });
      // Replayed calls cost nothing; live ones count against the day's budget across runs.
      if (deps.providers.source === 'live' && budget.state().calls > 0) await addCreditsSpent(deps.store, wall, budget.state().spent - spentToday);
      return res.error === null ? { ok: true, value: res.fights } : { ok: false, reason: `odds-api mma odds: ${publicReason(res.error)}` };
    },
  });
}

function fighterView(f: Bout['fighters'][number]): FighterView {
  return { name: f.name, key: f.key, athleteId: f.athleteId, record: f.record, country: f.country, winner: f.winner, style: fighterStyle(cardProfile(f)) };
}

export function boutView(card: FightCard, bout: Bout, odds: { fights: readonly OddsBout[] } | { reason: string }, allowedBooks: readonly string[] | null, now: Date): BoutView {
  const fighters: [FighterView, FighterView] = [fighterView(bout.fighters[0]), fighterView(bout.fighters[1])];
  let boutOdds: BoutOdds | null = null;
  let oddsNote: string | null = null;
  if ('reason' in odds) oddsNote = `odds unavailable: ${odds.reason}`;
  else {
    const join = joinBoutOdds(bout.fighters, bout.date, odds.fights, allowedBooks);
    if (join.joined) {
      boutOdds = join.odds;
      if (join.odds.roundTotals.length === 0) oddsNote = 'no round-total prices in the odds answer';
    } else oddsNote = `no odds: ${join.reason}`;
  }
  return {
    id: bout.id,
    league: card.league,
    card: { eventId: card.eventId, name: card.name, date: card.date },
    date: bout.date,
    status: boutStatusAt(bout.status, bout.date, now),
    weightClass: bout.weightClass,
    scheduledRounds: bout.scheduledRounds,
    fighters,
    odds: boutOdds,
    oddsNote,
    dataLimited: [...bout.dataLimited],
    styleEdge: styleEdge({ name: fighters[0].name, style: fighters[0].style }, { name: fighters[1].name, style: fighters[1].style }),
  };
}

function oddsState(read: CacheRead<MmaFightOdds[]>): CombatOddsState {
  return read.ok ? { available: true, ...freshnessOf(read) } : { available: false, reason: read.reason };
}

function cardViews(cards: readonly FightCard[], odds: CacheRead<MmaFightOdds[]>, allowedBooks: readonly string[] | null, now: Date): CardView[] {
  const source = odds.ok ? { fights: odds.value } : { reason: odds.reason };
  return cards.map((card) => ({
    league: card.league,
    eventId: card.eventId,
    name: card.name,
    date: card.date,
    bouts: card.bouts.map((b) => boutView(card, b, source, allowedBooks, now)),
    skippedBouts: card.skippedBouts,
  }));
}

async function indexBouts(deps: ContextDeps, date: string, cards: readonly FightCard[]): Promise<void> {
  // Issued together and awaited once (a card holds a dozen bouts at most).
  await Promise.all(cards.flatMap((card) => card.bouts.map((b) => kvSet(deps.store, fightIndexKey(deps, b.id), { date }, deps.now, null))));
}

/** The fight cards of an ET date (ESPN's own `dates=` day). No card that day: an empty list. */
export async function readCombat(deps: ContextDeps, date: string): Promise<CombatView> {
  requireUpstream(deps, 'fight cards');
  const cards = await loadCards(deps, date);
  if (!cards.ok) return { date, available: false, reason: cards.reason };
  if (!cards.fromCache) await indexBouts(deps, date, cards.value.cards);
  const hasBouts = cards.value.cards.some((c) => c.bouts.length > 0);
  // Off-card there is nothing to price: no odds call is made.
  const odds: CacheRead<MmaFightOdds[]> = hasBouts ? await loadOdds(deps) : { ok: false, reason: 'no bouts on this date' };
  return {
    date,
    available: true,
    ...freshnessOf(cards),
    cards: cardViews(cards.value.cards, odds, deps.config.ALLOWED_BOOKS, deps.now),
    leaguesUnavailable: cards.value.unavailable,
    odds: oddsState(odds),
    dataLimited: [...DATA_LIMITED_MARKETS],
  };
}

/**
 * One bout by ESPN id: from the card of the date it was listed on (any earlier /api/combat read
 * indexes its bouts), else from ESPN's upcoming cards. null: no card holds that id (a 404).
 */
export async function readFight(deps: ContextDeps, id: string): Promise<FightView | null> {
  requireUpstream(deps, 'fight cards');
  const indexed = await kvGetAsOf<{ date: string }>(deps.store, fightIndexKey(deps, id), deps.now);
  const tries: Array<string | null> = indexed ? [indexed.date, null] : [null];
  const failures: string[] = [];
  for (const date of tries) {
    const cards = await loadCards(deps, date);
    if (!cards.ok) {
      failures.push(cards.reason);
      continue;
    }
    for (const card of cards.value.cards) {
      const bout = card.bouts.find((b) => b.id === id);
      if (!bout) continue;
      if (date === null && card.date) await indexBouts(deps, easternDate(new Date(card.date)), [card]);
      const odds = await loadOdds(deps);
      const source = odds.ok ? { fights: odds.value } : { reason: odds.reason };
      return { available: true, ...freshnessOf(cards), bout: boutView(card, bout, source, deps.config.ALLOWED_BOOKS, deps.now), odds: oddsState(odds) };
    }
  }
  // Every card source failed: say so rather than claim the fight does not exist.
  if (failures.length === tries.length) return { available: false, reason: failures.join('; ') };
  return null;
}
