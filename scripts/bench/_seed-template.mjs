// Child of the benches: writes a store file holding the replay's seed history, checkpointed, and
// prints {games, seedMs} as JSON. Not a bench (run-all skips files starting with "_").
import { seededStore } from './_shared.mjs';

const path = process.argv[2];
if (!path) throw new Error('usage: _seed-template.mjs <store file>');
const { dirname, basename } = await import('node:path');
const { renameSync } = await import('node:fs');
const { store, seedMs, games } = await seededStore(dirname(path));
store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
await store.close();
renameSync(`${dirname(path)}/bench.sqlite`, path);
console.log(JSON.stringify({ games, seedMs: Math.round(seedMs), file: basename(path) }));
