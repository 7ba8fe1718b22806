/**
 * A transport answers provider requests. Three implementations share this interface:
 * live (undici), replay (recorded folder, no network) and record (live + write to a folder).
 * Transports never throw to adapters: a failure is a `FetchOutcome` with ok=false and a reason.
 */
export type ProviderId = 'odds-api' | 'espn' | 'mlb-statsapi' | 'savant';

export interface FetchRequest {
  provider: ProviderId;
  /** Absolute URL. Credentials are added by the transport, never part of this URL. */
  url: string;
  /** Query parameters that are credentials (e.g. apiKey): sent live, stripped from recordings and logs. */
  secretQuery?: Record<string, string>;
  /** What the response body is expected to be. */
  accept?: 'json' | 'text';
}

export interface FetchSuccess {
  ok: true;
  status: number;
  headers: Record<string, string>;
  /** Raw body text; adapters parse JSON/CSV themselves so unknown shapes degrade to null. */
  body: string;
  /** 'live' | 'replay' */
  source: 'live' | 'replay';
}

export interface FetchFailure {
  ok: false;
  /** HTTP status when one was received. */
  status: number | null;
  reason: string;
}

export type FetchOutcome = FetchSuccess | FetchFailure;

export interface Transport {
  readonly kind: 'live' | 'replay' | 'record';
  fetch(request: FetchRequest): Promise<FetchOutcome>;
  close?(): Promise<void>;
}

/**
 * Replay folder layout (shared by the replay and record transports, by tests and by data/):
 *   <dir>/manifest.json  = { "version": 1, "entries": [ { "key", "file", "status", "headers" } ] }
 *   <dir>/<file>         = the recorded response body, byte for byte
 * `key` is `replayKey(request)`: "<provider> GET <origin><path>?<query sorted, credentials removed>".
 */
export interface ReplayEntry {
  key: string;
  file: string;
  status: number;
  headers: Record<string, string>;
  /** Optional: the clock time the response was recorded at (ISO). Lets a replay hold several snapshots. */
  recordedAt?: string;
}
