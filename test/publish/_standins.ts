import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Loopback stand-ins for the platforms propgrade posts to. Each is a real HTTP server that follows
 * the platform's documented API (method, path, auth, request fields, documented response bodies)
 * and records what it received. Nothing here imports propgrade code.
 */

export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface StandIn {
  url: string;
  requests: Received[];
  close(): Promise<void>;
}

type Handler = (req: Received, res: ServerResponse) => void;

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

async function listen(handler: Handler): Promise<StandIn> {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        // keep the text
      }
      const u = new URL(req.url ?? '/', 'http://stand-in');
      const received: Received = { method: req.method ?? '', path: u.pathname, query: u.searchParams, headers: req.headers, body };
      requests.push(received);
      handler(received, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// --- listmonk (docs: "API / Subscribers", "API / Campaigns") ---

export interface ListmonkStandIn extends StandIn {
  user: string;
  token: string;
  subscribers: Map<string, { id: number; email: string; name: string; status: string; lists: number[]; preconfirm: unknown }>;
  campaigns: Map<number, Record<string, unknown>>;
  /** The next request to `path` (e.g. '/api/campaigns'; a key ending in '/' matches every path under it) answers this status and `{message}`. */
  failNext: Map<string, { status: number; message: string }>;
}

const isNumberArray = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isInteger(x));

export async function listmonkStandIn(user = 'propgrade_api', token = 'lm-token-123'): Promise<ListmonkStandIn> {
  const subscribers: ListmonkStandIn['subscribers'] = new Map();
  const campaigns: ListmonkStandIn['campaigns'] = new Map();
  const failNext: ListmonkStandIn['failNext'] = new Map();
  let nextId = 1;
  const expected = `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`;
  const base = await listen((req, res) => {
    // listmonk API users authenticate with HTTP basic auth `api_user:token` (docs: "API" overview).
    if (req.headers.authorization !== expected) return reply(res, 403, { message: 'Invalid API credentials' });
    if (req.headers['content-type']?.startsWith('application/json') !== true) return reply(res, 400, { message: 'expected application/json' });
    const failing = [...failNext.keys()].find((prefix) => req.path === prefix || (prefix.endsWith('/') && req.path.startsWith(prefix)));
    const fail = failing === undefined ? undefined : failNext.get(failing);
    if (failing !== undefined && fail) {
      failNext.delete(failing);
      return reply(res, fail.status, { message: fail.message });
    }
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (req.method === 'POST' && req.path === '/api/subscribers') {
      // POST /api/subscribers: email, name, status (enabled|blocklisted) required; lists number[]; preconfirm_subscriptions bool.
      if (typeof b['email'] !== 'string' || typeof b['name'] !== 'string' || b['name'] === '' || (b['status'] !== 'enabled' && b['status'] !== 'blocklisted')) {
        return reply(res, 400, { message: 'invalid subscriber fields' });
      }
      if (b['lists'] !== undefined && !isNumberArray(b['lists'])) return reply(res, 400, { message: 'invalid lists' });
      const email = b['email'].toLowerCase();
      if (subscribers.has(email)) return reply(res, 409, { message: 'E-mail already exists.' });
      const sub = { id: nextId++, email, name: b['name'], status: b['status'], lists: (b['lists'] as number[]) ?? [], preconfirm: b['preconfirm_subscriptions'] };
      subscribers.set(email, sub);
      return reply(res, 200, { data: { id: sub.id, created_at: '2025-11-05T12:17:29.735507+05:30', updated_at: '2025-11-05T12:17:29.735507+05:30', uuid: randomBytes(16).toString('hex'), email, name: sub.name, attribs: {}, status: sub.status, lists: sub.lists } });
    }
    if (req.method === 'POST' && req.path === '/api/campaigns') {
      // POST /api/campaigns: name, subject, lists, type (regular|optin), content_type (richtext|html|markdown|plain), body required; altbody optional.
      const ok =
        typeof b['name'] === 'string' &&
        typeof b['subject'] === 'string' &&
        isNumberArray(b['lists']) &&
        (b['lists'] as number[]).length > 0 &&
        (b['type'] === 'regular' || b['type'] === 'optin') &&
        ['richtext', 'html', 'markdown', 'plain'].includes(String(b['content_type'])) &&
        typeof b['body'] === 'string';
      if (!ok) return reply(res, 400, { message: 'invalid campaign fields' });
      const id = nextId++;
      const campaign = { id, uuid: randomBytes(16).toString('hex'), name: b['name'], subject: b['subject'], lists: (b['lists'] as number[]).map((l) => ({ id: l, name: 'Daily report' })), type: b['type'], content_type: b['content_type'], body: b['body'], altbody: b['altbody'] ?? null, status: 'draft', send_at: null, started_at: null, to_send: 0, sent: 0, tags: [], template_id: 1, messenger: 'email' };
      campaigns.set(id, campaign);
      return reply(res, 200, { data: campaign });
    }
    const status = /^\/api\/campaigns\/(\d+)\/status$/.exec(req.path);
    if (req.method === 'PUT' && status) {
      // PUT /api/campaigns/{campaign_id}/status: only 'paused' and 'draft' campaigns can start ('running').
      const campaign = campaigns.get(Number(status[1]));
      if (!campaign) return reply(res, 404, { message: 'Campaign not found.' });
      if (b['status'] !== 'running' || (campaign['status'] !== 'draft' && campaign['status'] !== 'paused')) return reply(res, 400, { message: 'Cannot start campaign.' });
      campaign['status'] = 'running';
      return reply(res, 200, { data: campaign });
    }
    return reply(res, 404, { message: 'Not found' });
  });
  return { ...base, user, token, subscribers, campaigns, failNext };
}

// --- Ghost Admin API (docs: "Admin API" authentication, "Posts": creating, updating) ---

export interface GhostPost {
  id: string;
  uuid: string;
  title: string;
  slug: string;
  html: string;
  status: string;
  created_at: string;
  updated_at: string;
  url: string;
}

export interface GhostStandIn extends StandIn {
  /** `<24 hex id>:<64 hex secret>`, as Ghost Admin shows a custom integration's key. */
  key: string;
  posts: Map<string, GhostPost>;
  /** Someone edits the post in Ghost Admin (its updated_at moves). */
  editInGhost(id: string): void;
  publishInGhost(id: string): void;
  deleteInGhost(id: string): void;
  /** Every verified token's header and payload. */
  tokens: Array<{ header: Record<string, unknown>; payload: Record<string, unknown> }>;
}

function b64urlJson(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}

export async function ghostStandIn(): Promise<GhostStandIn> {
  const id = randomBytes(12).toString('hex');
  const secret = randomBytes(32).toString('hex');
  const posts = new Map<string, GhostPost>();
  const tokens: GhostStandIn['tokens'] = [];
  let tick = Date.parse('2025-11-05T18:00:00.000Z');
  const stamp = () => new Date((tick += 1000)).toISOString();
  const ghostError = (res: ServerResponse, status: number, type: string, message: string) => reply(res, status, { errors: [{ message, type }] });

  /** Admin API auth: `Authorization: Ghost <jwt>`, HS256 signed with the hex-decoded secret, kid = key id, aud '/admin/', exp at most 5 minutes after iat. */
  const verify = (authorization: string | undefined): boolean => {
    const m = /^Ghost ([\w-]+)\.([\w-]+)\.([\w-]+)$/.exec(authorization ?? '');
    if (!m) return false;
    const [, h, p, s] = m as unknown as [string, string, string, string];
    const header = b64urlJson(h);
    const payload = b64urlJson(p);
    const expected = createHmac('sha256', Buffer.from(secret, 'hex')).update(`${h}.${p}`).digest();
    const given = Buffer.from(s, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    const iat = Number(payload['iat']);
    const exp = Number(payload['exp']);
    if (header['alg'] !== 'HS256' || header['kid'] !== id || payload['aud'] !== '/admin/' || !(exp > iat) || exp - iat > 300) return false;
    tokens.push({ header, payload });
    return true;
  };

  const base = await listen((req, res) => {
    if (!verify(req.headers.authorization)) return ghostError(res, 401, 'UnauthorizedError', 'Invalid token');
    if (typeof req.headers['accept-version'] !== 'string') return ghostError(res, 400, 'BadRequestError', 'Accept-Version header missing');
    const one = /^\/ghost\/api\/admin\/posts\/([0-9a-f]{24})\/$/.exec(req.path);
    const body = req.body as { posts?: Array<Record<string, unknown>> } | null;
    if (req.method === 'POST' && req.path === '/ghost/api/admin/posts/') {
      // POST /admin/posts/?source=html: `posts` array of one; title required; status draft unless given.
      const input = body?.posts?.[0];
      if (!input || typeof input['title'] !== 'string' || input['title'] === '') return ghostError(res, 422, 'ValidationError', 'Validation error, cannot save post.');
      if (req.query.get('source') !== 'html' && input['html'] !== undefined) return ghostError(res, 422, 'ValidationError', 'html needs ?source=html');
      const at = stamp();
      const post: GhostPost = {
        id: randomBytes(12).toString('hex'),
        uuid: randomBytes(16).toString('hex'),
        title: input['title'],
        slug: input['title'].toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        html: String(input['html'] ?? ''),
        status: typeof input['status'] === 'string' ? input['status'] : 'draft',
        created_at: at,
        updated_at: at,
        url: `http://ghost.example/p/${randomBytes(4).toString('hex')}/`,
      };
      posts.set(post.id, post);
      return reply(res, 201, { posts: [post] });
    }
    if (one && req.method === 'GET') {
      const post = posts.get(one[1] ?? '');
      return post ? reply(res, 200, { posts: [post] }) : ghostError(res, 404, 'NotFoundError', 'Post not found.');
    }
    if (one && req.method === 'PUT') {
      // PUT /admin/posts/{id}/: updated_at is required and must match (collision detection).
      const post = posts.get(one[1] ?? '');
      if (!post) return ghostError(res, 404, 'NotFoundError', 'Post not found.');
      const input = body?.posts?.[0];
      if (!input || typeof input['updated_at'] !== 'string') return ghostError(res, 422, 'ValidationError', 'updated_at is required');
      if (input['updated_at'] !== post.updated_at) return ghostError(res, 409, 'UpdateCollisionError', 'Saving failed, someone else is editing this post.');
      if (typeof input['title'] === 'string') post.title = input['title'];
      if (typeof input['html'] === 'string') post.html = input['html'];
      if (typeof input['status'] === 'string') post.status = input['status'];
      post.updated_at = stamp();
      return reply(res, 200, { posts: [post] });
    }
    return ghostError(res, 404, 'NotFoundError', 'Resource not found');
  });
  const mutate = (pid: string, f: (p: GhostPost) => void) => {
    const post = posts.get(pid);
    if (!post) throw new Error(`no post ${pid}`);
    f(post);
    post.updated_at = stamp();
  };
  return {
    ...base,
    key: `${id}:${secret}`,
    posts,
    tokens,
    editInGhost: (pid) => mutate(pid, (p) => (p.title = `${p.title} (edited)`)),
    publishInGhost: (pid) => mutate(pid, (p) => (p.status = 'published')),
    deleteInGhost: (pid) => void posts.delete(pid),
  };
}

// --- A chat webhook (Slack incoming webhook / Discord webhook: POST JSON, 2xx on success) ---

export interface WebhookStandIn extends StandIn {
  /** Status the next requests answer (default 200). */
  status: number;
}

export async function webhookStandIn(): Promise<WebhookStandIn> {
  const state = { status: 200 };
  const base = await listen((req, res) => {
    res.statusCode = state.status;
    res.end(state.status < 300 ? 'ok' : 'invalid_payload');
  });
  return Object.defineProperty({ ...base, status: 200 }, 'status', { get: () => state.status, set: (v: number) => (state.status = v) }) as WebhookStandIn;
}
