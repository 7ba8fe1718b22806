// Benchmark: CLI start-up (issue 18). Run after `npm run build`: node scripts/bench/startup.mjs [rounds]
//
// Whole processes, timed from spawn to exit, interleaved round by round so machine load hits each
// alike: `propgrade --help` (top-level help from the command registry's summaries: no command
// module is loaded), `propgrade snapshot --help` (one command's module and its options), and the
// floor `node -e 0` (a Node process that does nothing). Ratios are medians over the rounds.
import { join } from 'node:path';
import { benchResult, measureProcess, median, ROOT, round, SMOKE } from './_shared.mjs';

const ROUNDS = Number(process.argv[2] ?? (SMOKE ? 3 : 21));
const CLI = join(ROOT, 'bin/propgrade.js');
const cases = {
  floor: ['-e', '0'],
  help: [CLI, '--help'],
  commandHelp: [CLI, 'snapshot', '--help'],
};

const samples = { floor: [], help: [], commandHelp: [] };
// One unmeasured pass so the first round does not pay the file cache alone.
for (const args of Object.values(cases)) await measureProcess(args);
for (let i = 0; i < ROUNDS; i++) {
  for (const [name, args] of Object.entries(cases)) {
    const r = await measureProcess(args);
    if (r.code !== 0) throw new Error(`${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    if (name !== 'floor' && !r.stdout.includes('Usage: propgrade')) throw new Error(`${args.join(' ')} printed no usage`);
    samples[name].push(r);
  }
}

const ms = (k) => median(samples[k].map((s) => s.ms));
const rss = (k) => median(samples[k].map((s) => s.peakRssMb));
const helpRatio = ms('help') / ms('floor');
const commandRatio = ms('commandHelp') / ms('floor');
const line = (label, k, extra = '') => console.log(`${label.padEnd(34)} ${ms(k).toFixed(1).padStart(7)} ms  peak RSS ${String(rss(k)).padStart(3)} MB${extra}`);
console.log(`${SMOKE ? 'SMOKE MODE (figures meaningless) — ' : ''}whole processes, median of ${ROUNDS} interleaved rounds`);
line('floor: node -e 0', 'floor');
line('propgrade --help', 'help', `  ${helpRatio.toFixed(2)}× the floor`);
line('propgrade snapshot --help', 'commandHelp', `  ${commandRatio.toFixed(2)}× the floor`);
const headline = `propgrade --help is ${helpRatio.toFixed(1)}× node -e 0 (${ms('help').toFixed(0)} ms vs ${ms('floor').toFixed(0)} ms); snapshot --help ${commandRatio.toFixed(1)}×`;
console.log(headline);
benchResult('startup', headline, helpRatio, {
  rounds: ROUNDS,
  floorMs: round(ms('floor'), 1),
  helpMs: round(ms('help'), 1),
  commandHelpMs: round(ms('commandHelp'), 1),
  helpRatio: round(helpRatio, 2),
  commandHelpRatio: round(commandRatio, 2),
  peakRssMbFloor: rss('floor'),
  peakRssMbHelp: rss('help'),
  peakRssMbCommandHelp: rss('commandHelp'),
});
