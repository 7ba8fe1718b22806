// Benchmark: what a hostile slip upload costs the server (issue 40 items 1 and 2). Run after
// `npm run build`: node scripts/bench/slip-rationing.mjs [--unscreened]
//
// 1. Event-loop time of a refused upload. A child process sends 4 MB of junk as the image of
//    POST /api/slips/parse (whole bodies, one after another); this process is only the server, and
//    performance.eventLoopUtilization() gives the loop's busy time per upload. Three cases: a free
//    user's first junk upload (refused on its first bytes, counted), the same user looping (429
//    before the body: the rest is drained unread), and the baseline measured in the same run: the
//    route as it was before issue 40 (the whole body buffered, h3's readMultipartFormData, then the
//    magic-byte check), on the same bodies. Ratio: baseline / first-bytes refusal.
// 2. OCR time of noise against a real slip, one SlipReader: the review's 87 KB DraftKings slip,
//    the 4,999 x 4,999 one-bit noise PNG (refused on the noise count before OCR) and noise of 8 px
//    blocks (past the count: stopped at the 10 s budget). Ratio: noise / real slip. --unscreened also
//    runs the engine on the noise with no count and a 120 s cap (what every noise image cost before).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { deflateSync } from 'node:zlib';
import { createApp as createH3App, eventHandler, readMultipartFormData, toNodeListener } from 'h3';
import { benchResult, dist, median, ROOT, round, silentLog, SMOKE, tempDir } from './_shared.mjs';

const UPLOADS = SMOKE ? 3 : 20;
const JUNK_BYTES = 4 * 1024 * 1024 - 1024;
const NOISE_SIDE = SMOKE ? 600 : 4999;

const { loadConfig } = await dist('config.js');
const { createApp } = await dist('server/app.js');
const { openStore } = await dist('store/db.js');
const { createUser } = await dist('accounts/users.js');
const { sniffImage } = await dist('slips/image.js');
const { SlipReader } = await dist('slips/ocr.js');

// ---- 1. event-loop time of a refused upload ----

/** The child that sends the uploads, so its CPU is not this process's. Prints the statuses as JSON. */
const CLIENT = `
const { Agent, request } = require('node:http');
// Keep-alive, as fetch and browsers send: an early answer leaves the connection open while the rest of the body drains.
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const [base, tokens, bytes] = [process.argv[1], JSON.parse(process.argv[2]), Number(process.argv[3])];
const junk = require('node:crypto').randomBytes(bytes);
const boundary = 'bench';
const body = Buffer.concat([Buffer.from('--' + boundary + '\\r\\nContent-Disposition: form-data; name="image"; filename="x.png"\\r\\n\\r\\n'), junk, Buffer.from('\\r\\n--' + boundary + '--\\r\\n')]);
const one = (token) => new Promise((resolve, reject) => {
  const req = request(base + '/api/slips/parse', { method: 'POST', agent, headers: { authorization: 'Bearer ' + token, 'content-type': 'multipart/form-data; boundary=' + boundary, 'content-length': body.length } }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); });
  req.on('error', reject);
  req.end(body);
});
(async () => { const out = []; for (const t of tokens) out.push(await one(t)); agent.destroy(); console.log(JSON.stringify(out)); })();
`;

async function sendFromChild(base, tokens) {
  const child = spawn(process.execPath, ['-e', CLIENT, base, JSON.stringify(tokens), String(JUNK_BYTES)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  await new Promise((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`client exited ${code}`)))));
  return JSON.parse(out);
}

/**
 * This process's cost while the child sends `tokens.length` uploads to `base`: its CPU time (every
 * thread, robust to a loaded machine) and the event loop's busy time (wall clock: inflated when
 * the machine preempts it). The cost of a child sending nothing is taken off, per upload.
 */
async function loopCost(base, tokens) {
  const measure = async (list) => {
    const elu = performance.eventLoopUtilization();
    const cpu = process.cpuUsage();
    const statuses = await sendFromChild(base, list);
    const spent = process.cpuUsage(cpu);
    return { cpuMs: (spent.user + spent.system) / 1000, loopMs: performance.eventLoopUtilization(elu).active, statuses };
  };
  const empty = await measure([]);
  const run = await measure(tokens);
  const n = tokens.length;
  return { cpuMs: Math.max(0, run.cpuMs - empty.cpuMs) / n, loopMs: Math.max(0, run.loopMs - empty.loopMs) / n, statuses: run.statuses };
}

function listen(listener) {
  const server = createServer(listener);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${server.address().port}` })));
}

/** The slip route's upload path before issue 40: the capped body buffered whole, h3's multipart parse, then the sniff. */
function baselineApp() {
  const app = createH3App();
  app.use(
    '/api/slips/parse',
    eventHandler(async (event) => {
      const chunks = [];
      for await (const chunk of event.node.req) chunks.push(chunk);
      event.node.req[Symbol.for('h3RawBody')] = Promise.resolve(Buffer.concat(chunks));
      const parts = await readMultipartFormData(event);
      const image = parts?.find((p) => p.name === 'image');
      event.node.res.statusCode = image && sniffImage(image.data) ? 200 : 400;
      return { error: { code: 'BAD_INPUT', message: 'not an image' } };
    }),
  );
  return toNodeListener(app);
}

/** The floor: a bare node:http server that answers 400 at once and drains the body unread (what any early answer costs). */
function floorListener(req, res) {
  req.resume();
  res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"code":"BAD_INPUT","message":"not an image"}}');
}

const dir = tempDir('slip-rationing');
const store = openStore(join(dir, 'bench.sqlite'));
const wall = new Date();
const app = createApp({ store, config: loadConfig({}), log: silentLog, wallClock: () => wall });
const current = await listen(app.listener);
const baseline = await listen(baselineApp());
const floor = await listen(floorListener);

const fresh = [];
for (let i = 0; i < UPLOADS; i++) fresh.push((await createUser(store, { email: `junk-${i}@bench.test`, tier: 'free' }, wall)).token);
const looping = (await createUser(store, { email: 'looper@bench.test', tier: 'free' }, wall)).token;

// A warm-up of each path, so module loading and first statements are not counted.
await loopCost(current.base, [(await createUser(store, { email: 'warm@bench.test', tier: 'free' }, wall)).token]);
await loopCost(baseline.base, ['-']);
const old = await loopCost(baseline.base, fresh.map(() => '-'));
const bare = await loopCost(floor.base, fresh.map(() => '-'));
const first = await loopCost(current.base, fresh);
const again = await loopCost(current.base, [looping, ...fresh.map(() => looping)]);
current.server.close();
baseline.server.close();
floor.server.close();

const expect = (what, ok) => {
  if (!ok) {
    console.error(`slip-rationing: ${what}`);
    process.exit(1);
  }
};
expect('the baseline refuses every junk upload', old.statuses.every((s) => s === 400));
expect('every first junk upload is a 400', first.statuses.every((s) => s === 400));
expect('a looping free user gets one 400, then 429s', again.statuses[0] === 400 && again.statuses.slice(1).every((s) => s === 429));
const loopRatio = old.cpuMs / first.cpuMs;
const line = (c) => `CPU ${round(c.cpuMs, 2)} ms, event loop busy ${round(c.loopMs, 2)} ms`;
console.log(`refused 4 MB upload, the server's cost per upload (${UPLOADS} uploads each, the client in a child process):`);
console.log(`  before (whole body buffered, h3 multipart parse, sniff): ${line(old)}`);
console.log(`  now, refused on its first bytes (counted): ${line(first)} (${round(loopRatio, 1)}x less CPU)`);
console.log(`  now, the same free user looping (429 before the body, the rest drained): ${line(again)}`);
console.log(`  floor: a bare node:http server answering 400 at once and draining the body: ${line(bare)}`);

// ---- 2. OCR time: noise against a real slip ----

/** The noise PNG of test/security/_noise.ts (one-bit, seeded, square blocks of `block` px). */
function noisePng(width, height, block, seed = 40) {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = table[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, sum]);
  };
  let a = seed;
  const random = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rowBytes = Math.ceil(width / 8);
  const raw = Buffer.alloc((rowBytes + 1) * height);
  const cells = new Uint8Array(Math.ceil(width / block));
  for (let y = 0; y < height; y++) {
    if (y % block === 0) for (let i = 0; i < cells.length; i++) cells[i] = random() < 0.5 ? 1 : 0;
    const row = y * (rowBytes + 1) + 1;
    for (let x = 0; x < width; x++) if (cells[(x / block) | 0]) raw[row + (x >> 3)] |= 0x80 >> (x & 7);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** Wall and process CPU (every thread) of one read; its outcome in a word. */
async function timedRead(reader, image) {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  let outcome;
  try {
    const read = await reader.read(image);
    outcome = `read, ${read.page.words.length} words`;
  } catch (error) {
    outcome = /noise/.test(error.message) ? 'refused as noise' : /budget/.test(error.message) ? 'stopped at the budget' : `failed: ${error.message}`;
  }
  const spent = process.cpuUsage(cpu);
  return { ms: performance.now() - t0, cpuMs: (spent.user + spent.system) / 1000, outcome };
}

const real = readFileSync(join(ROOT, 'test/fixtures/slips/images/dk_app_bet_placed_prop_light.png'));
const noise = noisePng(NOISE_SIDE, NOISE_SIDE, 1);
const blocks = noisePng(NOISE_SIDE, NOISE_SIDE, 8);
const reader = new SlipReader({ recycleRssBytes: null });
await reader.start();
const rounds = SMOKE ? 1 : 3;
const realReads = [];
const noiseReads = [];
for (let r = 0; r < rounds; r++) {
  realReads.push(await timedRead(reader, real));
  noiseReads.push(await timedRead(reader, noise));
}
const blockRead = SMOKE ? null : await timedRead(reader, blocks);
await reader.close();
expect('the real slip reads', realReads.every((r) => r.outcome.startsWith('read')));
expect('the noise is refused on the count', SMOKE || noiseReads.every((r) => r.outcome === 'refused as noise'));
const realMs = median(realReads.map((r) => r.ms));
const noiseMs = median(noiseReads.map((r) => r.ms));
const ocrRatio = noiseMs / realMs;
console.log(`OCR on one worker (median of ${rounds}; CPU is the process's, the engine thread included):`);
console.log(`  real 87 KB DraftKings slip: ${round(realMs, 0)} ms, CPU ${round(median(realReads.map((r) => r.cpuMs)), 0)} ms`);
console.log(`  noise ${NOISE_SIDE} x ${NOISE_SIDE} one-bit (${round(noise.length / 1e6, 1)} MB): ${noiseReads[0].outcome} in ${round(noiseMs, 0)} ms, CPU ${round(median(noiseReads.map((r) => r.cpuMs)), 0)} ms (${round(ocrRatio, 2)}x the real slip)`);
if (blockRead) console.log(`  noise of 8 px blocks (${round(blocks.length / 1e3, 0)} KB): ${blockRead.outcome} in ${round(blockRead.ms, 0)} ms, CPU ${round(blockRead.cpuMs, 0)} ms`);

let unscreened = null;
if (process.argv.includes('--unscreened')) {
  // The engine alone, no noise count: what the route did with every noise image before issue 40.
  const { createWorker, OEM } = await import('tesseract.js');
  const { languageDataFolder } = await dist('slips/ocr.js');
  const worker = await createWorker('eng', OEM.LSTM_ONLY, { langPath: languageDataFolder(), gzip: true, cacheMethod: 'none' });
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const done = await Promise.race([worker.recognize(noise, {}, { blocks: true, text: false }).then(() => true), new Promise((r) => setTimeout(() => r(false), 120_000))]);
  const spent = process.cpuUsage(cpu);
  await worker.terminate();
  unscreened = { ms: performance.now() - t0, cpuMs: (spent.user + spent.system) / 1000, done };
  console.log(`  unscreened noise through the engine: ${done ? 'finished' : 'not finished at the 120 s cap'} after ${round(unscreened.ms / 1000, 1)} s, CPU ${round(unscreened.cpuMs / 1000, 1)} s`);
}
await store.close();

benchResult('slip-rationing', `a refused 4 MB upload costs the server ${round(loopRatio, 1)}x less CPU than the buffered multipart parse; noise is refused in ${round(ocrRatio, 2)}x a real slip's OCR time`, loopRatio, {
  uploads: UPLOADS,
  beforeCpuMsPerUpload: round(old.cpuMs, 2),
  firstBytesCpuMsPerUpload: round(first.cpuMs, 2),
  meteredCpuMsPerUpload: round(again.cpuMs, 2),
  floorCpuMsPerUpload: round(bare.cpuMs, 2),
  beforeLoopMsPerUpload: round(old.loopMs, 2),
  firstBytesLoopMsPerUpload: round(first.loopMs, 2),
  meteredLoopMsPerUpload: round(again.loopMs, 2),
  realSlipMs: round(realMs, 0),
  noiseMs: round(noiseMs, 0),
  noiseToRealRatio: round(ocrRatio, 2),
  blockNoiseMs: blockRead ? round(blockRead.ms, 0) : null,
  unscreenedNoiseMs: unscreened ? round(unscreened.ms, 0) : null,
});
