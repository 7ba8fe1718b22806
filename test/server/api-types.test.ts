import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createApp, type ServerApp } from '../../src/server/app.js';
import { tempStore } from '../helpers/replay-store.js';
import type { components, operations, paths } from '../../types/propgrade-api.js';

/**
 * types/propgrade-api.d.ts: the wire types a client imports, generated from /openapi.json by
 * openapi-typescript. The committed file must be what the current document generates;
 * `npm run api:types` rewrites it.
 */
export const API_TYPES_FILE = 'types/propgrade-api.d.ts';
const HEADER = '/**\n * The propgrade HTTP API wire types, generated from /openapi.json by openapi-typescript.\n * Do not edit: `npm run api:types` rewrites this file (test/server/api-types.test.ts checks it).\n */\n\n';

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

describe(API_TYPES_FILE, () => {
  it('is what the current document generates', async () => {
    const ast = await openapiTS(structuredClone(server.openapi) as never, { alphabetize: false });
    const text = HEADER + astToString(ast);
    if (process.env['UPDATE_API_TYPES'] === '1') writeFileSync(API_TYPES_FILE, text);
    expect(readFileSync(API_TYPES_FILE, 'utf8') === text, `${API_TYPES_FILE} is stale: run npm run api:types`).toBe(true);
  });

  it('types the answers a client reads', () => {
    // Compile-time checks (npm run typecheck): these assignments fail when the types drift.
    type Row = components['schemas']['GradedRow'];
    const grade: Row['grade'] = 'A+';
    const locked: Row['model_price_locked'] = true;
    type Summary = paths['/api/snapshot/summary']['get']['responses'][200]['content']['application/json'];
    const sync: Summary['sync_status'] = 'amber';
    type Me = operations['getMe']['responses'][200]['content']['application/json'];
    const tier: Me['tier'] = 'desk';
    type Err = components['schemas']['Error'];
    const code: Err['error']['code'] = 'RATE_LIMITED';
    expect([grade, locked, sync, tier, code]).toEqual(['A+', true, 'amber', 'desk', 'RATE_LIMITED']);
  });
});
