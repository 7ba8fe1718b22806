import { BlockList, isIP } from 'node:net';
import type { H3Event } from 'h3';
import type { Env } from '../config.js';

/**
 * The client address every per-address limit and meter keys on (docs/api.md "Trusted proxies").
 * From a peer in TRUSTED_PROXIES, the nearest untrusted hop of X-Forwarded-For (or
 * TRUSTED_PROXY_IP_HEADER): the chain is walked right to left, skipping trusted addresses, because
 * every hop left of the first untrusted one was written by whoever sent the request. From any
 * other peer the header is ignored: a caller reaching the server directly cannot pick its address.
 */

const DEFAULT_HEADER = 'x-forwarded-for';

interface Trust {
  list: BlockList;
  header: string;
}

const trusts = new WeakMap<Env, Trust | null>();

/** The BlockList of TRUSTED_PROXIES, built once per config (null: no proxy is trusted). */
function trustOf(config: Env): Trust | null {
  let trust = trusts.get(config);
  if (trust === undefined) {
    const entries = config.TRUSTED_PROXIES;
    if (!entries || entries.length === 0) trust = null;
    else {
      const list = new BlockList();
      for (const entry of entries) {
        const [address, prefix] = entry.split('/') as [string, string | undefined];
        const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
        if (prefix === undefined) list.addAddress(address, type);
        else list.addSubnet(address, Number(prefix), type);
      }
      trust = { list, header: config.TRUSTED_PROXY_IP_HEADER ?? DEFAULT_HEADER };
    }
    trusts.set(config, trust);
  }
  return trust;
}

/** A plain address: `::ffff:a.b.c.d` as a.b.c.d, `[v6]:port` and `a.b.c.d:port` without the port; null when not an address. */
export function normalizeAddress(raw: string): string | null {
  let s = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(s);
  if (bracketed) s = bracketed[1]!;
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d{1,5}$/.test(s)) s = s.slice(0, s.lastIndexOf(':'));
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(s);
  if (mapped) s = mapped[1]!;
  return isIP(s) === 0 ? null : s.toLowerCase();
}

function isTrusted(list: BlockList, address: string): boolean {
  return list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The nearest untrusted hop of `chain` (comma-separated, oldest first), or `peer` when every hop is
 * trusted. A hop that is not an address stops the walk at the last trusted hop before it: the
 * caller cannot be told apart, so it shares that proxy's budget rather than naming its own.
 */
export function nearestUntrusted(list: BlockList, peer: string, chain: readonly string[]): string {
  let nearest = peer;
  for (let i = chain.length - 1; i >= 0; i -= 1) {
    const hop = normalizeAddress(chain[i]!);
    if (hop === null) return nearest;
    if (!isTrusted(list, hop)) return hop;
    nearest = hop;
  }
  return nearest;
}

/** The eight 16-bit groups of an IPv6 address (`isIP(a) === 6`), an embedded dotted quad read as the last two; null when it does not parse. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const quad = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const head = part(halves[0]!);
  const tail = halves.length === 2 ? part(halves[1]!) : [];
  const fill = 8 - head.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  const groups = [...head, ...Array<number>(fill).fill(0), ...tail];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/**
 * The caller a per-address limit or meter counts (docs/api.md "Limits"): an IPv4 address as it is;
 * an IPv6 address as its /64, written canonically (`2001:db8:0:0::/64`), because one subscriber or
 * host is handed a whole /64 and picks any address in it at will; an IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`, `::ffff:c000:201`) as the IPv4 address it carries. Anything else unchanged.
 */
export function callerOfAddress(address: string): string {
  if (isIP(address) !== 6) return address;
  const g = ipv6Groups(address);
  if (g === null) return address;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
  return `${g
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(':')}::/64`;
}

/** What the per-address limits and meters of this request key on: the client address (below) as its caller (`callerOfAddress`). */
export function clientCaller(event: H3Event, config: Env): string {
  return callerOfAddress(clientAddress(event, config));
}

/** The address the per-address limits of this request key on (see the file comment). */
export function clientAddress(event: H3Event, config: Env): string {
  const raw = event.node.req.socket.remoteAddress;
  const peer = raw ? normalizeAddress(raw) : null;
  if (peer === null) return raw ?? 'unknown';
  const trust = trustOf(config);
  if (trust === null || !isTrusted(trust.list, peer)) return peer;
  const value = event.node.req.headers[trust.header];
  // node joins repeated X-Forwarded-For lines with ', '; any other repeated header arrives as an array.
  const chain = (Array.isArray(value) ? value.join(',') : (value ?? '')).split(',').filter((h) => h.trim() !== '');
  return nearestUntrusted(trust.list, peer, chain);
}

/** The start-up warning for TRUSTED_PROXY_IP_HEADER without TRUSTED_PROXIES (it used to be believed from anyone). */
export function proxySettingsWarning(config: Env): string | null {
  if (config.TRUSTED_PROXY_IP_HEADER === undefined || (config.TRUSTED_PROXIES ?? []).length > 0) return null;
  return `TRUSTED_PROXY_IP_HEADER (${config.TRUSTED_PROXY_IP_HEADER}) is ignored without TRUSTED_PROXIES: name your proxy's addresses (e.g. TRUSTED_PROXIES=10.0.0.0/8) so the header is believed from it alone; until then every per-address limit keys on the socket address`;
}
