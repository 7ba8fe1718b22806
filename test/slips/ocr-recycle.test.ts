import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { SlipReader } from '../../src/slips/ocr.js';

/**
 * The OCR worker is recycled when the process RSS passes its bound after a read (and after a read
 * that timed out): the engine's WebAssembly heap never shrinks, so only ending its thread gives a
 * large decode's memory back. RSS is injected here; the real figures are in docs/reliability.md.
 */

const MB = 1024 * 1024;
const PNG = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'slips', 'images', 'hr_app_parlay_moneyline_light.png'));

/** The engine threads tesseract.js spawns (it talks to them with `{ action, ... }` packets), and when each exits. */
const threads = new Map<Worker, Promise<number>>();
const originalPostMessage = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
  if (!threads.has(this) && typeof message === 'object' && message !== null && 'action' in message) {
    threads.set(this, new Promise<number>((resolve) => this.once('exit', resolve)));
  }
  return (originalPostMessage as (...args: unknown[]) => void).call(this, message, ...rest);
};
const readers: SlipReader[] = [];

afterAll(async () => {
  await Promise.all(readers.map((r) => r.close()));
  Worker.prototype.postMessage = originalPostMessage;
});

const exited = (thread: Promise<number>) => Promise.race([thread.then(() => 'exited'), new Promise<string>((r) => setTimeout(() => r('alive'), 10_000))]);
const newest = () => [...threads.values()].at(-1)!;

describe('OCR worker recycling', { timeout: 120_000 }, () => {
  it('keeps one worker under the bound, ends it after the read that passes the bound, starts a new one on the next read', async () => {
    let rss = 300 * MB;
    const reader = new SlipReader({ recycleRssBytes: 768 * MB, rss: () => rss });
    readers.push(reader);
    const before = threads.size;
    const first = await reader.read(PNG);
    await reader.read(PNG);
    expect(threads.size - before).toBe(1);
    expect(reader.recycles).toBe(0);
    const firstThread = newest();

    rss = 900 * MB;
    const third = await reader.read(PNG);
    expect(third.page.words).toEqual(first.page.words);
    expect(reader.recycles).toBe(1);
    expect(await exited(firstThread)).toBe('exited');

    rss = 300 * MB;
    const fourth = await reader.read(PNG);
    expect(fourth.page.words).toEqual(first.page.words);
    expect(threads.size - before).toBe(2);
    expect(reader.recycles).toBe(1);
  });

  it('reads wait their turn on the reader, so each runs alone on its worker: past the bound each ends its own worker', async () => {
    const reader = new SlipReader({ recycleRssBytes: 768 * MB, rss: () => 900 * MB });
    readers.push(reader);
    await reader.start();
    const thread = newest();
    const both = await Promise.all([reader.read(PNG), reader.read(PNG)]);
    expect(both[0].page.words.length).toBeGreaterThan(10);
    expect(both[1].page.words).toEqual(both[0].page.words);
    // The first read ended the first worker; the second started its own and ended it too.
    expect(reader.starts).toBe(2);
    expect(reader.recycles).toBe(2);
    expect(await exited(thread)).toBe('exited');
  });

  it('a read past its budget ends its worker at once (the engine may still be deep in the decode), and the next read starts a new one', async () => {
    const reader = new SlipReader({ budgetMs: 1, recycleRssBytes: null });
    readers.push(reader);
    await reader.start();
    const thread = newest();
    await expect(reader.read(PNG)).rejects.toThrow(/OCR stopped at its 1 ms budget/);
    expect(reader.recycles).toBe(1);
    expect(reader.budgetStops).toBe(1);
    expect(await exited(thread)).toBe('exited');
    expect(reader.active).toBe(false);
  });
});
