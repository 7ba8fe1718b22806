import { listen } from 'listhen';
import type { Env } from '../config.js';
import type { Store } from '../store/db.js';
import { createApp } from './app.js';
import { startCron, type CronHandle } from './cron.js';

export interface ApiServerOptions {
  store: Store;
  config: Env;
  port: number;
  host: string;
  /** SNAPSHOT_CRON: run the snapshot in-process at the cron hours. */
  cron: boolean;
  log: { info(message: string): void; warn(message: string): void };
  now?: () => Date;
}

export interface RunningApiServer {
  url: string;
  cronNext: Date | null;
  close(): Promise<void>;
}

/** `propgrade serve`: the app on listhen, plus the optional in-process snapshot cron. */
export async function startApiServer(options: ApiServerOptions): Promise<RunningApiServer> {
  const { store, config, log } = options;
  const server = createApp({ store, config, log, ...(options.now ? { now: options.now } : {}) });
  const listener = await listen(server.listener, { port: options.port, hostname: options.host, showURL: false, isTest: true, autoClose: true });
  let cron: CronHandle | null = null;
  if (options.cron) {
    cron = startCron(
      async () => {
        const runs = await server.runSnapshot(['mlb', 'nba', 'wnba', 'soccer']);
        log.info(`cron snapshot: ${runs.map((r) => `${r.sport} ${r.status}`).join(', ')}`);
      },
      { onError: (e) => log.warn(`cron snapshot failed: ${e instanceof Error ? e.message : String(e)}`) },
    );
  }
  return {
    url: listener.url,
    cronNext: cron?.next() ?? null,
    close: async () => {
      cron?.stop();
      await listener.close();
      // The OCR worker thread would otherwise keep the process alive after the socket closes.
      await server.close();
      store.close();
    },
  };
}
