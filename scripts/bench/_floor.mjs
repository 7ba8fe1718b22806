// The snapshot floor (issue 18), run as its own Node process by snapshot.mjs and timed from spawn
// to exit: read and parse EVERY file of the replay folder (JSON.parse each .json, split each .csv
// into cells), then write as many rows into a fresh SQLite file (the store's pragmas: WAL,
// synchronous NORMAL) in ONE transaction with ONE prepared INSERT. The rows are 12 columns taken
// from the parsed NBA game logs (cycled), so every value written is real text or a real number.
// Not a bench itself (run-all skips files starting with "_").
//   node scripts/bench/_floor.mjs <rows> <sqlite file>
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { REPLAY_DIR } from './_shared.mjs';

const rowsToWrite = Number(process.argv[2]);
const file = process.argv[3];
if (!(rowsToWrite > 0) || !file) throw new Error('usage: _floor.mjs <rows> <sqlite file>');

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

let items = 0;
let bytes = 0;
let records = [];
for (const path of filesUnder(REPLAY_DIR)) {
  const text = readFileSync(path, 'utf8');
  bytes += text.length;
  if (path.endsWith('.json')) {
    const body = JSON.parse(text);
    items += Array.isArray(body) ? body.length : Object.keys(body).length;
  } else if (path.endsWith('.csv')) {
    const lines = text.split('\n').filter((l) => l.length > 0);
    const parsed = lines.slice(1).map((l) => l.split(','));
    items += parsed.length;
    if (path.includes('nba-gamelogs')) records = records.concat(parsed);
  }
}

const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec('create table rows (id integer primary key, a text, b text, c text, d text, e real, f real, g real, h real, i real, j real, k real, l text)');
const insert = db.prepare('insert into rows (a, b, c, d, e, f, g, h, i, j, k, l) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
db.transaction(() => {
  for (let n = 0; n < rowsToWrite; n++) {
    const r = records[n % records.length];
    insert.run(r[1], r[3], r[4], r[5], Number(r[6]), Number(r[7]), Number(r[8]), Number(r[10]), Number(r[18]), Number(r[19]), Number(r[24]), r[26]);
  }
})();
db.close();
console.log(JSON.stringify({ items, bytes, rows: rowsToWrite }));
