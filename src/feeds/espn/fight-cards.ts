import { z } from 'zod';
import { gameStatusSchema } from '../../domain/entities.js';
import { normalizeName } from '../../domain/names.js';
import type { Transport } from '../transport/types.js';
import { ESPN_SITE_BASE, espnGameStatus, toUtcIso, type EspnLeague } from './common.js';
import { fetchJson, type AdapterLog } from '../json.js';
import { scoreboardUrl } from './scoreboard.js';

/** Markets the ESPN scoreboard cannot support with real data: reported as such, never filled in. */
export const DATA_LIMITED_MARKETS = ['method', 'round', 'ko'] as const;

export const fighterSchema = z.object({
  /** ESPN athlete id: the competitor `id` (the athlete object itself carries none). */
  athleteId: z.string().nullable(),
  name: z.string(),
  key: z.string(),
  /** W-L-D at capture time ("10-3-0"). */
  record: z.string().nullable(),
  country: z.string().nullable(),
  /** Only once the bout is final: true for the winner. */
  winner: z.boolean().nullable(),
});
export type Fighter = z.infer<typeof fighterSchema>;

export const boutSchema = z.object({
  id: z.string(),
  date: z.string().nullable(),
  weightClass: z.string().nullable(),
  scheduledRounds: z.number().nullable(),
  status: gameStatusSchema,
  fighters: z.tuple([fighterSchema, fighterSchema]),
  /** Always method/round/ko: ESPN's result text is not a reliable market settlement source. */
  dataLimited: z.array(z.enum(DATA_LIMITED_MARKETS)),
});
export type Bout = z.infer<typeof boutSchema>;

export const fightCardSchema = z.object({
  provider: z.literal('espn'),
  league: z.string(),
  eventId: z.string(),
  name: z.string().nullable(),
  date: z.string().nullable(),
  /** Bouts in ESPN's order: first prelim first, main event last. */
  bouts: z.array(boutSchema),
  /** Bouts without exactly two fighters (or unreadable): not rendered as fight cards. */
  skippedBouts: z.number(),
});
export type FightCard = z.infer<typeof fightCardSchema>;

const rawCompetitor = z.looseObject({
  id: z.string().optional(),
  order: z.number().optional(),
  winner: z.boolean().optional(),
  athlete: z
    .looseObject({ fullName: z.string().optional(), displayName: z.string().optional(), flag: z.looseObject({ alt: z.string().optional() }).optional() })
    .optional(),
  records: z.array(z.looseObject({ name: z.string().optional(), type: z.string().optional(), summary: z.string().optional() })).optional(),
});

const rawBout = z.looseObject({
  id: z.string(),
  date: z.string().optional(),
  type: z.looseObject({ abbreviation: z.string().optional(), text: z.string().optional() }).optional(),
  format: z.looseObject({ regulation: z.looseObject({ periods: z.number().optional() }).optional() }).optional(),
  status: z.looseObject({ type: z.looseObject({ name: z.string().optional(), state: z.string().optional(), completed: z.boolean().optional() }).optional() }).optional(),
  competitors: z.array(z.unknown()).optional(),
});

const rawCard = z.looseObject({ id: z.string(), name: z.string().optional(), date: z.string().optional(), competitions: z.array(z.unknown()).optional() });
const rawScoreboard = z.looseObject({ events: z.array(z.unknown()) });

type RawCompetitor = z.infer<typeof rawCompetitor>;

function fighterFrom(c: RawCompetitor, final: boolean): Fighter | null {
  const rawName = c.athlete?.fullName ?? c.athlete?.displayName;
  if (!rawName) return null;
  const overall = c.records?.find((r) => r.name === 'overall' || r.type === 'total');
  const n = normalizeName(rawName);
  return {
    athleteId: c.id ?? null,
    name: n.display,
    key: n.key,
    record: overall?.summary ?? null,
    country: c.athlete?.flag?.alt ?? null,
    winner: final && typeof c.winner === 'boolean' ? c.winner : null,
  };
}

function boutFrom(raw: unknown): Bout | null {
  const p = rawBout.safeParse(raw);
  if (!p.success) return null;
  const b = p.data;
  const competitors = z.array(rawCompetitor).safeParse(b.competitors ?? []);
  if (!competitors.success || competitors.data.length !== 2) return null;
  const status = espnGameStatus(b.status?.type);
  const final = status === 'final';
  const [first, second] = [...competitors.data].sort((x, y) => (x.order ?? 0) - (y.order ?? 0));
  const a = first ? fighterFrom(first, final) : null;
  const c = second ? fighterFrom(second, final) : null;
  if (!a || !c) return null;
  return {
    id: b.id,
    date: toUtcIso(b.date),
    weightClass: b.type?.abbreviation ?? b.type?.text ?? null,
    scheduledRounds: b.format?.regulation?.periods ?? null,
    status,
    fighters: [a, c],
    dataLimited: [...DATA_LIMITED_MARKETS],
  };
}

/** MMA scoreboard (one event per card, one competition per bout) to fight cards. */
export function parseFightCards(json: unknown, league: EspnLeague, log?: AdapterLog): FightCard[] | null {
  const top = rawScoreboard.safeParse(json);
  if (!top.success) {
    log?.warn('espn mma scoreboard: unknown shape', { league: league.path });
    return null;
  }
  const cards: FightCard[] = [];
  for (const raw of top.data.events) {
    const e = rawCard.safeParse(raw);
    if (!e.success) {
      log?.warn('espn mma scoreboard: unreadable event skipped', { league: league.path });
      continue;
    }
    const bouts: Bout[] = [];
    let skipped = 0;
    for (const comp of e.data.competitions ?? []) {
      const bout = boutFrom(comp);
      if (bout) bouts.push(bout);
      else skipped++;
    }
    if (skipped > 0) log?.warn(`espn mma: ${skipped} bout(s) without two readable fighters skipped`, { eventId: e.data.id });
    cards.push({
      provider: 'espn',
      league: league.league,
      eventId: e.data.id,
      name: e.data.name ?? null,
      date: toUtcIso(e.data.date),
      bouts,
      skippedBouts: skipped,
    });
  }
  return cards;
}

export async function fetchFightCards(transport: Transport, league: EspnLeague, slateDate: string, log?: AdapterLog): Promise<FightCard[] | null> {
  const json = await fetchJson(transport, 'espn', scoreboardUrl(league, slateDate), 'espn mma scoreboard', log);
  return json === null ? null : parseFightCards(json, league, log);
}

/** The scoreboard without a date: ESPN answers with its current window of cards (the upcoming ones). */
export function upcomingFightCardsUrl(league: EspnLeague): string {
  return `${ESPN_SITE_BASE}/${league.path}/scoreboard`;
}

export async function fetchUpcomingFightCards(transport: Transport, league: EspnLeague, log?: AdapterLog): Promise<FightCard[] | null> {
  const json = await fetchJson(transport, 'espn', upcomingFightCardsUrl(league), 'espn mma scoreboard', log);
  return json === null ? null : parseFightCards(json, league, log);
}
