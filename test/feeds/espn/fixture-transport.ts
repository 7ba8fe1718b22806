import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FetchOutcome, FetchRequest, Transport } from '../../../src/feeds/transport/types.js';

/** test/fixtures/<provider>/<file>: byte-identical copies of ../shared/feeds (see PROVENANCE.md there). */
export function fixturePath(provider: 'espn' | 'mlb-statsapi' | 'savant', file: string): string {
  return fileURLToPath(new URL(`../../fixtures/${provider}/${file}`, import.meta.url));
}

export function readFixture(provider: 'espn' | 'mlb-statsapi' | 'savant', file: string): string {
  return readFileSync(fixturePath(provider, file), 'utf8');
}

export function readFixtureJson(provider: 'espn' | 'mlb-statsapi' | 'savant', file: string): unknown {
  const text = readFixture(provider, file);
  return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
}

/** A Transport serving real payload files by exact URL; anything else is unavailable (404). */
export function fixtureTransport(routes: Record<string, { provider: 'espn' | 'mlb-statsapi' | 'savant'; file: string } | { body: string }>) {
  const requests: FetchRequest[] = [];
  const transport: Transport = {
    kind: 'replay',
    async fetch(request: FetchRequest): Promise<FetchOutcome> {
      requests.push(request);
      const route = routes[request.url];
      if (!route) return { ok: false, status: 404, reason: `not recorded: ${request.url}` };
      const body = 'body' in route ? route.body : readFixture(route.provider, route.file);
      return { ok: true, status: 200, headers: {}, body, source: 'replay' };
    },
  };
  return { transport, requests };
}

export function collectingLog() {
  const warnings: Array<{ msg: string; detail?: unknown }> = [];
  return { warnings, warn: (msg: string, detail?: unknown) => void warnings.push({ msg, detail }) };
}
