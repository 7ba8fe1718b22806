import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/accounts/users.js';
import { gradedRows } from '../../src/store/schema.js';
import { quiet, seedStore, startServer, type Running, type Seeded } from './_harness.js';
import { DESK_EMAIL, FOUNDER_CODE, readCalls, WEBHOOK_SECRET, type ContractCall, type SlateRows } from './_contract-calls.js';

/**
 * Issue 32, "every input bounded at the edge", checked from the document: every string parameter
 * and body field of /openapi.json declares `maxLength` (or is an enum), every array `maxItems`,
 * every number `minimum` and `maximum`; and for each bound the document declares, the server,
 * sent the contract test's own valid call of the operation with that one field one past its bound
 * (a character more, an item more, one over the maximum, one under the minimum), answers 400 in
 * the error envelope naming the field. The valid call is sent first and must not be a 400, so the
 * refusal is the bound's. Nothing here reads the zod schemas the document comes from.
 */

type Json = Record<string, any>;

const INTERNAL_KEY = 'bounds-internal-key-0123456789ab';
const WALL = new Date('2026-11-27T12:00:00Z');

let seeded: Seeded;
let api: Running;
let doc: Json;
/** A desk-tier token on DESK_ALLOWLIST: passes every tier and desk check, unlimited scans. */
let token: string;

beforeAll(async () => {
  seeded = await seedStore({
    PROPGRADE_REPLAY: 'data/replay',
    INTERNAL_API_KEY: INTERNAL_KEY,
    DESK_ALLOWLIST: DESK_EMAIL,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    FOUNDER_CODES: FOUNDER_CODE,
  });
  token = (await createUser(seeded.store, { email: DESK_EMAIL, tier: 'desk' }, seeded.now)).token;
  api = await startServer({ store: seeded.store, config: seeded.config, now: () => seeded.now, wallClock: () => WALL, log: quiet, limits: { statsPerWindow: 100_000 } });
  doc = (await (await fetch(`${api.base}/openapi.json`)).json()) as Json;
}, 120_000);

afterAll(async () => {
  await api?.close();
  seeded?.cleanup();
});

function slateRows(): SlateRows {
  const pick = (graded: boolean) => {
    const r = seeded.store.db
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

/** One field one past one of its bounds: where it is and what to send. */
interface Breach {
  where: 'path' | 'query' | 'body';
  /** The field's path: a parameter name, or body keys and array indexes. */
  field: Array<string | number>;
  bound: string;
  value: unknown;
}

/** Zod's integer range without an explicit bound is the safe-integer range: no bound a caller can pass. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/** The bounds a schema declares, each as the value one past it (built from the valid value when there is one). */
function breachesOf(schema: Json, valid: unknown, field: Array<string | number>, where: Breach['where']): Breach[] {
  const out: Breach[] = [];
  for (const branch of (schema['anyOf'] ?? schema['oneOf'] ?? []) as Json[]) out.push(...breachesOf(branch, valid, field, where));
  const type = schema['type'];
  if (type === 'string' && typeof schema['maxLength'] === 'number') {
    const max = schema['maxLength'] as number;
    const base = typeof valid === 'string' ? valid : '';
    out.push({ where, field, bound: `maxLength ${max}`, value: (base + 'a'.repeat(max + 1)).slice(0, max + 1) });
  }
  if (type === 'number' || type === 'integer') {
    const step = type === 'integer' ? 1 : 0.5;
    if (typeof schema['maximum'] === 'number' && schema['maximum'] < UNBOUNDED) out.push({ where, field, bound: `maximum ${schema['maximum']}`, value: schema['maximum'] + step });
    if (typeof schema['minimum'] === 'number' && schema['minimum'] > -UNBOUNDED) out.push({ where, field, bound: `minimum ${schema['minimum']}`, value: schema['minimum'] - step });
  }
  if (type === 'array' && typeof schema['maxItems'] === 'number' && Array.isArray(valid) && valid.length > 0) {
    const max = schema['maxItems'] as number;
    out.push({ where, field, bound: `maxItems ${max}`, value: Array.from({ length: max + 1 }, (_, i) => valid[i % valid.length]) });
  }
  if (type === 'array' && Array.isArray(valid) && valid.length > 0 && schema['items']) out.push(...breachesOf(schema['items'] as Json, valid[0], [...field, 0], where));
  if (type === 'object' && valid !== null && typeof valid === 'object') {
    for (const [key, prop] of Object.entries((schema['properties'] ?? {}) as Record<string, Json>)) {
      out.push(...breachesOf(prop, (valid as Json)[key], [...field, key], where));
    }
  }
  return out;
}

/** The document's template for a call, and the call's path parameters by name. */
function matchTemplate(call: ContractCall): { template: string; params: Record<string, string> } | null {
  const [pathname] = call.path.split('?') as [string];
  for (const template of Object.keys(doc['paths'] as Json)) {
    const names: string[] = [];
    const pattern = new RegExp(`^${template.replace(/\{([^}]+)\}/g, (_, n: string) => (names.push(n), '([^/]+)'))}$`);
    const m = pattern.exec(pathname);
    if (m && doc['paths'][template][call.method.toLowerCase()]) return { template, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])) };
  }
  return null;
}

function setIn(target: unknown, field: ReadonlyArray<string | number>, value: unknown): unknown {
  if (field.length === 0) return value;
  const copy: any = Array.isArray(target) ? [...target] : { ...(target as Json) };
  const [head, ...rest] = field as [string | number, ...Array<string | number>];
  copy[head] = setIn(copy[head], rest, value);
  return copy;
}

/** The call with the breach applied: the URL rebuilt from the template, the body re-signed for the webhook. */
function breached(call: ContractCall, template: string, params: Record<string, string>, breach: Breach): ContractCall {
  const url = new URL(call.path, 'http://x');
  const nextParams = breach.where === 'path' ? { ...params, [breach.field[0] as string]: String(breach.value) } : params;
  if (breach.where === 'query') url.searchParams.set(breach.field[0] as string, String(breach.value));
  const path = template.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(nextParams[n]!)) + url.search;
  if (breach.where !== 'body') return { ...call, path };
  if (call.raw !== undefined) {
    const raw = JSON.stringify(setIn(JSON.parse(call.raw), breach.field, breach.value));
    const signature = Stripe.webhooks.generateTestHeaderString({ payload: raw, secret: WEBHOOK_SECRET, timestamp: Math.floor(WALL.getTime() / 1000) });
    return { ...call, path, raw, headers: { ...call.headers, 'stripe-signature': signature } };
  }
  return { ...call, path, body: setIn(call.body, breach.field, breach.value) };
}

async function send(call: ContractCall, internal: boolean): Promise<{ status: number; type: string; body: Json }> {
  const headers: Record<string, string> = { ...call.headers, ...(internal ? { 'x-internal-key': INTERNAL_KEY } : { authorization: `Bearer ${token}` }) };
  let body: string | undefined = call.raw;
  if (body === undefined && call.body !== undefined) {
    body = JSON.stringify(call.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(api.base + call.path, { method: call.method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    // an HTML page: the baseline of /desk
  }
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: json };
}

describe('every input of /openapi.json is bounded, and one past a bound is a 400', () => {
  it('declares a bound on every string, array and number a client sends', () => {
    const unbounded: string[] = [];
    const walk = (s: Json, at: string) => {
      for (const b of (s['anyOf'] ?? s['oneOf'] ?? []) as Json[]) walk(b, at);
      const open = (s['additionalProperties'] ?? null) as Json | null;
      if (s['type'] === 'string' && s['maxLength'] === undefined && s['enum'] === undefined && s['const'] === undefined) unbounded.push(`${at}: string without maxLength`);
      if ((s['type'] === 'number' || s['type'] === 'integer') && (s['maximum'] === undefined || s['minimum'] === undefined)) unbounded.push(`${at}: number without minimum and maximum`);
      if (s['type'] === 'array') {
        if (s['maxItems'] === undefined) unbounded.push(`${at}: array without maxItems`);
        if (s['items']) walk(s['items'] as Json, `${at}[]`);
      }
      for (const [k, v] of Object.entries((s['properties'] ?? {}) as Record<string, Json>)) walk(v, `${at}.${k}`);
      if (open && typeof open === 'object' && Object.keys(open).length > 0) walk(open, `${at}.*`);
    };
    for (const [template, methods] of Object.entries(doc['paths'] as Json)) {
      for (const [method, op] of Object.entries(methods as Record<string, Json>)) {
        for (const p of (op['parameters'] ?? []) as Json[]) if (p['in'] !== 'header') walk(p['schema'] as Json, `${method.toUpperCase()} ${template} ${p['in']} ${p['name']}`);
        const body = op['requestBody']?.['content']?.['application/json']?.['schema'] as Json | undefined;
        if (body) walk(body, `${method.toUpperCase()} ${template} body`);
      }
    }
    expect(unbounded).toEqual([]);
  });

  it('answers 400 in the envelope, naming the field, for each bound one past', { timeout: 300_000 }, async () => {
    const calls = readCalls(slateRows(), WALL);
    const exercised = new Set<string>();
    const declared = new Set<string>();
    const failures: string[] = [];
    for (const [template, methods] of Object.entries(doc['paths'] as Json)) {
      for (const [method, op] of Object.entries(methods as Record<string, Json>)) {
        const internal = op['x-access'] === 'internal';
        // Valid calls of this operation, first the one the server accepts.
        for (const call of calls.filter((c) => c.method === method.toUpperCase() && matchTemplate(c)?.template === template)) {
          const match = matchTemplate(call)!;
          const url = new URL(call.path, 'http://x');
          const breaches: Breach[] = [];
          for (const p of (op['parameters'] ?? []) as Json[]) {
            if (p['in'] === 'path') breaches.push(...breachesOf(p['schema'] as Json, match.params[p['name']], [p['name']], 'path'));
            if (p['in'] === 'query') breaches.push(...breachesOf(p['schema'] as Json, url.searchParams.get(p['name']) ?? undefined, [p['name']], 'query'));
          }
          const bodySchema = op['requestBody']?.['content']?.['application/json']?.['schema'] as Json | undefined;
          if (bodySchema) breaches.push(...breachesOf(bodySchema, call.raw !== undefined ? JSON.parse(call.raw) : call.body, [], 'body'));
          for (const b of breaches) declared.add(`${method.toUpperCase()} ${template} ${b.where} ${b.field.join('.')} ${b.bound}`);
          if (breaches.length === 0) continue;
          const baseline = await send(call, internal);
          if (baseline.status === 400 || baseline.status >= 500) continue;
          for (const b of breaches) {
            const name = `${method.toUpperCase()} ${template} ${b.where} ${b.field.join('.')} ${b.bound}`;
            if (exercised.has(name)) continue;
            exercised.add(name);
            const reply = await send(breached(call, match.template, match.params, b), internal);
            const last = String([...b.field].reverse().find((f) => typeof f === 'string'));
            const ok = reply.status === 400 && reply.type.startsWith('application/json') && typeof reply.body['error']?.['code'] === 'string' && typeof reply.body['error']?.['message'] === 'string';
            // The webhook refuses a signed body that is not a Stripe event as a whole (it names no field).
            const named = call.raw !== undefined || String(reply.body['error']?.['message']).includes(last);
            if (!ok || !named) failures.push(`${name}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // Every bound the document declares on a field the contract calls send was sent one past.
    expect([...declared].filter((d) => !exercised.has(d))).toEqual([]);
    expect(exercised.size).toBeGreaterThan(40);
    console.log(`bounds exercised: ${exercised.size}`);
  });
});
