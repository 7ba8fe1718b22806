import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createApp, type ServerApp } from '../../src/server/app.js';
import { tempStore } from '../helpers/replay-store.js';

/**
 * /openapi.json under Redocly's `recommended` ruleset (@redocly/openapi-core, the engine behind
 * `redocly lint`): operationIds, security defined, 4xx answers, unique and valid paths, servers,
 * schema structure. Errors and warnings alike fail the suite.
 */
let temp: ReturnType<typeof tempStore>;
let server: ServerApp;

beforeAll(() => {
  temp = tempStore();
  server = createApp({ store: temp.store, config: loadConfig({}) });
});
afterAll(async () => {
  await server?.close();
  temp?.cleanup();
});

describe('the OpenAPI document under Redocly lint (recommended)', () => {
  it('reports no problem', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(server.openapi), absoluteRef: 'openapi.json', config });
    const lines = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
    expect(lines, lines.join('\n')).toEqual([]);
  });
});
