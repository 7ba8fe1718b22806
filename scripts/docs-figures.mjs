#!/usr/bin/env node
/**
 * Docs figures, regenerated from the real CLI so they cannot drift (issue 41 item 10: README's MLB
 * settle, the MLB tables and "most rows were locked at 15:05" no longer reproduced).
 *
 *   node scripts/docs-figures.mjs --check            the fast blocks (bundled data/replay): exit 1 with a diff when a block differs
 *   node scripts/docs-figures.mjs --write            rewrite the fast blocks in place
 *   node scripts/docs-figures.mjs --check --seasons  the slow blocks only (../shared history, season folders): minutes
 *   node scripts/docs-figures.mjs --check --all      both
 *   node scripts/docs-figures.mjs --list             every block, where it is, fast or slow
 *   --only <name>[,<name>]                           just these blocks
 *
 * A figure block in README.md or docs/*.md is the text between two markers (on their own lines,
 * or inline inside a sentence; the text between them is replaced byte for byte):
 *
 *   <!-- figures:mlb-settle-day -->20 entries, 9 hit, 11 miss<!-- /figures:mlb-settle-day -->
 *
 * Adding a block:
 *   1. Put the markers around the figure in the doc (a name may appear in several places; each gets
 *      the same text).
 *   2. Add an entry to `blocks` in a module of scripts/docs-figures/ (every *.mjs there is loaded;
 *      one module per subject, e.g. soccer.mjs for the EPL season tables):
 *        export const blocks = [{ name: 'epl-season', slow: true, about: '...', render: async (ctx) => '...' }];
 *      `render` returns the exact text between the markers. It must run the real CLI (the built
 *      bin: `npm run build` first), `--json` where the command has it, through the helpers on
 *      `ctx` (scripts/docs-figures/_context.mjs): ctx.cli(args, { db }), ctx.json(args, { db }),
 *      ctx.store(name) (a fresh temp store path), ctx.once(key, fn) (a setup several blocks
 *      share, e.g. one season run), ctx.fmt (number formatting as the docs write it).
 *   3. `slow: true` when it needs ../shared or a season folder (scripts/build-season-replay.mjs):
 *      CI checks those after `npm test` with `--check --seasons` (.ci/run); fast blocks are checked
 *      by test/docs/figures.test.ts and must stay within seconds.
 *   A marker without a block, or a block without a marker, fails the check.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createContext } from './docs-figures/_context.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BLOCKS_DIR = join(ROOT, 'scripts', 'docs-figures');
const MARKER = /<!-- figures:([a-z0-9-]+) -->([\s\S]*?)<!-- \/figures:\1 -->/g;

function docFiles() {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => join(ROOT, 'docs', f));
  return [join(ROOT, 'README.md'), ...docs];
}

async function loadBlocks() {
  const all = new Map();
  for (const file of readdirSync(BLOCKS_DIR).filter((f) => f.endsWith('.mjs') && !f.startsWith('_')).sort()) {
    const mod = await import(pathToFileURL(join(BLOCKS_DIR, file)).href);
    for (const block of mod.blocks ?? []) {
      if (all.has(block.name)) throw new Error(`block ${block.name} is defined twice (${file})`);
      all.set(block.name, { ...block, module: file });
    }
  }
  return all;
}

/** Every marker pair in the docs: name -> [{ file, text }]. */
function findMarkers() {
  const found = new Map();
  for (const file of docFiles()) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(MARKER)) {
      const list = found.get(m[1]) ?? [];
      list.push({ file, current: m[2] });
      found.set(m[1], list);
    }
  }
  return found;
}

/** A small line diff: the lines that differ, - current, + generated. */
function diff(name, file, current, generated) {
  const a = current.split('\n');
  const b = generated.split('\n');
  const out = [`--- ${relative(ROOT, file)} (figures:${name}, in the doc)`, `+++ generated`];
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    if (a[i] === b[i]) continue;
    if (a[i] !== undefined) out.push(`-${a[i]}`);
    if (b[i] !== undefined) out.push(`+${b[i]}`);
  }
  return out.join('\n');
}

export async function run(argv) {
  const has = (flag) => argv.includes(flag);
  const onlyArg = argv.indexOf('--only');
  const only = onlyArg >= 0 ? new Set(argv[onlyArg + 1].split(',')) : null;
  const blocks = await loadBlocks();
  const markers = findMarkers();
  const problems = [];
  for (const name of markers.keys()) if (!blocks.has(name)) problems.push(`a marker figures:${name} (${markers.get(name).map((m) => relative(ROOT, m.file)).join(', ')}) has no block in scripts/docs-figures/`);
  for (const name of blocks.keys()) if (!markers.has(name)) problems.push(`block ${name} has no marker in README.md or docs/*.md`);
  if (has('--list')) {
    for (const [name, b] of blocks) console.log(`${name}\t${b.slow ? 'slow' : 'fast'}\t${(markers.get(name) ?? []).map((m) => relative(ROOT, m.file)).join(', ')}\t${b.about ?? ''}`);
    return problems.length ? (console.error(problems.join('\n')), 1) : 0;
  }
  const write = has('--write');
  if (!write && !has('--check')) {
    console.error('usage: node scripts/docs-figures.mjs --check | --write [--seasons | --all] [--only a,b] | --list');
    return 2;
  }
  const wanted = [...blocks.values()].filter((b) => (only ? only.has(b.name) : has('--all') || (has('--seasons') ? b.slow : !b.slow)));
  const ctx = createContext(ROOT);
  const generated = new Map();
  try {
    for (const b of wanted) {
      const started = Date.now();
      generated.set(b.name, await b.render(ctx));
      console.error(`figures:${b.name} ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    ctx.cleanup();
  }
  const diffs = [];
  const byFile = new Map();
  for (const [name, text] of generated) {
    for (const m of markers.get(name) ?? []) {
      if (m.current !== text) diffs.push(diff(name, m.file, m.current, text));
      byFile.set(m.file, true);
    }
  }
  if (write) {
    for (const file of byFile.keys()) {
      const before = readFileSync(file, 'utf8');
      const after = before.replace(MARKER, (whole, name) => (generated.has(name) ? `<!-- figures:${name} -->${generated.get(name)}<!-- /figures:${name} -->` : whole));
      if (after !== before) {
        writeFileSync(file, after);
        console.error(`wrote ${relative(ROOT, file)}`);
      }
    }
  } else if (diffs.length > 0) {
    console.log(diffs.join('\n\n'));
    console.log(`\n${diffs.length} figure block(s) differ from what the CLI prints now: node scripts/docs-figures.mjs --write${has('--seasons') ? ' --seasons' : ''}`);
  }
  if (problems.length > 0) console.error(problems.join('\n'));
  return problems.length > 0 || (!write && diffs.length > 0) ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  run(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err instanceof Error ? err.stack : String(err));
      process.exit(1);
    },
  );
}
