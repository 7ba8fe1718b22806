import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AppError } from '../errors.js';
import { checkImage } from './image.js';
import type { OcrPage, SlipWord } from './schema.js';

/** LSTM-only integer model (2.95 MB): the smallest data that reads these slips as well as the full set. */
const DATA_FOLDER = '4.0.0_best_int';
const DATA_FILE = 'eng.traineddata.gz';
const DEFAULT_START_TIMEOUT_MS = 30_000;
const DEFAULT_RECOGNIZE_TIMEOUT_MS = 60_000;

/** The folder holding the offline language data, or an AppError naming what is missing. */
export function languageDataFolder(): string {
  const require = createRequire(import.meta.url);
  let root: string;
  try {
    root = dirname(require.resolve('@tesseract.js-data/eng/package.json'));
  } catch (cause) {
    throw new AppError('UNAVAILABLE', 'OCR language data is not installed (@tesseract.js-data/eng); run npm ci', { cause });
  }
  const folder = join(root, DATA_FOLDER);
  if (!existsSync(join(folder, DATA_FILE))) {
    throw new AppError('UNAVAILABLE', `OCR language data file missing: ${join(folder, DATA_FILE)}`);
  }
  return folder;
}

interface TesseractWord {
  text: string;
  confidence: number;
  bbox: { x0: number; y0: number; x1: number; y1: number };
}
interface TesseractBlock {
  paragraphs: Array<{ lines: Array<{ words: TesseractWord[] }> }>;
}
interface MinimalWorker {
  recognize(image: Buffer, options: object, output: object): Promise<{ data: { blocks: TesseractBlock[] | null } }>;
  terminate(): Promise<unknown>;
}

export interface SlipReaderOptions {
  startTimeoutMs?: number;
  recognizeTimeoutMs?: number;
  /**
   * Process RSS in bytes past which the worker is recycled after a read (terminated once its reads
   * are done, a new one started on the next read); null never. The engine's WebAssembly heap
   * grows to the largest image it decoded and never shrinks; only ending the thread gives it back.
   */
  recycleRssBytes?: number | null;
  /** Reads the process RSS (tests inject it). */
  rss?: () => number;
}

/**
 * The default recycle bound (env OCR_RECYCLE_RSS_MB). Measured (docs/reliability.md): a server that has
 * read ordinary screenshots sits near 370 MB; one image at the 25 MP budget takes it past 600 MB.
 */
export const DEFAULT_RECYCLE_RSS_MB = 512;

/**
 * The engine failed on an image whose header passed checkImage: the decode was attempted (and
 * cost the worker), so the route counts it against the caller's meter, unlike a refused upload.
 */
export class UndecodableImageError extends AppError {
  constructor(kind: string) {
    super('BAD_INPUT', `corrupt or unreadable ${kind.toUpperCase()} image: the OCR engine could not decode it`);
  }
}

/** One engine thread and the reads queued on it. */
interface Live {
  ready: Promise<MinimalWorker>;
  busy: number;
  retired: boolean;
}

export interface OcrRead {
  page: OcrPage;
  ms: number;
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => AppError): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Flattens tesseract's block tree into words; confidence goes from 0..100 to 0..1. */
export function wordsFromBlocks(blocks: TesseractBlock[] | null): SlipWord[] {
  const words: SlipWord[] = [];
  for (const block of blocks ?? []) {
    for (const para of block.paragraphs) {
      for (const line of para.lines) {
        for (const w of line.words) {
          const text = w.text.trim();
          if (!text) continue;
          words.push({
            text,
            conf: Math.max(0, Math.min(1, w.confidence / 100)),
            bbox: { x0: w.bbox.x0, y0: w.bbox.y0, x1: w.bbox.x1, y1: w.bbox.y1 },
          });
        }
      }
    }
  }
  return words;
}

/**
 * One tesseract.js worker reused across slips. Fully offline: language data comes from the
 * installed package, and `cacheMethod: 'none'` keeps traineddata out of the user's folder. After
 * a read that leaves the process over `recycleRssBytes`, or one that timed out (the engine may
 * still be deep in a decode), the worker is retired: terminated once its queued reads finish.
 */
export class SlipReader {
  private live: Live | null = null;
  private readonly retiring = new Set<Live>();
  private readonly startTimeoutMs: number;
  private readonly recognizeTimeoutMs: number;
  private readonly recycleRssBytes: number | null;
  private readonly rss: () => number;
  /** Time the last worker start took, for the bench. */
  startMs: number | null = null;
  /** Workers retired so far (memory bound or timeout). */
  recycles = 0;

  constructor(options: SlipReaderOptions = {}) {
    this.startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    this.recognizeTimeoutMs = options.recognizeTimeoutMs ?? DEFAULT_RECOGNIZE_TIMEOUT_MS;
    this.recycleRssBytes = options.recycleRssBytes === undefined ? DEFAULT_RECYCLE_RSS_MB * 1024 * 1024 : options.recycleRssBytes;
    this.rss = options.rss ?? (() => process.memoryUsage.rss());
  }

  /** Starts the worker now rather than on the first read (the bench times the two apart). */
  async start(): Promise<void> {
    await this.acquire().ready;
  }

  private acquire(): Live {
    if (this.live) return this.live;
    const live: Live = { ready: this.spawn(), busy: 0, retired: false };
    // A failed start is dropped so the next read tries again.
    live.ready.catch(() => {
      if (this.live === live) this.live = null;
    });
    this.live = live;
    return live;
  }

  private retire(live: Live): void {
    if (live.retired) return;
    live.retired = true;
    this.recycles += 1;
    if (this.live === live) this.live = null;
    this.retiring.add(live);
  }

  /** After a read: retire the worker if memory passed the bound; end a retired one with no reads left. */
  private settle(live: Live): void {
    if (!live.retired && this.recycleRssBytes !== null && this.rss() > this.recycleRssBytes) this.retire(live);
    if (live.retired && live.busy === 0) {
      this.retiring.delete(live);
      void terminate(live);
    }
  }

  private async spawn(): Promise<MinimalWorker> {
    // Checked first: a missing file makes tesseract.js fetch from a CDN and fail outside the promise.
    const langPath = languageDataFolder();
    const started = Date.now();
    const { createWorker, OEM } = await import('tesseract.js');
    let engineError: unknown = null;
    const pending = createWorker('eng', OEM.LSTM_ONLY, {
      langPath,
      gzip: true,
      cacheMethod: 'none',
      // Without a handler tesseract.js rethrows a failed job inside its message listener, where no
      // caller can catch it (a corrupt image would kill the process). With one, the job's promise
      // rejects normally; a failed start may never settle, which the timeout below covers.
      errorHandler: (error: unknown) => {
        engineError = error;
      },
    });
    const worker = await withTimeout(
      pending,
      this.startTimeoutMs,
      () =>
        new AppError(
          'UNAVAILABLE',
          `OCR engine did not start within ${this.startTimeoutMs} ms (language data at ${langPath})${engineError ? `: ${String(engineError)}` : ''}`,
        ),
    ).catch((error: unknown) => {
      // A worker that starts after we gave up must not keep the process alive.
      void pending.then((w) => w.terminate()).catch(() => undefined);
      if (error instanceof AppError) throw error;
      throw new AppError('UNAVAILABLE', `OCR engine failed to start: ${String(error)}`, { cause: error });
    });
    this.startMs = Date.now() - started;
    return worker as unknown as MinimalWorker;
  }

  /** Reads one slip image into words with boxes. Refuses non-images, corrupt and oversized files. */
  async read(image: Uint8Array): Promise<OcrRead> {
    const info = checkImage(image);
    const live = this.acquire();
    live.busy += 1;
    try {
      const worker = await live.ready;
      const started = Date.now();
      const buffer = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
      let result: { data: { blocks: TesseractBlock[] | null } };
      try {
        result = await withTimeout(worker.recognize(buffer, {}, { blocks: true, text: false }), this.recognizeTimeoutMs, () => {
          this.retire(live);
          return new AppError('UNAVAILABLE', `OCR did not finish within ${this.recognizeTimeoutMs} ms`);
        });
      } catch (error) {
        if (error instanceof AppError) throw error;
        // Tesseract rejects with a plain string or Error when the image data cannot be decoded.
        throw new UndecodableImageError(info.kind);
      }
      const ms = Date.now() - started;
      return { page: { width: info.width, height: info.height, words: wordsFromBlocks(result.data.blocks) }, ms };
    } finally {
      live.busy -= 1;
      this.settle(live);
    }
  }

  async close(): Promise<void> {
    const all = [...this.retiring, ...(this.live ? [this.live] : [])];
    this.live = null;
    this.retiring.clear();
    await Promise.all(all.map(terminate));
  }
}

/** Ends a worker's thread; one that never started has nothing to end. */
async function terminate(live: Live): Promise<void> {
  const worker = await live.ready.catch(() => null);
  if (worker) await worker.terminate().catch(() => undefined);
}
