import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkCustomer } from '../../src/accounts/billing.js';
import { setStripeApiBase } from '../../src/publish/stripe.js';
import { createUser, revokeUser } from '../../src/accounts/users.js';
import { createSnapshotRunner } from '../../src/server/snapshot-runner.js';
import { gradedRows } from '../../src/store/schema.js';
import { ENGINES, type EngineName } from '../helpers/engines.js';
import { quiet, seedStoreOn, startServer, type Running, type SeededOn } from './_harness.js';
import { DESK_EMAIL, FOUNDER_CODE, readCalls, runCalls, WEBHOOK_SECRET, type ContractCall, type SlateRows } from './_contract-calls.js';

/**
 * The API contract from outside the code: the real server on a loopback port over the bundled
 * store, every operation of its own /openapi.json called with real values under every token
 * state, and each answer's status, Content-Type, headers and body checked against the document
 * by an independent validator (Ajv, JSON Schema 2020-12, with ajv-formats). Nothing here reads
 * the zod schemas the document was generated from: a route whose answer and document disagree
 * fails the suite. It runs on both engines (issue 35): the SQLite store the pipeline seeded and a
 * PostgreSQL copy of it, and the two servers' answers to the same calls are compared with each other.
 */

// ajv-formats is CommonJS with a default export; under NodeNext its namespace is what arrives.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

const INTERNAL_KEY = 'contract-internal-key-0123456789';
const DOC_ID = 'https://propgrade.test/openapi.json';
/** Headers a client relies on: whenever the server sends one, the answer's description must declare it. */
const RELIED_ON = ['etag', 'vary', 'retry-after', 'x-onboarding-required', 'content-encoding', 'www-authenticate', 'allow'];

type Caller = 'none' | 'free' | 'analyst' | 'desk' | 'founder' | 'onboarding' | 'revoked' | 'garbage' | 'internal';
/** `founder`: a free user on DESK_ALLOWLIST; `onboarding`: an analyst created after ONBOARDING_CUTOFF, not onboarded. */
const TOKEN_STATES: Caller[] = ['none', 'free', 'analyst', 'desk', 'founder', 'onboarding', 'revoked', 'garbage'];

type Json = Record<string, any>;
interface Op {
  method: string;
  template: string;
  pattern: RegExp;
  op: Json;
}

let seeded: SeededOn;
let api: Running;
/** A loopback stand-in for the Stripe API: the portal route's one outbound call. */
/** The wall clock of the server under test: requests, accounts and webhook signatures run on it. */
const WALL = new Date('2026-11-27T12:00:00Z');
let stripe: Server;
let doc: Json;
let ops: Op[];
let ajv: Ajv2020;
let tokens: Partial<Record<Caller, string>> = {};
let validators = new Map<string, ValidateFunction>();
/** `METHOD /template status` -> answers validated. */
let validated = new Map<string, number>();
let problems: string[] = [];
let answers = 0;
let onboardingSeen = 0;
/** Milliseconds per operation, to print the slowest. */
let spent = new Map<string, number>();
/** Every answer per engine, in call order: `label` (no status) -> status and body, compared across engines at the end. */
const replies: Record<EngineName, Array<{ label: string; status: number; type: string; body: string }>> = { sqlite: [], postgres: [] };

function pointer(parts: string[]): string {
  return `#/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/** A $ref inside the document, followed (responses and headers are shared by reference). */
function deref(node: Json): Json {
  let n = node;
  while (n && typeof n['$ref'] === 'string') {
    const parts = (n['$ref'] as string).replace(/^#\//, '').split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    n = parts.reduce<Json>((at, p) => at[p], doc);
  }
  return n;
}

function findOp(method: string, path: string): Op | undefined {
  const bare = path.split('?')[0]!;
  return ops.find((o) => o.method === method && o.pattern.test(bare));
}

function headersOf(who: Caller, call: ContractCall): Record<string, string> {
  const headers: Record<string, string> = { ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}), ...call.headers };
  if (who === 'internal') headers['x-internal-key'] = INTERNAL_KEY;
  else if (who === 'garbage') headers['authorization'] = 'Bearer pg_not-a-real-token';
  else if (who !== 'none') headers['authorization'] = `Bearer ${tokens[who]}`;
  return headers;
}

/** A schema at a JSON pointer of the document, compiled once. */
function validatorAt(parts: string[]): ValidateFunction {
  const ref = `${DOC_ID}${pointer(parts)}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  return validate;
}

/**
 * The request side of an accepted call: every path and query value and the JSON body the server
 * took must be allowed by the document's parameter and body schemas (a document stricter than
 * the server would turn clients away from valid requests).
 */
function checkRequest(call: ContractCall, op: Op, label: string): void {
  const url = new URL(call.path, 'http://x');
  const segments = url.pathname.split('/');
  const names = op.template.split('/');
  const parameters = (op.op['parameters'] ?? []) as Json[];
  parameters.forEach((p, i) => {
    const raw = p['in'] === 'path' ? segments[names.indexOf(`{${p['name']}}`)] : p['in'] === 'query' ? url.searchParams.get(p['name']) : null;
    if (raw === null || raw === undefined) {
      if (p['required']) problems.push(`${label}: required parameter ${p['name']} not sent, yet accepted`);
      return;
    }
    const text = p['in'] === 'path' ? decodeURIComponent(raw) : raw;
    const type = p['schema']?.['type'];
    const value = type === 'integer' || type === 'number' ? Number(text) : text;
    const validate = validatorAt(['paths', op.template, op.method.toLowerCase(), 'parameters', String(i), 'schema']);
    if (!validate(value)) problems.push(`${label}: accepted ${p['in']} ${p['name']}=${text} the document refuses: ${ajv.errorsText(validate.errors)}`);
  });
  const body = op.op['requestBody']?.['content']?.['application/json'];
  if (body && call.body !== undefined) {
    const validate = validatorAt(['paths', op.template, op.method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema']);
    if (!validate(call.body)) problems.push(`${label}: accepted body the document refuses: ${ajv.errorsText(validate.errors)}`);
  }
}

/** One call, checked against the document; what disagrees is collected with the call named. */
async function check(call: ContractCall, who: Caller, extra: Record<string, string> = {}, method: string = call.method): Promise<Response> {
  const started = performance.now();
  const res = await fetch(api.base + call.path, {
    method,
    headers: { ...headersOf(who, call), ...extra },
    ...(call.raw !== undefined ? { body: call.raw } : call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
  });
  const text = await res.text();
  spent.set(call.op, (spent.get(call.op) ?? 0) + performance.now() - started);
  if (res.headers.has('x-onboarding-required')) onboardingSeen += 1;
  answers += 1;
  replies[seeded.engine].push({ label: `${method} ${call.path} [${who}]${extra['if-none-match'] ? ' if-none-match' : ''}`, status: res.status, type: res.headers.get('content-type') ?? '', body: text });
  const label = `${method} ${call.path} [${who}] ${res.status}`;
  const op = findOp(method, call.path) ?? (method !== call.method ? findOp(call.method, call.path) : undefined);
  if (!op) {
    problems.push(`${label}: no operation in the document`);
    return res;
  }
  const declared = op.op['responses'][String(res.status)] as Json | undefined;
  if (!declared) {
    problems.push(`${label}: status not declared (declared: ${Object.keys(op.op['responses']).join(', ')}) body ${text.slice(0, 160)}`);
    return res;
  }
  const response = deref(declared);
  const declaredHeaders = Object.fromEntries(Object.entries((response['headers'] ?? {}) as Json).map(([k, v]) => [k.toLowerCase(), deref(v)]));
  for (const name of RELIED_ON) {
    if (res.headers.has(name) && !declaredHeaders[name]) problems.push(`${label}: sends ${name} but the document does not declare it`);
  }
  for (const [name, h] of Object.entries(declaredHeaders)) {
    if (h['required'] && !res.headers.has(name)) problems.push(`${label}: required header ${name} missing`);
  }
  if (res.status < 300 && method === op.method) checkRequest(call, op, label);
  const content = response['content'] as Json | undefined;
  const done = `${op.method} ${op.template} ${res.status}`;
  if (!content) {
    if (text !== '') problems.push(`${label}: a body where the document declares none`);
    else validated.set(done, (validated.get(done) ?? 0) + 1);
    return res;
  }
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  // Every JSON answer names its charset (issue 40): /api/me and /api/snapshot/summary used not to.
  if (type === 'application/json' && res.headers.get('content-type') !== 'application/json; charset=utf-8') problems.push(`${label}: Content-Type ${res.headers.get('content-type')} does not name charset=utf-8`);
  if (!content[type]) {
    problems.push(`${label}: Content-Type ${type} not declared (declared: ${Object.keys(content).join(', ')})`);
    return res;
  }
  const schema = content[type]['schema'] as Json;
  if (res.status < 300) {
    const target = deref(schema);
    if (Object.keys(target).length === 0 || (target['type'] === undefined && target['anyOf'] === undefined && target['oneOf'] === undefined && target['$ref'] === undefined)) {
      problems.push(`${label}: the success schema is empty`);
    }
  }
  const key = `${op.method} ${op.template} ${res.status} ${type}`;
  let validate = validators.get(key);
  if (!validate) {
    const where = ['paths', op.template, op.method.toLowerCase(), 'responses', String(res.status)];
    const ref = declared['$ref'] ? `${DOC_ID}${declared['$ref']}/content/${type.replace('/', '~1')}/schema` : `${DOC_ID}${pointer([...where, 'content', type, 'schema'])}`;
    validate = ajv.compile({ $ref: ref });
    validators.set(key, validate);
  }
  let body: unknown = text;
  if (type === 'application/json') {
    try {
      body = JSON.parse(text);
    } catch {
      problems.push(`${label}: not JSON`);
      return res;
    }
  }
  if (!validate(body)) {
    problems.push(`${label}: ${ajv.errorsText(validate.errors?.slice(0, 3), { dataVar: 'body' })}`);
    return res;
  }
  validated.set(done, (validated.get(done) ?? 0) + 1);
  return res;
}

describe.each(ENGINES)('the API answers as /openapi.json says (%s)', (engine) => {
  beforeAll(async () => {
    tokens = {};
    validators = new Map();
    validated = new Map();
    problems = [];
    answers = 0;
    onboardingSeen = 0;
    spent = new Map();
    // Stripe's documented answer to POST /v1/billing_portal/sessions (API reference), as test/server/accounts-portal.test.ts serves it.
    stripe = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_contract' });
        res.end(JSON.stringify({ id: 'bps_1MrSjzLkdIwHu7ixex0IvU9b', object: 'billing_portal.session', customer: 'cus_contract', livemode: false, return_url: 'https://propgrade.test/account', url: 'https://billing.stripe.com/p/session/test_contract' }));
      });
    });
    await new Promise<void>((resolve) => stripe.listen(0, '127.0.0.1', resolve));
    setStripeApiBase(`http://127.0.0.1:${(stripe.address() as AddressInfo).port}`);
    seeded = await seedStoreOn(engine, {
      STRIPE_SECRET_KEY: 'sk_test_contract',
      BILLING_RETURN_URL: 'https://propgrade.test/account',
      PROPGRADE_REPLAY: 'data/replay',
      FUTURES_ENABLED: '1',
      INTERNAL_API_KEY: INTERNAL_KEY,
      DESK_ALLOWLIST: DESK_EMAIL,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      FOUNDER_CODES: FOUNDER_CODE,
    });
    const at = seeded.now;
    for (const tier of ['free', 'analyst', 'desk'] as const) tokens[tier] = (await createUser(seeded.store, { email: `${tier}@contract.test`, tier }, at)).token;
    tokens.founder = (await createUser(seeded.store, { email: DESK_EMAIL, tier: 'free' }, at)).token;
    tokens.onboarding = (await createUser(seeded.store, { email: 'new@contract.test', tier: 'analyst' }, new Date('2026-02-01T00:00:00Z'))).token;
    tokens.revoked = (await createUser(seeded.store, { email: 'revoked@contract.test', tier: 'desk' }, at)).token;
    await revokeUser(seeded.store, 'revoked@contract.test', at);
    await linkCustomer(seeded.store, 'desk@contract.test', 'cus_contract');
    api = await startServer({
      store: seeded.store,
      config: seeded.config,
      now: () => seeded.now,
      // Both clocks injected: the data clock is the replayed store's, the wall clock signs and checks webhooks.
      wallClock: () => WALL,
      log: quiet,
      runSnapshot: createSnapshotRunner(seeded.store, seeded.config, () => seeded.now, quiet),
      limits: { statsPerWindow: 100_000, upstreamPerWindow: 100_000 },
    });
    doc = (await (await fetch(`${api.base}/openapi.json`)).json()) as Json;
    ops = Object.entries(doc['paths'] as Json).flatMap(([template, methods]) =>
      Object.entries(methods as Json).map(([method, op]) => ({
        method: method.toUpperCase(),
        template,
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        op: op as Json,
      })),
    );
    ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: DOC_ID });
  }, 120_000);

  afterAll(async () => {
    setStripeApiBase(null);
    await api?.close();
    await new Promise<void>((resolve) => (stripe ? stripe.close(() => resolve()) : resolve()));
    await seeded?.cleanup();
  });

  function slateRows(): SlateRows {
    const pick = (graded: boolean) => {
      // From the seeded SQLite rows: the PostgreSQL copy keeps their ids.
      const r = seeded.source.db
        .select()
        .from(gradedRows)
        .where(graded ? and(eq(gradedRows.grade, 'A'), isNotNull(gradedRows.fairOdds)) : isNull(gradedRows.grade))
        .orderBy(gradedRows.id)
        .limit(1)
        .get()!;
      return { player: r.player, stat: r.statType, line: r.line, side: r.side };
    };
    return { graded: pick(true), refused: pick(false) };
  }

  it('every operation, under every token state, validates against the document', async () => {
    const reads = readCalls(slateRows(), WALL);
    for (const call of reads) {
      const internal = findOp(call.method, call.path)?.op['x-access'] === 'internal';
      for (const who of internal ? [...TOKEN_STATES, 'internal' as const] : TOKEN_STATES) await check(call, who);
    }
    // A 304 for the ETag just sent, and a 405 for a method a path does not answer.
    for (const who of ['none', 'desk'] as const) {
      const call = reads.find((c) => c.path === '/api/snapshot/nba')!;
      const etag = (await check(call, who)).headers.get('etag')!;
      expect(etag).toBeTruthy();
      await check(call, who, { 'if-none-match': etag });
    }
    for (const { template, method } of ops) {
      const path = template.replace(/\{[^}]+\}/g, (m) => ({ '{sport}': 'nba', '{date}': '2025-09-27' })[m] ?? 'x');
      await check({ op: `${method} ${template}`, method: method as 'GET', path }, 'none', {}, 'PUT');
    }
    // Runs of the snapshot pipeline last: they write new snapshots.
    for (const call of runCalls()) {
      await check(call, 'none');
      await check(call, 'internal');
    }
    expect(problems, problems.join('\n')).toEqual([]);
    expect(onboardingSeen, 'x-onboarding-required was exercised').toBeGreaterThan(0);

    // Every operation was exercised and gave at least one validated success answer.
    const missing = ops.filter((o) => ![...validated.keys()].some((k) => k.startsWith(`${o.method} ${o.template} 2`))).map((o) => `${o.method} ${o.template}`);
    expect(missing, 'operations without a validated 2xx answer').toEqual([]);
    const total = [...validated.values()].reduce((a, b) => a + b, 0);
    expect(total).toBe(answers);
    console.info(`contract (${engine}): ${ops.length} operations, ${answers} answers validated (${validated.size} operation-status pairs)`);
    const slowest = [...spent].sort((a, b) => b[1] - a[1]).slice(0, 5);
    console.info(`slowest: ${slowest.map(([op, ms]) => `${op} ${Math.round(ms)} ms`).join('; ')}`);
  }, 180_000);

  it('every operation has an operationId, a security requirement and a non-empty success schema', () => {
    const ids = new Set<string>();
    for (const { method, template, op } of ops) {
      const name = `${method} ${template}`;
      expect(op['operationId'], name).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(ids.has(op['operationId']), `${name}: operationId unique`).toBe(false);
      ids.add(op['operationId']);
      expect(Array.isArray(op['security']), `${name}: security`).toBe(true);
      expect((op['parameters'] ?? []).map((p: Json) => p['name']), name).not.toContain('Authorization');
      const ok = deref(op['responses']['200']);
      const media = Object.values(ok['content'] as Json)[0] as Json;
      expect(Object.keys(deref(media['schema'])).length, `${name}: 200 schema`).toBeGreaterThan(0);
    }
  });

  it('the validator is not lenient: an answer with a field added, a type changed or a field missing fails', async () => {
    const call: ContractCall = { op: 'GET /api/snapshot/summary', method: 'GET', path: '/api/snapshot/summary' };
    const body = (await (await fetch(api.base + call.path)).json()) as Json;
    const validate = ajv.compile({ $ref: `${DOC_ID}#/components/schemas/SnapshotSummary` });
    expect(validate(body)).toBe(true);
    expect(validate({ ...body, surprise: 1 })).toBe(false);
    expect(validate({ ...body, graded: String(body['graded']) })).toBe(false);
    const { ran: _ran, ...missing } = body;
    expect(validate(missing)).toBe(false);
    const row = ajv.compile({ $ref: `${DOC_ID}#/components/schemas/GradedRow` });
    const snapshot = (await (await fetch(`${api.base}/api/snapshot/nba`)).json()) as Json;
    const first = snapshot['games'][0]['rows'][0] as Json;
    expect(row(first)).toBe(true);
    expect(row({ ...first, grade: 'A-' })).toBe(false);
    expect(row({ ...first, stat_type: 'touchdowns' })).toBe(false);
  });
});

/**
 * What may differ between two servers answering alike: a per-response CSP nonce, the process
 * figures of /metrics (its metric names must match) and the webhook event's id (a new one per pass).
 */
function comparable(label: string, body: string): string {
  if (label.startsWith('GET /metrics')) return body.split('\n').filter((l) => l.startsWith('# ')).join('\n');
  return body.replace(/nonce(-|=")[A-Za-z0-9+/=]+/g, 'nonce$1<n>').replace(/evt_contract_\d+/g, 'evt_contract_<n>');
}

describe('both engines answer alike', () => {
  it('the same calls get the same status, Content-Type and body from SQLite and PostgreSQL', () => {
    const [a, b] = [replies.sqlite, replies.postgres];
    expect(a.length).toBeGreaterThan(600);
    expect(b.map((r) => r.label)).toEqual(a.map((r) => r.label));
    const differences: string[] = [];
    a.forEach((x, i) => {
      const y = b[i]!;
      if (x.status !== y.status || x.type !== y.type) differences.push(`${x.label}: ${x.status} ${x.type} vs ${y.status} ${y.type}`);
      else if (comparable(x.label, x.body) !== comparable(y.label, y.body)) differences.push(`${x.label}: body\n  sqlite   ${x.body.slice(0, 300)}\n  postgres ${y.body.slice(0, 300)}`);
    });
    expect(differences, differences.join('\n')).toEqual([]);
  });
});
