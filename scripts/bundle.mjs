// Bundles the CLI for start-up speed (issue 18): `npm run build` runs it after tsc.
//
// bin/propgrade.js imports dist/bundle/main.js. Loaded file by file, a snapshot run opened about
// 340 modules (our own ~100, zod ~95, drizzle-orm ~110) and spent ~150 ms resolving, reading and
// compiling them before any work. Here our code and the pure-JS packages every command loads
// are bundled with esbuild, split at each command's dynamic import, so `--help` still loads no
// command and each command loads only its own chunks. Every other package stays a package import,
// as installed: better-sqlite3 (a native addon), tesseract.js (its worker and language data are
// found by path), and the clients only some commands load (stripe, undici, h3, listhen, ...).
// dist/ (tsc's output, one file per module) stays what the tests and benches import.
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'dist/bundle');

/** Packages bundled into the CLI (with whatever they import); any other package our code imports stays external. */
const BUNDLED = new Set(['zod', 'drizzle-orm', 'commander', 'chalk', 'cli-table3', 'csv-parse', 'p-limit']);

const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** @type {import('esbuild').Plugin} */
const keepOtherPackagesExternal = {
  name: 'keep-other-packages-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      // A bundled package's own imports are bundled with it; our code's imports only when listed.
      if (args.importer.includes(`${'/'}node_modules${'/'}`)) return undefined;
      return BUNDLED.has(packageOf(args.path)) ? undefined : { path: args.path, external: true };
    });
  },
};

/**
 * zod's `locales` namespace re-exports its 60-odd message languages (~400 KB, a fifth of the
 * bundle, parsed by every command that validates). propgrade speaks English and never calls
 * `z.locales`: the bundle keeps English, which zod installs itself, and drops the rest.
 */
/** @type {import('esbuild').Plugin} */
const englishZodMessagesOnly = {
  name: 'english-zod-messages-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({ contents: "export { default as en } from './en.js';", resolveDir: dirname(args.path) }));
  },
};

rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: [join(ROOT, 'src/cli/main.ts')],
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Every chunk sits two levels below the package root, as tsc's dist/store/db.js does: paths built
  // from import.meta.url (the migrations folder, the default store) resolve the same from either.
  chunkNames: '[name]-[hash]',
  entryNames: '[name]',
  // CommonJS packages bundled into ESM call require() for Node's built-ins.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);" },
  plugins: [keepOtherPackagesExternal, englishZodMessagesOnly],
  logLevel: 'warning',
  legalComments: 'none',
});
