import pLimit from 'p-limit';
import type { GameEvent } from '../domain/entities.js';
import type { GradedSport } from '../domain/sports.js';
import { easternDate } from '../domain/time.js';
import type { OddsSource, RunLogger } from '../feeds/sources.js';

/** What a snapshot run reads from the odds source before grading: the slate's events and their props. */
export interface SlateFetchOptions {
  odds: OddsSource;
  /** The run's data clock: which ET date is the slate, and which games have started. */
  now: Date;
  log: RunLogger;
  /** Events whose props are fetched at once (default 4). */
  concurrency?: number;
}

export type Fetched = { kind: 'ok'; events: GameEvent[]; quotes: Awaited<ReturnType<OddsSource['propQuotes']>> & object } | { kind: 'failed'; message: string };

/** Events of the ET slate date that have not started; then their props, a few at a time. */
export async function fetchSlate(sport: GradedSport, opts: SlateFetchOptions, slateDate: string): Promise<Fetched> {
  const all = await opts.odds.events(sport);
  if (all === null) return { kind: 'failed', message: `${sport} events feed unavailable${because(opts.odds)}` };
  const nowIso = opts.now.toISOString();
  const events = all.filter((e) => easternDate(new Date(e.commenceTime)) === slateDate && e.commenceTime > nowIso);
  const limit = pLimit(opts.concurrency ?? 4);
  let failures = 0;
  const perEvent = await Promise.all(
    events.map((event) =>
      limit(async () => {
        const quotes = await opts.odds.propQuotes(sport, event);
        if (quotes === null) failures += 1;
        return quotes ?? [];
      }),
    ),
  );
  if (events.length > 0 && failures === events.length) return { kind: 'failed', message: `${sport} prop odds unavailable for all ${events.length} events${because(opts.odds)}` };
  if (failures > 0) opts.log.warn(`${sport}: prop odds unavailable for ${failures} of ${events.length} events`, { sport });
  return { kind: 'ok', events, quotes: perEvent.flat() };
}

/** The source's own words for the last failure, when it has them. */
function because(odds: OddsSource): string {
  const why = odds.lastFailure?.() ?? null;
  return why ? `: ${why}` : '';
}
