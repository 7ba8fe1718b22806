/**
 * `feeds check`: the operators' doctor. Fetches provider responses (from a replay folder, or a
 * fixed live probe list), runs each through the real adapter for its kind (src/feeds/check), and
 * reports per provider and kind what answered, how many records parsed, and every warning the
 * adapters raised.
 */
import { easternDate } from '../domain/time.js';
import { liveProbes, probeLive, probeReplayFolder, type ProbeBases } from '../feeds/check/probes.js';
import type { Transport } from '../feeds/transport/types.js';
import { summarise, type FeedsCheckReport } from './feeds-check-report.js';

export type { FeedsCheckReport, ProviderReport } from './feeds-check-report.js';
export type { ProbeBases } from '../feeds/check/probes.js';

/** A replay folder's check. A missing or invalid manifest is a configuration error (AppError BAD_INPUT). */
export async function checkReplayFolder(dir: string): Promise<FeedsCheckReport> {
  const { entries, warnings } = await probeReplayFolder(dir);
  const providers = summarise(entries, {}, 'no recordings for this provider in the folder');
  const used = providers.filter((p) => p.entries > 0);
  return {
    mode: 'replay',
    source: dir,
    date: null,
    ok: warnings.length === 0 && used.length > 0 && used.every((p) => p.ok),
    providers,
    entries,
    warnings,
  };
}

export const NO_ODDS_KEY = 'ODDS_API_KEY is not set: Odds API probes skipped (ESPN, MLB Stats API and Savant need no key)';

export interface LiveCheckOptions {
  /** Slate date (yyyy-mm-dd); default: today in US Eastern time by `now`. */
  date?: string;
  now: Date;
  oddsApiKey?: string | undefined;
  bases?: ProbeBases;
}

/** Probes every provider live through `transport` (live or record); the key travels only as a secret query. */
export async function checkLive(transport: Transport, opts: LiveCheckOptions): Promise<FeedsCheckReport> {
  const date = opts.date ?? easternDate(opts.now);
  const withOddsApi = Boolean(opts.oddsApiKey);
  const probes = liveProbes(date, { withOddsApi, ...(opts.bases ? { bases: opts.bases } : {}) });
  const entries = await probeLive(transport, probes, opts.oddsApiKey);
  const providers = summarise(entries, withOddsApi ? {} : { 'odds-api': NO_ODDS_KEY }, null);
  return {
    mode: 'live',
    source: 'live',
    date,
    ok: providers.every((p) => p.ok),
    providers,
    entries,
    warnings: [],
  };
}
