#!/usr/bin/env node
/**
 * Builds a whole season's replay folder from ../shared, for `propgrade simulate <sport> --replay <dir>`:
 * every recorded snapshot time becomes a recording time, the projection history holds only games
 * before the first day, and each slate's box scores are recorded the morning after it for settle.
 * One builder per sport (scripts/season-replay/<sport>.mjs exporting build({ shared, outDir, from, to })).
 *
 *   node scripts/build-season-replay.mjs <nba|mlb|wnba|soccer> <dir> [--from yyyy-mm-dd] [--to yyyy-mm-dd] [--shared <dir>]
 *
 * Deterministic (same inputs, same bytes). Refuses to overwrite a folder that is not a replay folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SPORTS = ['nba', 'mlb', 'wnba', 'soccer'];

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function usage(message) {
  process.stderr.write(`${message}\nusage: node scripts/build-season-replay.mjs <nba|mlb|wnba|soccer> <dir> [--from yyyy-mm-dd] [--to yyyy-mm-dd] [--shared <dir>]\n`);
  process.exit(2);
}

const [sport, dir] = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !(i > 0 && all[i - 1]?.startsWith('--')));
if (!sport || !SPORTS.includes(sport)) usage(`sport must be one of ${SPORTS.join(', ')}`);
if (!dir) usage('missing <dir>');
const from = argValue('--from');
const to = argValue('--to');
for (const d of [from, to]) if (d !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(d)) usage(`not a date: ${d}`);
const shared = path.resolve(argValue('--shared') ?? path.join(REPO_ROOT, '..', 'shared'));
const outDir = path.resolve(dir);
const builderFile = path.join(REPO_ROOT, 'scripts', 'season-replay', `${sport}.mjs`);
if (!fs.existsSync(builderFile)) usage(`no season builder for ${sport} (scripts/season-replay/${sport}.mjs)`);
if (fs.existsSync(outDir)) {
  const isReplay = fs.existsSync(path.join(outDir, 'manifest.json')) || fs.readdirSync(outDir).length === 0;
  if (!isReplay) usage(`${outDir} exists and is not a replay folder (no manifest.json); refusing to overwrite`);
  fs.rmSync(outDir, { recursive: true });
}
fs.mkdirSync(outDir, { recursive: true });
const { build } = await import(pathToFileURL(builderFile).href);
const started = Date.now();
const summary = build({ shared, outDir, ...(from ? { from } : {}), ...(to ? { to } : {}) });
process.stdout.write(`${JSON.stringify({ sport, outDir, seconds: (Date.now() - started) / 1000, ...summary }, null, 2)}\n`);
