import { AppError } from '../../errors.js';
import { createLiveTransport, LIVE_DEFAULTS, type LiveTransportOptions } from './live.js';
import type { FeedLogger } from './log.js';
import { createRecordTransport } from './record.js';
import { createReplayTransport, readReplayManifest } from './replay.js';
import type { Transport } from './types.js';

export type { FetchFailure, FetchOutcome, FetchRequest, FetchSuccess, ProviderId, ReplayEntry, Transport } from './types.js';
export { createCollectingLogger, silentLogger, type CollectingLogger, type FeedLogger, type FeedWarning } from './log.js';
export { createLiveTransport, LIVE_DEFAULTS, type LiveTransportOptions } from './live.js';
export { createRecordTransport, type RecordTransportOptions } from './record.js';
export { createReplayTransport, readReplayManifest, type ReplayManifest } from './replay.js';
export { redactUrl, replayKey } from './replay-key.js';
export { originMap, PROVIDER_NAMES, PROVIDER_ORIGINS, wireUrlFor, type OriginMap, type ProviderBaseVar } from './origins.js';

export interface TransportConfig {
  /** --replay <dir>; wins over env PROPGRADE_REPLAY. */
  replayDir?: string;
  /** --record <dir>. */
  recordDir?: string;
  env?: { ODDS_API_KEY?: string | undefined; PROPGRADE_REPLAY?: string | undefined };
  /** The run's clock: replay picks snapshots by it, record stamps recordings with it. */
  now?: () => Date;
  live?: Partial<LiveTransportOptions>;
  log?: FeedLogger;
}

/**
 * Picks the transport for a run: replay when a folder is given (flag or PROPGRADE_REPLAY),
 * record when asked, live when a provider key is configured. Anything else is a configuration
 * error, so this is the one place in the feed layer that throws.
 */
export function createTransport(config: TransportConfig): Transport {
  const env = config.env ?? {};
  if (config.replayDir && config.recordDir) {
    throw new AppError('BAD_INPUT', 'choose either --replay <dir> or --record <dir>, not both');
  }
  const live = () => createLiveTransport({ ...LIVE_DEFAULTS, ...config.live });
  if (config.recordDir) {
    return createRecordTransport(live(), config.recordDir, {
      now: config.now ?? (() => new Date()),
      ...(config.log ? { log: config.log } : {}),
    });
  }
  const replayDir = config.replayDir ?? env.PROPGRADE_REPLAY;
  if (replayDir) {
    readReplayManifest(replayDir); // fail fast on a missing or invalid folder
    return createReplayTransport(replayDir, config.now ? { now: config.now } : {});
  }
  if (env.ODDS_API_KEY) return live();
  throw new AppError(
    'BAD_INPUT',
    'no data source configured: run with `--replay data/replay` to use the bundled recorded data, ' +
      'or set ODDS_API_KEY for live odds (add `--record <dir>` to save what a live run fetches)',
  );
}
