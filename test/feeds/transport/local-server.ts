import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, hit: number) => void;

export interface LocalServer {
  base: string;
  /** Every request URL the server saw (path + query, credentials included: the wire view). */
  seen: string[];
  /** Request headers per request, in order. */
  headers: IncomingMessage['headers'][];
  hits(path: string): number;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 with a random port; routes by pathname. */
export async function startLocalServer(routes: Record<string, Handler>): Promise<LocalServer> {
  const seen: string[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    seen.push(req.url ?? '');
    headers.push(req.headers);
    const hit = (counts.get(url.pathname) ?? 0) + 1;
    counts.set(url.pathname, hit);
    const handler = routes[url.pathname];
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no route');
      return;
    }
    handler(req, res, hit);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    seen,
    headers,
    hits: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
