import { AppError } from '../errors.js';
import { SlipReader, type OcrRead, type OcrReader, type SlipReaderOptions } from './ocr.js';

/**
 * The server's OCR, rationed (issue 40): a few engine threads, a bounded line of parses waiting
 * for one, and a ticket per admitted parse taken before its upload is read, so a server never
 * holds more images than it can read soon. Past the line a parse is refused at once (503 with
 * Retry-After) instead of waiting behind images that may each take the whole budget.
 */

/** Engine threads: one per core of the 2-core machine the project runs on. */
export const DEFAULT_OCR_WORKERS = 2;
/** Parses that may wait for a thread beyond those reading. */
export const DEFAULT_OCR_QUEUE = 4;

/** One admitted parse: it reads at most one image, then gives its place back (release is idempotent). */
export interface OcrTicket extends OcrReader {
  release(): void;
}

interface Slot {
  reader: SlipReader;
  /** Wall time (ms) by which the read in hand ends at the latest; null when idle. */
  deadline: number | null;
}

export class OcrPool {
  readonly workers: number;
  readonly queue: number;
  readonly budgetMs: number;
  private readonly slots: Slot[];
  /** Parses waiting for a thread, first come first served. */
  private readonly waiting: Array<(slot: Slot | null) => void> = [];
  /** Tickets out: uploading, waiting or reading. */
  private held = 0;
  private closed = false;
  /** Parses refused because the line was full. */
  refusedBusy = 0;

  constructor(options: SlipReaderOptions = {}) {
    this.workers = Math.max(1, options.workers ?? DEFAULT_OCR_WORKERS);
    this.queue = Math.max(0, options.queue ?? DEFAULT_OCR_QUEUE);
    this.slots = Array.from({ length: this.workers }, () => ({ reader: new SlipReader(options), deadline: null }));
    this.budgetMs = this.slots[0]!.reader.budgetMs;
  }

  /** Engine threads started so far, over every slot. */
  get starts(): number {
    return this.slots.reduce((n, s) => n + s.reader.starts, 0);
  }

  /** Threads ended so far (budget stops and memory recycling). */
  get recycles(): number {
    return this.slots.reduce((n, s) => n + s.reader.recycles, 0);
  }

  get budgetStops(): number {
    return this.slots.reduce((n, s) => n + s.reader.budgetStops, 0);
  }

  get noiseRefusals(): number {
    return this.slots.reduce((n, s) => n + s.reader.noiseRefusals, 0);
  }

  /** Whether any engine thread is up or starting. */
  get active(): boolean {
    return this.slots.some((s) => s.reader.active);
  }

  /** Tickets out now (uploading, waiting or reading). */
  get inUse(): number {
    return this.held;
  }

  /** Seconds until a thread is sure to be free: the nearest deadline of the reads in hand, else one budget. */
  retryAfter(now = Date.now()): number {
    const deadlines = this.slots.map((s) => s.deadline).filter((d): d is number => d !== null);
    const soonest = deadlines.length ? Math.min(...deadlines) - now : this.budgetMs;
    return Math.max(1, Math.ceil(soonest / 1000));
  }

  /**
   * A place for one parse, or UNAVAILABLE at once when every thread is reading and the line is
   * full (or the pool is closing). Taken before the upload is read; release it when the parse ends.
   */
  admit(): OcrTicket {
    if (this.closed) throw new AppError('UNAVAILABLE', 'the server is shutting down', { retryAfter: 1 });
    if (this.held >= this.workers + this.queue) {
      this.refusedBusy += 1;
      throw new AppError('UNAVAILABLE', `slip OCR is busy: ${this.workers} images reading and ${this.queue} waiting; try again after Retry-After`, {
        retryAfter: this.retryAfter(),
        details: { workers: this.workers, queue: this.queue },
      });
    }
    this.held += 1;
    let released = false;
    let used = false;
    return {
      read: (image) => {
        if (used || released) return Promise.reject(new Error('an OCR ticket reads one image'));
        used = true;
        return this.run(image);
      },
      release: () => {
        if (released) return;
        released = true;
        this.held -= 1;
      },
    };
  }

  private idle(): Slot | undefined {
    return this.slots.find((s) => s.deadline === null);
  }

  private async run(image: Uint8Array): Promise<OcrRead> {
    const slot = this.idle() ?? (await new Promise<Slot | null>((resolve) => this.waiting.push(resolve)));
    if (!slot) throw new AppError('UNAVAILABLE', 'the server is shutting down', { retryAfter: 1 });
    // Taken before the read starts; a worker start is on top of the budget (its own 30 s timeout).
    slot.deadline = Date.now() + this.budgetMs;
    try {
      return await slot.reader.read(image);
    } finally {
      // Handed straight to the next in line, marked taken so no newcomer slips in between.
      const next = this.waiting.shift();
      slot.deadline = next ? Date.now() + this.budgetMs : null;
      next?.(slot);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.waiting.splice(0)) wake(null);
    await Promise.all(this.slots.map((s) => s.reader.close()));
  }
}
