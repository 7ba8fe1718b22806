import type { ProviderId } from './types.js';

/**
 * Where each provider is reached (issue 34). Adapters always build URLs on the provider's own
 * origin, so replay keys and recordings stay the same whoever serves them; only the live wire
 * request is sent to a configured base instead (a caching proxy, a loopback stand-in in tests).
 */
export const PROVIDER_ORIGINS = {
  ODDS_API_BASE_URL: 'https://api.the-odds-api.com',
  ESPN_BASE_URL: 'https://site.api.espn.com',
  ESPN_WEB_BASE_URL: 'https://site.web.api.espn.com',
  MLB_STATSAPI_BASE_URL: 'https://statsapi.mlb.com',
  SAVANT_BASE_URL: 'https://baseballsavant.mlb.com',
} as const;

export type ProviderBaseVar = keyof typeof PROVIDER_ORIGINS;

/** A provider's own origin -> the base URL requests for it go to (no trailing slash). */
export type OriginMap = Readonly<Record<string, string>>;

/** The origin map from validated config values (src/config.ts checks scheme and host); unset ones are left out. */
export function originMap(bases: Partial<Record<ProviderBaseVar, string | undefined>>): OriginMap {
  const out: Record<string, string> = {};
  for (const [name, origin] of Object.entries(PROVIDER_ORIGINS) as Array<[ProviderBaseVar, string]>) {
    const base = bases[name];
    if (base) out[origin] = base.replace(/\/+$/, '');
  }
  return out;
}

/** The URL the request goes to on the wire: same path and query under the configured base. */
export function wireUrlFor(url: string, origins: OriginMap | undefined): string {
  if (!origins) return url;
  const parsed = new URL(url);
  const base = origins[parsed.origin];
  return base ? `${base}${parsed.pathname}${parsed.search}` : url;
}

/** How a failure names its provider: a person reads it, so never a host or a key. */
export const PROVIDER_NAMES: Record<ProviderId, string> = {
  'odds-api': 'The Odds API',
  espn: 'ESPN',
  'mlb-statsapi': 'the MLB Stats API',
  savant: 'Baseball Savant',
};
