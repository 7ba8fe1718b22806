// The worker thread of prepareReplaySeed (import-history.ts): loads and opens its own connection to
// the store at once, writes the due game-log files when told to, and posts the results, or the
// failure's message (an error thrown across threads can arrive without its message: SQLite's names
// the table or file at fault).
import { parentPort, workerData } from 'node:worker_threads';
import type { Store } from '../store/db.js';
import { openStore } from '../store/db.js';
import { writeGameLogs, type SeedAnswer, type SeedJob } from './import-history.js';

const job = workerData as SeedJob;
const port = parentPort;

const failure = (error: unknown): SeedAnswer => ({ failure: error instanceof Error ? error.message : String(error) });

let store: Store | null = null;
let opened: SeedAnswer | null = null;
try {
  // The caller opened (and migrated) the store before starting this worker.
  store = openStore(job.path, { migrate: false });
} catch (error) {
  opened = failure(error);
}

port?.once('message', () => {
  let answer: SeedAnswer;
  if (store === null) answer = opened as SeedAnswer;
  else {
    try {
      const now = new Date(job.now);
      answer = { results: job.due.map((d) => writeGameLogs(store as Store, d, now)) };
    } catch (error) {
      answer = failure(error);
    } finally {
      store.close();
    }
  }
  port.postMessage(answer);
});
