import { AppError } from '../errors.js';
import { contextSourceFor, providersFor, type ContextDeps, type ContextSource } from '../feeds/context.js';
import { feedLog, type ContextProviders } from '../feeds/factory.js';
import { scrubAnswer, scrubPublic } from '../feeds/public-reason.js';
import type { RunLogger } from '../feeds/sources.js';
import { ContextCache } from '../store/cache.js';
import type { ServerDeps } from './context.js';
import { keptAnswers } from '../reads/memo.js';
import { shareAnswer } from './route.js';

/**
 * What the context and stats routes share (issue 33): where their providers answer from, decided
 * per request because a snapshot run can turn a replayed store live (feeds/context.ts
 * contextSourceFor: PROPGRADE_REPLAY, else the recording a replayed store came from, else no
 * provider at all on a replayed store, else live), and the guard around each read: a bug or a
 * store failure hides the feature (200, with the reason) rather than answering 5xx, input errors
 * and UNAVAILABLE_ON_REPLAY stay what they are, and no explanation in a body carries an upstream
 * URL, host, resolver text or file path. The detail goes to the server log.
 */
export interface ContextReadOptions {
  /** Where the routes read from; default: contextSourceFor over the store and the config. */
  providers?: (deps: ServerDeps) => ContextProviders;
  cache?: ContextCache;
}

export type Guarded = (hidden: Record<string, unknown>, read: (d: ContextDeps) => Promise<unknown>, hide?: (reason: string) => unknown) => Promise<unknown>;

/** The public reason of a server whose PROPGRADE_REPLAY folder cannot be read (the path is in the log only). */
export const BROKEN_REPLAY = 'the replay folder (PROPGRADE_REPLAY) could not be read (no readable replay manifest); the server log says why';

/**
 * A read that hands back an answer it kept (reads/live.ts, while the answer is unchanged) gets the
 * same scrubbed copy back, marked shared so its bytes are made once (route.ts shareAnswer); any other
 * answer is scrubbed as it comes.
 */
const scrubbed = new WeakMap<object, unknown>();
function scrubbedOnce(answer: unknown): unknown {
  if (answer === null || typeof answer !== 'object' || !keptAnswers.has(answer)) return scrubAnswer(answer);
  let copy = scrubbed.get(answer);
  if (copy === undefined) scrubbed.set(answer, (copy = shareAnswer(scrubAnswer(answer) as object)));
  return copy;
}

export function contextGuard(deps: ServerDeps, options: ContextReadOptions = {}): Guarded {
  const cache = options.cache ?? new ContextCache(deps.store, () => deps.wallNow().getTime());
  const warn = (m: string): void => deps.log?.warn(m);
  const runLog: RunLogger = { info() {}, warn: (m) => warn(`context read: ${m}`) };
  const built = new Map<string, ContextProviders>();
  const logged = new Set<string>();
  let injected: ContextProviders | null = null;

  const providers = async (): Promise<ContextProviders | { failure: string }> => {
    if (options.providers) return (injected ??= options.providers(deps));
    const source: ContextSource = await contextSourceFor(deps.store, deps.config, { replayDir: null, recordDir: null });
    const key = source.kind === 'replay' ? `replay:${source.dir}` : source.kind;
    const kept = built.get(key);
    if (kept) return kept;
    try {
      const made = providersFor(deps.config, source, { recordDir: null, now: () => deps.now(), log: feedLog(runLog), ...(deps.liveTransport ? { live: deps.liveTransport } : {}) });
      built.set(key, made);
      return made;
    } catch (err) {
      // Built again on the next request (the folder may come back); logged once per distinct failure.
      const detail = err instanceof Error ? err.message : String(err);
      if (!logged.has(detail)) {
        logged.add(detail);
        warn(`context reads: ${detail}`);
      }
      return { failure: BROKEN_REPLAY };
    }
  };

  return async (hidden, read, hide = (reason) => ({ ...hidden, available: false, reason })) => {
    let d: ContextProviders | { failure: string };
    try {
      d = await providers();
    } catch (err) {
      warn(`context reads: ${err instanceof Error ? err.message : String(err)}`);
      return hide('internal error while reading this feature; it stays hidden until a read succeeds');
    }
    if ('failure' in d) return hide(d.failure);
    try {
      return scrubbedOnce(await read({ store: deps.store, config: deps.config, cache, providers: d, now: deps.now(), forSport: (sport) => deps.now(sport), wallNow: deps.wallNow, log: runLog }));
    } catch (err) {
      if (err instanceof AppError) throw new AppError(err.code, scrubPublic(err.message), { ...(err.details !== undefined ? { details: err.details } : {}) });
      warn(`context read failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return hide('internal error while reading this feature; it stays hidden until a read succeeds');
    }
  };
}
