#!/usr/bin/env node
// Times parse-slip per real screenshot (tesseract.js worker start vs recognize vs parse) and,
// when the Debian `tesseract` CLI is installed, the same images through it, with the ratio.
// Run after `npm run build`:  node scripts/bench/parse-slip.mjs [image-dir] [--json]
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const { SlipReader } = await import(join(root, 'dist/slips/ocr.js'));
const { readSlipImage } = await import(join(root, 'dist/slips/reader.js'));
const { checkImage } = await import(join(root, 'dist/slips/image.js'));

const args = process.argv.slice(2);
const json = args.includes('--json');
const dir = resolve(args.find((a) => !a.startsWith('--')) ?? join(root, 'test/fixtures/slips/images'));
const images = readdirSync(dir)
  .filter((f) => /\.(png|jpe?g)$/i.test(f))
  .sort();
if (images.length === 0) {
  console.error(`no PNG/JPEG images in ${dir}`);
  process.exit(2);
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const round = (x) => Math.round(x);

// tesseract.js: one worker, started once and timed on its own.
const reader = new SlipReader();
const t0 = performance.now();
await reader.start();
const startMs = performance.now() - t0;

const rows = [];
for (const name of images) {
  const bytes = readFileSync(join(dir, name));
  const info = checkImage(bytes);
  const t = performance.now();
  const result = await readSlipImage(reader, bytes);
  const totalMs = performance.now() - t;
  rows.push({
    image: name,
    bytes: bytes.length,
    width: info.width,
    height: info.height,
    megapixels: info.width && info.height ? (info.width * info.height) / 1e6 : null,
    recognizeMs: result.ocr.ms,
    parseMs: Math.max(0, totalMs - result.ocr.ms),
    words: result.ocr.words,
    book: result.book.value,
    needsReview: result.needs_review,
  });
}
await reader.close();
const peakRssMb = process.resourceUsage().maxRSS / 1024;

// Debian tesseract CLI, one process per image. OMP_THREAD_LIMIT=1: with OpenMP's default threads
// it oversubscribes a small machine and runs several times slower (LAYOUTS.md §8).
const probe = spawnSync('tesseract', ['--version'], { encoding: 'utf8' });
const cli = probe.error ? null : (probe.stdout || probe.stderr).split('\n')[0];
if (cli) {
  for (const row of rows) {
    const t = performance.now();
    const r = spawnSync('tesseract', [join(dir, row.image), 'stdout', '--psm', '3'], {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      encoding: 'utf8',
    });
    row.cliMs = r.status === 0 ? performance.now() - t : null;
  }
}

const recognize = rows.map((r) => r.recognizeMs);
const perMp = rows.filter((r) => r.megapixels).map((r) => r.recognizeMs / r.megapixels);
const cliTimes = rows.map((r) => r.cliMs).filter((x) => typeof x === 'number');
const summary = {
  images: rows.length,
  workerStartMs: round(startMs),
  recognizeMeanMs: round(mean(recognize)),
  recognizeMinMs: round(Math.min(...recognize)),
  recognizeMaxMs: round(Math.max(...recognize)),
  firstRecognizeMs: round(recognize[0]),
  laterRecognizeMeanMs: rows.length > 1 ? round(mean(recognize.slice(1))) : null,
  parseMeanMs: Math.round(mean(rows.map((r) => r.parseMs)) * 10) / 10,
  recognizeMsPerMegapixel: perMp.length ? round(mean(perMp)) : null,
  peakRssMb: round(peakRssMb),
  tesseractCli: cli ?? null,
  cliMeanMs: cliTimes.length ? round(mean(cliTimes)) : null,
  ratioJsToCli: cliTimes.length ? Math.round((mean(recognize) / mean(cliTimes)) * 100) / 100 : null,
};

if (json) {
  console.log(JSON.stringify({ summary, rows }, null, 2));
} else {
  console.log(`parse-slip bench: ${rows.length} images from ${dir}`);
  console.log(`tesseract.js worker start: ${summary.workerStartMs} ms (once per process; reused across slips)`);
  console.log('image'.padEnd(44), 'px'.padStart(10), 'KB'.padStart(6), 'js ms'.padStart(7), 'parse'.padStart(6), 'cli ms'.padStart(7), 'ratio'.padStart(6));
  for (const r of rows) {
    console.log(
      r.image.padEnd(44),
      `${r.width}x${r.height}`.padStart(10),
      String(round(r.bytes / 1024)).padStart(6),
      String(round(r.recognizeMs)).padStart(7),
      r.parseMs.toFixed(1).padStart(6),
      (r.cliMs === undefined || r.cliMs === null ? '-' : String(round(r.cliMs))).padStart(7),
      (r.cliMs ? (r.recognizeMs / r.cliMs).toFixed(2) : '-').padStart(6),
    );
  }
  console.log(
    `tesseract.js recognize: mean ${summary.recognizeMeanMs} ms (min ${summary.recognizeMinMs}, max ${summary.recognizeMaxMs}); ` +
      `first ${summary.firstRecognizeMs} ms, later mean ${summary.laterRecognizeMeanMs} ms; ~${summary.recognizeMsPerMegapixel} ms per megapixel; ` +
      `parse ${summary.parseMeanMs} ms; peak RSS ${summary.peakRssMb} MB`,
  );
  if (cli) console.log(`${cli} (OMP_THREAD_LIMIT=1, process per image): mean ${summary.cliMeanMs} ms; tesseract.js / CLI = ${summary.ratioJsToCli}`);
  else console.log('Debian tesseract CLI not installed (`apt-get install tesseract-ocr`): no comparison run.');
}
