import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { silentLogger, type FeedLogger } from './log.js';
import { MANIFEST_FILE, loadReplayManifest, type ReplayManifest } from './replay.js';
import { replayKey } from './replay-key.js';
import type { FetchRequest, FetchSuccess, Transport } from './types.js';

/** Only these response headers are written; nothing that could carry a session or a credential. */
export const RECORDED_HEADERS = [
  'content-type',
  'date',
  'last-modified',
  'x-requests-remaining',
  'x-requests-used',
  'x-requests-last',
] as const;

export interface RecordTransportOptions {
  /** The clock stamped on each recording as recordedAt. */
  now: () => Date;
  log?: FeedLogger;
}

/**
 * Live, plus every successful response written into a replay folder that `createReplayTransport`
 * answers from. Recording problems are warnings: the live answer is still returned.
 */
export function createRecordTransport(live: Transport, dir: string, options: RecordTransportOptions): Transport {
  const log = options.log ?? silentLogger;
  // Manifest rewrites are serialised so concurrent fetches cannot lose each other's entries.
  let queue: Promise<void> = Promise.resolve();

  async function record(request: FetchRequest, outcome: FetchSuccess): Promise<void> {
    const key = replayKey(request);
    const secrets = Object.values(request.secretQuery ?? {}).filter((v) => v.length > 0);
    const headers: Record<string, string> = {};
    for (const name of RECORDED_HEADERS) {
      const value = outcome.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    const carriesSecret = secrets.some((s) => outcome.body.includes(s) || Object.values(headers).some((v) => v.includes(s)));
    if (carriesSecret) {
      log.warn(`record: not written, the response echoes a credential: ${key}`);
      return;
    }
    const recordedAt = options.now().toISOString();
    const file = recordingFileName(request, key, recordedAt, headers['content-type']);
    await mkdir(join(dir, dirname(file)), { recursive: true });
    await writeFile(join(dir, file), outcome.body, 'utf8');

    const manifestPath = join(dir, MANIFEST_FILE);
    let manifest: ReplayManifest;
    if (existsSync(manifestPath)) {
      const loaded = loadReplayManifest(dir);
      if (!loaded.ok) {
        log.warn(`record: manifest left untouched (${loaded.reason}); body written to ${file}`);
        return;
      }
      manifest = loaded.manifest;
    } else {
      manifest = { version: 1, entries: [] };
    }
    const entry: ReplayManifest['entries'][number] = { key, file, status: outcome.status, headers, recordedAt };
    const entries = manifest.entries.filter((e) => !(e.key === key && e.recordedAt === recordedAt));
    entries.push(entry);
    const tmp = `${manifestPath}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify({ ...manifest, entries }, null, 2)}\n`, 'utf8');
    await rename(tmp, manifestPath);
  }

  return {
    kind: 'record',
    async fetch(request) {
      const outcome = await live.fetch(request);
      if (!outcome.ok) return outcome;
      const task = queue.then(() => record(request, outcome));
      queue = task.catch(() => undefined);
      try {
        await task;
      } catch (err) {
        log.warn(`record: could not write ${replayKey(request)}: ${err instanceof Error ? err.message : String(err)}`);
      }
      return outcome;
    },
    async close() {
      await live.close?.();
    },
  };
}

/** `<provider>/<sha1 of the key, 16 hex>-<recordedAt compact>.<ext>`: one file per snapshot. */
export function recordingFileName(request: Pick<FetchRequest, 'provider' | 'accept'>, key: string, recordedAt: string, contentType?: string): string {
  const hash = createHash('sha1').update(key).digest('hex').slice(0, 16);
  const stamp = recordedAt.replace(/\.\d+/, '').replace(/[-:]/g, '');
  const type = (contentType ?? '').toLowerCase();
  const ext = type.includes('json') ? 'json' : type.includes('csv') ? 'csv' : request.accept === 'text' ? 'txt' : 'json';
  return `${request.provider}/${hash}-${stamp}.${ext}`;
}
