import { isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_DISPLAY_ZONE, isTimeZone } from './domain/time.js';
import { secretsOf } from './log.js';
import { AppError, describeZodIssues } from './errors.js';

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

const csv = z
  .string()
  .optional()
  .transform((v) =>
    v === undefined || v.trim() === ''
      ? null
      : v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
  );

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected yyyy-mm-dd');


/**
 * A provider origin (issue 34): https anywhere; plain http only to a loopback host, so a key is
 * never sent in clear. A path prefix is kept (a caching proxy may mount a provider under one).
 */
const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;
const parsedUrl = (v: string): URL | null => (URL.canParse(v) ? new URL(v) : null);
const providerBaseUrl = z
  .url({ protocol: /^https?$/, error: 'expected an http(s) URL such as https://api.the-odds-api.com' })
  .refine((v) => {
    const u = parsedUrl(v);
    return u === null || u.protocol !== 'http:' || LOOPBACK_HOSTS.test(u.hostname);
  }, 'must be https (plain http only for a loopback host: 127.0.0.0/8, ::1, localhost), so a key is never sent in clear')
  .refine((v) => {
    const u = parsedUrl(v);
    return u === null || (u.search === '' && u.hash === '' && u.username === '' && u.password === '');
  }, 'must be an origin with an optional path: no query, fragment or credentials')
  .transform((v) => v.replace(/\/+$/, ''))
  .optional();

/** Every environment variable propgrade reads, validated once. README documents each. */
export const envSchema = z.object({
  PROPGRADE_DB: z.string().min(1).optional(),
  /** Connections per process to a PostgreSQL store (serve's concurrent reads); ignored for SQLite. */
  PROPGRADE_DB_POOL: z.coerce.number().int().min(1).max(200).default(10),
  PROPGRADE_NOW: z.iso.datetime({ offset: true }).optional(),
  PROPGRADE_REPLAY: z.string().min(1).optional(),
  /** text (default) or json: one JSON object per log line of serve and of every run (docs/operations.md). */
  PROPGRADE_LOG_FORMAT: z.enum(['text', 'json']).default('text'),
  SNAPSHOT_CRON: flag,
  FUTURES_ENABLED: flag,
  /** Manual ticker pins, `text|text|...`; each becomes a pinned ticker item. */
  TICKER_MANUAL: z
    .string()
    .optional()
    .transform((v) => (v ? v.split('|').map((s) => s.trim()).filter(Boolean) : [])),
  /** Minutes between scheduled snapshot runs; drives the sync status thresholds. */
  SNAPSHOT_EXPECTED_INTERVAL: z.coerce.number().int().positive().default(180),
  FOUNDER_CODE_EXPIRY: isoDate.default('2026-12-31'),
  ODDS_API_KEY: z.string().min(1).optional(),
  ODDS_API_REGIONS: z.string().default('us'),
  /** Daily Odds API credit budget for snapshot runs; futures sit outside it. */
  ODDS_API_DAILY_BUDGET: z.coerce.number().int().nonnegative().optional(),
  // Provider origins (issue 34): unset = the provider's own host. README "Configuration".
  ODDS_API_BASE_URL: providerBaseUrl,
  ESPN_BASE_URL: providerBaseUrl,
  ESPN_WEB_BASE_URL: providerBaseUrl,
  MLB_STATSAPI_BASE_URL: providerBaseUrl,
  SAVANT_BASE_URL: providerBaseUrl,
  /** Books whose prices are allowed; unset = every book the feed returns. */
  ALLOWED_BOOKS: csv,
  INTERNAL_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  CORS_ORIGIN: z.string().optional(),
  DESK_ALLOWLIST: csv,
  /** IANA zone for times in tables (tip times, ticker); JSON keeps ISO-8601 UTC. */
  PROPGRADE_TZ: z
    .string()
    .refine((z) => isTimeZone(z), { error: (iss) => `'${String(iss.input)}' is not a time zone (e.g. America/New_York, Europe/London)` })
    .default(DEFAULT_DISPLAY_ZONE),
  // Content desk (issue 14): listmonk (newsletter), Ghost (drafts), the desk-pack-ready webhook.
  LISTMONK_URL: z.url().optional(),
  LISTMONK_USER: z.string().min(1).optional(),
  LISTMONK_TOKEN: z.string().min(1).optional(),
  LISTMONK_LIST_ID: z.coerce.number().int().positive().optional(),
  GHOST_URL: z.url().optional(),
  /** Ghost Admin API key, `<id>:<secret>` as Ghost prints it. */
  GHOST_ADMIN_KEY: z
    .string()
    .regex(/^[0-9a-f]+:[0-9a-f]+$/, 'expected <id>:<hex secret> as Ghost shows it')
    .optional(),
  DESK_NOTIFY_WEBHOOK: z.url().optional(),
  /**
   * The proxies in front of the server, `addr` or `addr/prefix` (IPv4 or IPv6), comma-separated. From
   * a peer in this list, per-address limits key on the nearest untrusted hop of X-Forwarded-For (or
   * TRUSTED_PROXY_IP_HEADER); from anyone else the header is ignored. Unset: no proxy is trusted.
   */
  TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return null;
      const out: string[] = [];
      for (const entry of v.split(',').map((e) => e.trim()).filter(Boolean)) {
        const [address = '', prefix, extra] = entry.split('/');
        const family = isIP(address);
        const bits = family === 4 ? 32 : 128;
        if (family === 0 || extra !== undefined || (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits))) {
          ctx.addIssue({ code: 'custom', message: `'${entry}' is not an IPv4 or IPv6 address or CIDR (e.g. 10.0.0.0/8, 127.0.0.1, fd00::/8)` });
          return z.NEVER;
        }
        out.push(prefix === undefined ? address : `${address}/${Number(prefix)}`);
      }
      return out;
    }),
  /**
   * The header a trusted proxy writes the client chain to (default x-forwarded-for). Believed only
   * from a TRUSTED_PROXIES peer: set without TRUSTED_PROXIES it is ignored, and `serve` says so.
   */
  TRUSTED_PROXY_IP_HEADER: z
    .string()
    .regex(/^[a-z0-9-]+$/i, 'expected a header name')
    .transform((h) => h.toLowerCase())
    .optional(),
  // Accounts and billing (issue 15).
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** price id -> tier, e.g. `price_a:analyst,price_d:desk`. */
  STRIPE_PRICE_TIERS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const map: Record<string, 'free' | 'analyst' | 'desk'> = {};
      if (v === undefined || v.trim() === '') return map;
      for (const pair of v.split(',').map((p) => p.trim()).filter(Boolean)) {
        const [price, tier] = pair.split(':').map((x) => x.trim());
        if (!price || (tier !== 'free' && tier !== 'analyst' && tier !== 'desk')) {
          ctx.addIssue({ code: 'custom', message: `'${pair}' is not price_id:tier (tier free, analyst or desk)` });
          return z.NEVER;
        }
        map[price] = tier;
      }
      return map;
    }),
  BILLING_RETURN_URL: z.url().optional(),
  /** Users created on or after this date without onboarding_complete are sent to onboarding. */
  ONBOARDING_CUTOFF: isoDate.default('2026-01-01'),
  /** Founder pricing codes users may redeem (until FOUNDER_CODE_EXPIRY). */
  FOUNDER_CODES: csv,
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().default('127.0.0.1'),
  /** Sockets `serve` holds open at once (node's server.maxConnections); past it a new connection is closed at once. */
  PROPGRADE_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(65_536).default(1024),
  /** Process RSS (MB) past which `serve` recycles its OCR worker after a read, giving back the engine's grown heap; 0 = never. */
  OCR_RECYCLE_RSS_MB: z.coerce.number().int().min(0).max(1_048_576).default(512),
});

export type Env = z.infer<typeof envSchema>;

/** Parses the environment; a bad value fails fast with the variable's name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new AppError('BAD_INPUT', `invalid environment: ${describeZodIssues(parsed.error.issues, '', env)}`);
  }
  return parsed.data;
}

/** The configured secrets, which no log line may show (log.ts redacts them). */
export function secretValues(env: Env): string[] {
  return secretsOf(env as unknown as Record<string, string | undefined>);
}
