import net from 'node:net';
import type { FetchRequest, Transport } from '../../src/feeds/transport/types.js';

/**
 * Belt and braces for "a replayed store makes no outbound request" (issue 33): every socket this
 * process opens to anything but loopback is refused and remembered (undici, node:http, tls and
 * fetch all connect through net.Socket), and so is a call to the global fetch. The injected
 * transport is the first proof; this one catches a path that bypasses it.
 */
export interface NetworkGuard {
  /** Non-loopback destinations something tried to reach, in order. */
  readonly attempts: string[];
  restore(): void;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1']);

export function guardNetwork(): NetworkGuard {
  const attempts: string[] = [];
  const proto = net.Socket.prototype as unknown as { connect: (...args: unknown[]) => net.Socket };
  const connect = proto.connect;
  const originalFetch = globalThis.fetch;
  proto.connect = function (this: net.Socket, ...args: unknown[]) {
    const first = args[0];
    const opts = (Array.isArray(first) ? first[0] : first) as { host?: string; port?: number; path?: string } | number | string;
    let host: string | null = null;
    if (typeof opts === 'number') host = typeof args[1] === 'string' ? args[1] : 'localhost';
    else if (typeof opts === 'object' && opts !== null && opts.path === undefined) host = opts.host ?? 'localhost';
    if (host !== null && !LOOPBACK.has(host)) {
      attempts.push(host);
      process.nextTick(() => this.destroy(new Error(`test network guard: outbound connection to ${host} refused`)));
      return this;
    }
    return connect.apply(this, args);
  };
  globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    if (!LOOPBACK.has(url.hostname.replace(/^\[|\]$/g, ''))) {
      attempts.push(url.hostname);
      throw new Error(`test network guard: fetch to ${url.hostname} refused`);
    }
    return originalFetch(input, init);
  }) as typeof fetch;
  return {
    attempts,
    restore() {
      proto.connect = connect;
      globalThis.fetch = originalFetch;
    },
  };
}

/** A provider transport that must never be asked: every call is remembered (the test asserts none) and fails. */
export function forbiddenTransport(): Transport & { calls: FetchRequest[] } {
  const calls: FetchRequest[] = [];
  return {
    kind: 'live',
    calls,
    async fetch(request) {
      calls.push(request);
      return { ok: false, status: null, reason: `forbidden transport: a replayed store asked ${request.url}` };
    },
  };
}
