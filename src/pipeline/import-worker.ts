// The worker thread of startReplaySeed (import-history.ts): writes the due game-log files into the
// store through a connection of its own and posts the results, or the failure's message (an error
// thrown across threads can arrive without its message: SQLite's names the table or file at fault).
import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from '../store/db.js';
import { writeGameLogs, type SeedAnswer, type SeedJob } from './import-history.js';

const job = workerData as SeedJob;
let answer: SeedAnswer;
try {
  // The caller opened (and migrated) the store before starting this worker.
  const store = openStore(job.path, { migrate: false });
  try {
    const now = new Date(job.now);
    answer = { results: job.due.map((d) => writeGameLogs(store, d, now)) };
  } finally {
    store.close();
  }
} catch (error) {
  answer = { failure: error instanceof Error ? error.message : String(error) };
}
parentPort?.postMessage(answer);
