import type { z } from 'zod';
import type { DraftsResult } from '../../jobs/publish/drafts.js';
import type { SendResult } from '../../jobs/publish/newsletter.js';
import type { DeskPack } from '../../content/pack.js';
import type { Ticker } from '../../domain/ticker.js';
import type { ArsenalView } from '../../reads/arsenal.js';
import type { CombatView, FightView } from '../../reads/combat.js';
import type { FuturesView } from '../../reads/futures.js';
import type { LiveView } from '../../reads/live.js';
import type { NewsView } from '../../reads/news.js';
import type { ParlayResult } from '../../reads/parlay.js';
import type { readAccuracy, readModelRecord } from '../../reads/record.js';
import type { Preferences, OnboardingState } from '../../accounts/preferences.js';
import type { buildTeamHub } from '../../reads/team-hub.js';
import type { ShowcaseView } from '../../reads/showcase.js';
import type { SnapshotSummary } from '../../jobs/snapshot-run.js';
import type { CascadeView } from '../../reads/stats-cascade.js';
import type { Unresolved } from '../../reads/stats-common.js';
import type { DepthView } from '../../reads/stats-depth.js';
import type { GameView } from '../../reads/stats-game.js';
import type { LeadersView } from '../../reads/stats-leaders.js';
import type { LineupView } from '../../reads/stats-lineup.js';
import type { PlayerStatsView } from '../../reads/stats-player.js';
import type { MeterReading } from '../../accounts/meter.js';
import type { WireKey } from '../../wire.js';
import type { gradedRowSchema } from './rows.js';
import type { accuracySchema, modelRecordSchema, parlayAnswerSchema, scanMeterSchema, snapshotRunsSchema, teamHubSchema, tickerSchema } from './answers-core.js';
import type { preferencesSchema } from './answers-accounts.js';
import type { deskPackSchema, ghostDraftsSchema, newsletterSendSchema } from './answers-content.js';
import type { combatSchema, fightSchema, futuresSchema, liveSchema, newsSchema } from './answers-context.js';
import type { arsenalSchema, cascadeSchema, depthSchema, gameBoxSchema, leadersSchema, lineupSchema, playerStatsSchema, showcaseSchema } from './answers-stats.js';

/**
 * Compile-time ties between the code that builds an answer and its wire schema: whatever the
 * builder's type allows, once toWire has written it (snake_case keys, Dates as strings), the
 * schema accepts. A field added to a builder and not to its schema, or a value the schema does
 * not allow, is a type error here, for every variant of the answer, not only the ones the
 * contract test reaches with the bundled data. No runtime code.
 */

/** A value as toWire writes it. */
export type WireOf<T> = T extends Date
  ? string
  : T extends readonly [unknown, ...unknown[]]
    ? { [I in keyof T]: WireOf<T[I]> }
    : T extends ReadonlyArray<infer E>
      ? WireOf<E>[]
      : T extends object
        ? { [K in keyof T as K extends string ? WireKey<K> : K]: WireOf<T[K]> }
        : T;

/** true when every wire value of T is a value of the schema. */
type Accepts<S extends z.ZodType, T> = [WireOf<T>] extends [z.output<S>] ? true : false;

/** A name or team that did not resolve never reaches the body: the route throws a 404 for it. */
type Resolved<V> = Exclude<V, Unresolved | { status: string }>;

/** Routes shape each `props` row by tier (domain/tiers.ts shapeRow); the row itself is tied in rows.ts. */
type Shaped<V> = V extends { props: unknown[] } ? Omit<V, 'props'> & { props: Array<z.output<typeof gradedRowSchema>> } : V;

export const ties: Record<string, true> = {
  ticker: true satisfies Accepts<typeof tickerSchema, Ticker>,
  record: true satisfies Accepts<typeof modelRecordSchema, Awaited<ReturnType<typeof readModelRecord>> & { total: number; count: number; limit: number; entries: [] }>,
  team: true satisfies Accepts<typeof teamHubSchema, Shaped<Awaited<ReturnType<typeof buildTeamHub>>>>,
  preferences: true satisfies Accepts<typeof preferencesSchema, Preferences & { onboarding: OnboardingState }>,
  accuracy: true satisfies Accepts<typeof accuracySchema, Awaited<ReturnType<typeof readAccuracy>>>,
  parlay: true satisfies Accepts<typeof parlayAnswerSchema, Omit<ParlayResult, 'legs'> & { legs: Array<ParlayResult['legs'][number] & { modelPriceLocked: boolean }> }>,
  meter: true satisfies Accepts<typeof scanMeterSchema, MeterReading>,
  runs: true satisfies Accepts<typeof snapshotRunsSchema, { runs: SnapshotSummary[] }>,
  live: true satisfies Accepts<typeof liveSchema, LiveView>,
  news: true satisfies Accepts<typeof newsSchema, NewsView>,
  futures: true satisfies Accepts<typeof futuresSchema, FuturesView>,
  combat: true satisfies Accepts<typeof combatSchema, CombatView>,
  fight: true satisfies Accepts<typeof fightSchema, Extract<FightView, { available: true }>>,
  player: true satisfies Accepts<typeof playerStatsSchema, Shaped<Resolved<PlayerStatsView>>>,
  leaders: true satisfies Accepts<typeof leadersSchema, LeadersView>,
  game: true satisfies Accepts<typeof gameBoxSchema, GameView>,
  arsenal: true satisfies Accepts<typeof arsenalSchema, Resolved<ArsenalView>>,
  lineup: true satisfies Accepts<typeof lineupSchema, LineupView>,
  depth: true satisfies Accepts<typeof depthSchema, Resolved<DepthView>>,
  cascade: true satisfies Accepts<typeof cascadeSchema, Resolved<CascadeView>>,
  showcase: true satisfies Accepts<typeof showcaseSchema, ShowcaseView>,
  pack: true satisfies Accepts<typeof deskPackSchema, DeskPack>,
  send: true satisfies Accepts<typeof newsletterSendSchema, SendResult>,
  drafts: true satisfies Accepts<typeof ghostDraftsSchema, DraftsResult>,
};
