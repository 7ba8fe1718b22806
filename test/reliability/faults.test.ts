import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkReplayFolder } from '../../src/jobs/feeds-check.js';

/**
 * Provider fault matrix on every adapter (issue 19, suite 5). Every request the project records —
 * the 75 real fixture requests over 26 kinds (test/fixtures) and the bundled replay — is answered
 * with each fault, through the replay transport (which honours the recorded status and headers),
 * and parsed by its own adapter: 0 throws, 0 records made up from a fault. Timeouts, retries and
 * Retry-After at the transport are covered by test/feeds/transport/live.test.ts on a real socket;
 * the snapshot run keeping its last snapshot and naming the failure by test/jobs/snapshot-run.test.ts;
 * the context routes serving stale-with-age by test/reads/{combat,futures,live,news}.test.ts.
 */

interface Fault {
  name: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

const FAULTS: Fault[] = [
  { name: '500', status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"Internal Server Error"}' },
  { name: '429 with Retry-After', status: 429, headers: { 'content-type': 'application/json', 'retry-after': '30' }, body: '{"message":"Too Many Requests"}' },
  { name: 'HTML error page with 200', status: 200, headers: { 'content-type': 'text/html' }, body: '<!doctype html><html><body><h1>Service Unavailable</h1></body></html>' },
  { name: 'malformed JSON', status: 200, headers: { 'content-type': 'application/json' }, body: '{"events": [ {"id": "abc", ' },
  { name: 'unknown shape', status: 200, headers: { 'content-type': 'application/json' }, body: '{"data":{"unexpected":[1,2,3]},"version":99}' },
  { name: 'empty body', status: 200, headers: { 'content-type': 'application/json' }, body: '' },
  { name: 'truncated body', status: 200, headers: { 'content-type': 'application/json' }, body: '[{"id":"4a9c0e","sport_key":"basketball_nba","commence_time":"2025-11-0' },
];

const SOURCES = ['test/fixtures/manifest.json', 'data/replay/manifest.json'];

describe('provider fault matrix: every recorded request × every fault, through its own adapter', () => {
  const dir = mkdtempSync(join(tmpdir(), 'propgrade-faults-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const requests = [...new Map(SOURCES.flatMap((f) => (JSON.parse(readFileSync(f, 'utf8')) as { entries: Array<{ key: string }> }).entries).map((e) => [e.key, e.key])).values()];

  it.each(FAULTS)('$name: no throw, no made-up record, the failure is named', async (fault) => {
    const folder = join(dir, fault.name.replace(/\W+/g, '-'));
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'fault.body'), fault.body);
    writeFileSync(
      join(folder, 'manifest.json'),
      JSON.stringify({ version: 1, entries: requests.map((key) => ({ key, file: 'fault.body', status: fault.status, headers: fault.headers })) }),
    );
    const report = await checkReplayFolder(folder);
    expect(report.entries).toHaveLength(requests.length);
    const madeUp = report.entries.filter((e) => (e.records ?? 0) > 0);
    expect(madeUp.map((e) => `${e.provider} ${e.kind}: ${e.records}`)).toEqual([]);
    expect(report.ok).toBe(false);
    // Each failed entry says why (status, parse failure or shape), never silently.
    for (const e of report.entries.filter((x) => x.outcome !== 'parsed')) expect(e.reason ?? e.warnings.join(' '), `${e.provider} ${e.kind}`).toBeTruthy();
    console.log(`faults: ${fault.name}: ${requests.length} requests, outcomes ${JSON.stringify(report.entries.reduce<Record<string, number>>((m, e) => ({ ...m, [e.outcome]: (m[e.outcome] ?? 0) + 1 }), {}))}`);
  }, 60_000);
});
