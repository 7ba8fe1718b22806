import { AsyncLocalStorage } from 'node:async_hooks';
import { AppError } from '../../errors.js';

/** The writers whose mutex the current async context holds. */
const holding = new AsyncLocalStorage<ReadonlySet<Writer>>();

/**
 * A FIFO mutex held for a whole transaction, awaits included: the SQLite writer connection runs one
 * caller's transaction at a time, so no other caller's statement lands inside it.
 */
export class Writer {
  private tail: Promise<unknown> = Promise.resolve();
  private held = 0;
  get busy(): boolean {
    return this.held > 0;
  }
  run<T>(fn: () => Promise<T>): Promise<T> {
    const held = holding.getStore();
    // A transaction's body that writes through the outer store instead of its own handle would wait
    // for itself forever: say so at once.
    if (held?.has(this)) return Promise.reject(new AppError('INTERNAL', 'a store write inside a transaction used the outer store, not the transaction\'s handle'));
    this.held += 1;
    const mine = new Set(held ?? []).add(this);
    const result = this.tail.then(() => holding.run(mine, fn));
    this.tail = result.then(
      () => void (this.held -= 1),
      () => void (this.held -= 1),
    );
    return result;
  }
  /** Resolves when the current holders are done. */
  idle(): Promise<void> {
    return this.held === 0 ? Promise.resolve() : this.tail.then(() => this.idle());
  }
}

/**
 * One writer per file per process: two Store objects on one file in one process (a test, a
 * command that opens a second handle) would otherwise block in BEGIN IMMEDIATE's busy wait on the
 * one thread the other transaction needs to finish. Other processes wait in SQLite's busy timeout.
 */
const writers = new Map<string, Writer>();
export function writerFor(path: string): Writer {
  let writer = writers.get(path);
  if (!writer) writers.set(path, (writer = new Writer()));
  return writer;
}
