import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PROVIDER_ORIGINS, type ProviderBaseVar } from '../../src/feeds/transport/origins.js';
import { readReplayManifest, selectReplayEntry } from '../../src/feeds/transport/replay.js';
import { replayKey } from '../../src/feeds/transport/replay-key.js';
import type { ProviderId } from '../../src/feeds/transport/types.js';

/**
 * A loopback stand-in for the providers (issue 34): a real node:http server on 127.0.0.1 that
 * answers from a recording (data/replay) the way the providers do. Each provider lives under its
 * own path prefix, so `env` points ODDS_API_BASE_URL, ESPN_BASE_URL, ... at it. The Odds API's
 * apiKey is checked (401 with its JSON error body on a wrong one) and every Odds API answer carries
 * x-requests-used / -remaining / -last, priced as its documentation says: markets x regions for
 * odds, nothing for the events list. A fault (429 with Retry-After, 5xx, a slow or a truncated
 * body) can be set per test, for one provider, for the next N requests or all of them.
 */

const MOUNTS: Record<ProviderBaseVar, { prefix: string; provider: ProviderId }> = {
  ODDS_API_BASE_URL: { prefix: '/odds-api', provider: 'odds-api' },
  ESPN_BASE_URL: { prefix: '/espn', provider: 'espn' },
  ESPN_WEB_BASE_URL: { prefix: '/espn-web', provider: 'espn' },
  MLB_STATSAPI_BASE_URL: { prefix: '/mlb-statsapi', provider: 'mlb-statsapi' },
  SAVANT_BASE_URL: { prefix: '/savant', provider: 'savant' },
};

/** The Odds API's answer to a wrong key (api-error-codes: INVALID_KEY). */
export const INVALID_KEY_BODY = {
  message: 'API key is not valid. Please check that the key is correct and has not expired.',
  error_code: 'INVALID_KEY',
  details_url: 'https://the-odds-api.com/liveapi/guides/v4/api-error-codes.html#invalid-key',
};

export type Fault =
  | { kind: '429'; retryAfterSeconds: number }
  | { kind: '5xx'; status?: number }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'truncated' };

export interface ServedRequest {
  provider: ProviderId;
  /** Path and query as the provider saw it, apiKey masked. */
  path: string;
  status: number;
  /** x-requests-last sent with it (Odds API answers only). */
  creditsLast: number | null;
}

export interface ProviderStandin {
  /** The environment that points every provider at the stand-in. */
  env: Record<ProviderBaseVar, string>;
  served: ServedRequest[];
  /** Sum of x-requests-last the stand-in sent. */
  creditsCharged(): number;
  /** The recorded time the stand-in answers as of (its entries recorded at or before it). */
  setNow(iso: string): void;
  /** Sets a fault for a provider: the next `times` requests (default every one) get it. */
  fault(provider: ProviderId, fault: Fault, times?: number): void;
  clearFaults(): void;
  close(): Promise<void>;
}

export interface StandinOptions {
  dir: string;
  apiKey: string;
  now: string;
  /** The account's quota before this run (x-requests-remaining counts down from it). */
  quota?: number;
}

export async function startProviderStandin(opts: StandinOptions): Promise<ProviderStandin> {
  const manifest = readReplayManifest(opts.dir);
  const quota = opts.quota ?? 20_000;
  let now = new Date(opts.now);
  let used = 0;
  let charged = 0;
  const served: ServedRequest[] = [];
  const faults = new Map<ProviderId, { fault: Fault; left: number }>();

  const answer = (req: IncomingMessage, res: ServerResponse): void => {
    const raw = new URL(req.url ?? '/', 'http://127.0.0.1');
    const mount = Object.entries(MOUNTS).find(([, m]) => raw.pathname.startsWith(`${m.prefix}/`));
    if (!mount) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such provider');
    const [name, { prefix, provider }] = mount as [ProviderBaseVar, (typeof MOUNTS)[ProviderBaseVar]];
    const path = raw.pathname.slice(prefix.length);
    const masked = new URL(raw);
    if (masked.searchParams.has('apiKey')) masked.searchParams.set('apiKey', '***');
    const log = (status: number, creditsLast: number | null = null) =>
      served.push({ provider, path: `${path}${masked.search}`, status, creditsLast });

    if (provider === 'odds-api' && raw.searchParams.get('apiKey') !== opts.apiKey) {
      log(401);
      return void res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify(INVALID_KEY_BODY));
    }
    const active = faults.get(provider);
    let bodyFault: Fault | null = null;
    if (active && active.left > 0) {
      active.left -= 1;
      const f = active.fault;
      if (f.kind === '429') {
        log(429);
        return void res
          .writeHead(429, { 'content-type': 'application/json', 'retry-after': String(f.retryAfterSeconds) })
          .end(JSON.stringify({ message: 'Too many requests', error_code: 'EXCEEDED_FREQ_LIMIT' }));
      }
      if (f.kind === '5xx') {
        log(f.status ?? 503);
        return void res.writeHead(f.status ?? 503, { 'content-type': 'text/html' }).end('<html><body>Service Unavailable</body></html>');
      }
      bodyFault = f; // slow and truncated are served from the real payload below
    }

    const query = new URLSearchParams(raw.search);
    query.delete('apiKey');
    const canonical = `${PROVIDER_ORIGINS[name]}${path}${query.size > 0 ? `?${query.toString()}` : ''}`;
    const entry = selectReplayEntry(manifest.entries, replayKey({ provider, url: canonical }), now);
    if (!entry) {
      log(404);
      return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Not found' }));
    }
    const body = readFileSync(join(opts.dir, entry.file));
    const headers: Record<string, string> = { 'content-type': entry.headers['content-type'] ?? 'application/json', 'content-length': String(body.length) };
    let last: number | null = null;
    if (provider === 'odds-api') {
      last = entry.status >= 200 && entry.status < 300 ? costOf(path, query) : 0;
      used += last;
      charged += last;
      Object.assign(headers, { 'x-requests-last': String(last), 'x-requests-used': String(used), 'x-requests-remaining': String(quota - used) });
    }
    log(entry.status, last);
    res.writeHead(entry.status, headers);
    const half = Math.floor(body.length / 2);
    if (bodyFault?.kind === 'slow') {
      // Headers at once, half the body, the rest after the delay (or never, if the client gives up).
      res.write(body.subarray(0, half));
      const timer = setTimeout(() => res.end(body.subarray(half)), bodyFault.delayMs);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    if (bodyFault?.kind === 'truncated') {
      // The length promised, half the bytes sent, then the connection dropped.
      res.write(body.subarray(0, half), () => res.destroy());
      return;
    }
    res.end(body);
  };

  const server: Server = createServer((req, res) => {
    try {
      answer(req, res);
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`stand-in error: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const env = Object.fromEntries(Object.entries(MOUNTS).map(([name, m]) => [name, `${origin}${m.prefix}`])) as Record<ProviderBaseVar, string>;

  return {
    env,
    served,
    creditsCharged: () => charged,
    setNow: (iso) => {
      now = new Date(iso);
    },
    fault: (provider, fault, times = Number.POSITIVE_INFINITY) => void faults.set(provider, { fault, left: times }),
    clearFaults: () => faults.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What The Odds API bills a call: markets x regions (a bookmakers list: per started 10) for odds, 0 for the events list. */
function costOf(path: string, query: URLSearchParams): number {
  const priced = /^\/v4\/sports\/[^/]+\/(events\/[^/]+\/)?odds\/?$/.test(path);
  if (!priced) return 0;
  const count = (name: string) => new Set((query.get(name) ?? '').split(',').map((s) => s.trim()).filter(Boolean)).size;
  const regions = query.has('bookmakers') ? Math.ceil(count('bookmakers') / 10) : count('regions');
  return Math.max(1, count('markets')) * regions;
}
