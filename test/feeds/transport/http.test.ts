import { afterEach, describe, expect, it } from 'vitest';
import { httpRequest, readJsonOrText } from '../../../src/feeds/transport/http.js';
import { startLocalServer, type LocalServer } from './local-server.js';

/** The one HTTP primitive against a real loopback server: what goes on the wire, what comes back. */

let server: LocalServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('httpRequest', () => {
  it('sends a JSON body with its content type and reads a JSON answer', async () => {
    let received = '';
    server = await startLocalServer({
      '/echo': (req, res) => {
        req.on('data', (c: Buffer) => (received += c.toString('utf8')));
        req.on('end', () => res.writeHead(201, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ data: { id: 7 } })));
      },
    });
    const res = await httpRequest({ method: 'POST', url: `${server.base}/echo`, headers: { authorization: 'Basic x' }, json: { email: 'a@b.test', lists: [3] }, timeoutMs: 5_000 });
    expect(res.statusCode).toBe(201);
    expect(await readJsonOrText(res)).toEqual({ data: { id: 7 } });
    expect(JSON.parse(received)).toEqual({ email: 'a@b.test', lists: [3] });
    expect(server.headers[0]!['content-type']).toBe('application/json');
    expect(server.headers[0]!['authorization']).toBe('Basic x');
  });

  it('a GET carries no body and no content type; a text answer stays text, cut at maxChars', async () => {
    server = await startLocalServer({ '/text': (_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>bad gateway</h1>') });
    const res = await httpRequest({ method: 'GET', url: `${server.base}/text`, timeoutMs: 5_000 });
    expect(res.statusCode).toBe(502);
    expect(await readJsonOrText(res, 4)).toBe('<h1>');
    expect(server.headers[0]!['content-type']).toBeUndefined();
  });

  it('an empty body reads as null; a body labelled JSON that does not parse stays text', async () => {
    server = await startLocalServer({
      '/empty': (_req, res) => res.writeHead(204).end(),
      '/broken': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{not json'),
    });
    expect(await readJsonOrText(await httpRequest({ method: 'GET', url: `${server.base}/empty`, timeoutMs: 5_000 }))).toBeNull();
    expect(await readJsonOrText(await httpRequest({ method: 'GET', url: `${server.base}/broken`, timeoutMs: 5_000 }))).toBe('{not json');
  });

  it('a refused connection throws (callers turn it into their own outcome)', async () => {
    server = await startLocalServer({});
    const base = server.base;
    await server.close();
    server = null;
    await expect(httpRequest({ method: 'GET', url: `${base}/gone`, timeoutMs: 5_000 })).rejects.toThrow();
  });
});
