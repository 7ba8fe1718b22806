import { z } from 'zod';
import { DEFAULT_DISPLAY_ZONE, isTimeZone } from './domain/time.js';
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

/** Every environment variable propgrade reads, validated once. README documents each. */
export const envSchema = z.object({
  PROPGRADE_DB: z.string().min(1).optional(),
  PROPGRADE_NOW: z.iso.datetime({ offset: true }).optional(),
  PROPGRADE_REPLAY: z.string().min(1).optional(),
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
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().default('127.0.0.1'),
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
