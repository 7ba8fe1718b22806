import type { Transport } from '../feeds/transport/types.js';
import type { LiveTransportOptions } from '../feeds/transport/live.js';

/** Where a command writes. Injected so tests capture output without spawning a process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stdout is an interactive terminal (colour, prompts). */
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
  /** Test seam: the live transport's patience and wall-clock timers (timeouts, back-off sleep). */
  live?: Partial<LiveTransportOptions>;
  /** Set by a command whose work completed but whose outcome is a failure (e.g. a failed run). */
  exitCode?: 0 | 1 | 2;
  /** The transport the context views' live reads go through, when a test injects one; else the network. */
  transport?: Transport;
}

/** The real process streams. Kept apart from _io.ts so start-up loads no table or colour library. */
export function processIO(): CliIO {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    isTTY: Boolean(process.stdout.isTTY),
    env: process.env,
  };
}
