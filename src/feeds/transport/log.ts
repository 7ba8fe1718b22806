/**
 * Where adapters and transports report dropped data, unknown shapes and unavailable feeds.
 * Adapters never print; the caller decides whether warnings go to stderr, a run log or a test.
 */
export interface FeedLogger {
  warn(msg: string, detail?: unknown): void;
}

export interface FeedWarning {
  msg: string;
  detail?: unknown;
}

export interface CollectingLogger extends FeedLogger {
  readonly warnings: FeedWarning[];
}

/** Keeps every warning in memory, in order (the `feeds check` doctor and tests read them back). */
export function createCollectingLogger(): CollectingLogger {
  const warnings: FeedWarning[] = [];
  return {
    warnings,
    warn(msg, detail) {
      warnings.push(detail === undefined ? { msg } : { msg, detail });
    },
  };
}

/** Discards warnings; for callers that only want the records. */
export const silentLogger: FeedLogger = { warn() {} };
