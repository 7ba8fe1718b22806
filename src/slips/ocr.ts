import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AppError } from '../errors.js';
import { checkImage, type ImageInfo } from './image.js';
import { bilevelStats, dataUrlBytes, isNoise, NoiseImageError } from './noise.js';
import type { OcrPage, SlipWord } from './schema.js';

/** LSTM-only integer model (2.95 MB): the smallest data that reads these slips as well as the full set. */
const DATA_FOLDER = '4.0.0_best_int';
const DATA_FILE = 'eng.traineddata.gz';
const DEFAULT_START_TIMEOUT_MS = 30_000;
/**
 * The most one read may take once its worker is up: the thresholding, the noise count and the
 * recognition together. The 20 real screenshots read in 0.3-1.8 s on the 2-core machine under load
 * (a 25 MP image of real content in 4.8 s), so 10 s stops what no slip needs (issue 40: a noise
 * image held the worker 61 s) while leaving room for a loaded machine.
 */
export const DEFAULT_BUDGET_MS = 10_000;
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
interface TesseractData {
  blocks: TesseractBlock[] | null;
  imageBinary?: string | null;
}
interface MinimalWorker {
  recognize(image: Buffer, options: object, output: object): Promise<{ data: TesseractData }>;
  terminate(): Promise<unknown>;
}

export interface SlipReaderOptions {
  startTimeoutMs?: number;
  /** The most one read may take once its worker is up (DEFAULT_BUDGET_MS); past it the worker is ended. */
  budgetMs?: number;
  /**
   * Process RSS in bytes past which the worker is recycled after a read (terminated, a new one
   * started on the next read); null never. The engine's WebAssembly heap grows to the largest
   * image it decoded and never shrinks; only ending the thread gives it back.
   */
  recycleRssBytes?: number | null;
  /** Reads the process RSS (tests inject it). */
  rss?: () => number;
  /** The server's pool (ocr-pool.ts): engine threads, and parses that may wait for one. A lone reader ignores these. */
  workers?: number;
  queue?: number;
}

/**
 * The default recycle bound (env OCR_RECYCLE_RSS_MB). Measured (docs/reliability.md): a server that has
 * read ordinary screenshots sits near 370 MB; one image at the 25 MP budget takes it past 600 MB.
 */
export const DEFAULT_RECYCLE_RSS_MB = 512;

/**
 * The engine failed on an image whose header passed checkImage: the decode was attempted (and
 * cost the worker). Counted against the caller's meter like every parse.
 */
export class UndecodableImageError extends AppError {
  constructor(kind: string) {
    super('BAD_INPUT', `corrupt or unreadable ${kind.toUpperCase()} image: the OCR engine could not decode it`);
  }
}

/** A read stopped at its budget: the worker was ended mid-image (503, with when to try again). */
export class OcrBudgetError extends AppError {
  constructor(budgetMs: number) {
    super('UNAVAILABLE', `OCR stopped at its ${budgetMs} ms budget and its worker was ended: a slip screenshot reads in about a second; the parse is counted`, {
      retryAfter: Math.ceil(budgetMs / 1000),
    });
  }
}

/** One engine thread. */
interface Live {
  ready: Promise<MinimalWorker>;
  retired: boolean;
}

export interface OcrRead {
  page: OcrPage;
  ms: number;
}

/** What reads a slip image: a lone SlipReader (the CLI), or a ticket of the server's pool. */
export interface OcrReader {
  read(image: Uint8Array): Promise<OcrRead>;
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
 * One tesseract.js worker reused across slips, reading one image at a time (reads wait their turn
 * here, not inside the engine, so ending the worker never strands a read queued behind another).
 * Fully offline: language data comes from the installed package, and `cacheMethod: 'none'` keeps
 * traineddata out of the user's folder. Each read first has the engine threshold the image and
 * refuses noise on the count in noise.ts; then it recognises, within the budget. A read past its
 * budget ends the worker at once (the engine may be deep in a decode; ending the thread is the only
 * way to stop it); a read that leaves the process over `recycleRssBytes` ends it after the read.
 */
export class SlipReader implements OcrReader {
  private live: Live | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private abort: ((error: AppError) => void) | null = null;
  private closed = false;
  private readonly startTimeoutMs: number;
  readonly budgetMs: number;
  private readonly recycleRssBytes: number | null;
  private readonly rss: () => number;
  /** Time the last worker start took, for the bench. */
  startMs: number | null = null;
  /** Workers started so far. */
  starts = 0;
  /** Workers retired so far (memory bound or budget). */
  recycles = 0;
  /** Reads stopped at the budget, and images refused as noise. */
  budgetStops = 0;
  noiseRefusals = 0;

  constructor(options: SlipReaderOptions = {}) {
    this.startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    this.budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
    this.recycleRssBytes = options.recycleRssBytes === undefined ? DEFAULT_RECYCLE_RSS_MB * 1024 * 1024 : options.recycleRssBytes;
    this.rss = options.rss ?? (() => process.memoryUsage.rss());
  }

  /** Starts the worker now rather than on the first read (the bench times the two apart). */
  async start(): Promise<void> {
    await this.acquire().ready;
  }

  /** Whether a worker is up or starting. */
  get active(): boolean {
    return this.live !== null;
  }

  private acquire(): Live {
    if (this.closed) throw new AppError('UNAVAILABLE', 'the OCR reader is closed', { retryAfter: 1 });
    if (this.live) return this.live;
    this.starts += 1;
    const live: Live = { ready: this.spawn(), retired: false };
    // A failed start is dropped so the next read tries again.
    live.ready.catch(() => {
      if (this.live === live) this.live = null;
    });
    this.live = live;
    return live;
  }

  /** Ends the worker now; the next read starts a new one. */
  private retire(live: Live): void {
    if (live.retired) return;
    live.retired = true;
    this.recycles += 1;
    if (this.live === live) this.live = null;
    void terminate(live);
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
          { retryAfter: 1 },
        ),
    ).catch((error: unknown) => {
      // A worker that starts after we gave up must not keep the process alive.
      void pending.then((w) => w.terminate()).catch(() => undefined);
      if (error instanceof AppError) throw error;
      throw new AppError('UNAVAILABLE', `OCR engine failed to start: ${String(error)}`, { cause: error, retryAfter: 1 });
    });
    this.startMs = Date.now() - started;
    return worker as unknown as MinimalWorker;
  }

  /** Reads one slip image into words with boxes. Refuses non-images, oversized files, noise and corrupt data. */
  read(image: Uint8Array): Promise<OcrRead> {
    const info = checkImage(image);
    const turn = this.tail.then(() => this.readNow(image, info));
    this.tail = turn.catch(() => undefined);
    return turn;
  }

  private async readNow(image: Uint8Array, info: ImageInfo): Promise<OcrRead> {
    const live = this.acquire();
    const worker = await live.ready;
    const buffer = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
    const started = Date.now();
    // One deadline for the whole read; close() stops it the same way.
    let timer: NodeJS.Timeout | undefined;
    const stop = new Promise<never>((_, reject) => {
      this.abort = reject;
      timer = setTimeout(() => {
        this.budgetStops += 1;
        this.retire(live);
        reject(new OcrBudgetError(this.budgetMs));
      }, this.budgetMs);
    });
    stop.catch(() => undefined);
    const engine = <T>(job: Promise<T>): Promise<T> =>
      Promise.race([job, stop]).catch((error: unknown) => {
        if (error instanceof AppError) throw error;
        // Tesseract rejects with a plain string or Error when the image data cannot be decoded.
        throw new UndecodableImageError(info.kind);
      });
    try {
      // The engine's thresholding alone (no recognition): the black-and-white picture OCR would lay out.
      const binary = await engine(worker.recognize(buffer, {}, { text: false, imageBinary: true }));
      // A picture this reader cannot take apart is left to the budget rather than refused.
      const stats = await Promise.race([bilevelStats(dataUrlBytes(binary.data.imageBinary ?? '')).catch(() => null), stop]);
      if (stats && isNoise(stats)) {
        this.noiseRefusals += 1;
        throw new NoiseImageError(stats);
      }
      const result = await engine(worker.recognize(buffer, {}, { blocks: true, text: false }));
      return { page: { width: info.width, height: info.height, words: wordsFromBlocks(result.data.blocks) }, ms: Date.now() - started };
    } finally {
      clearTimeout(timer);
      this.abort = null;
      if (!live.retired && this.recycleRssBytes !== null && this.rss() > this.recycleRssBytes) this.retire(live);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.abort?.(new AppError('UNAVAILABLE', 'the server is shutting down', { retryAfter: 1 }));
    const live = this.live;
    this.live = null;
    if (live) await terminate(live);
  }
}

/** Ends a worker's thread; one that never started has nothing to end. */
async function terminate(live: Live): Promise<void> {
  const worker = await live.ready.catch(() => null);
  if (worker) await worker.terminate().catch(() => undefined);
}
