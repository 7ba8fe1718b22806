// Lint: typescript-eslint's syntax-only rules (tsc already runs in `npm test`), three type-aware promise rules, and
// the architecture's floors (README "Architecture") as import rules, so a wrong-way import fails the build.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createNodeResolver, flatConfigs as importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FLOOR_1 = ['./src/cli', './src/server', './src/wire.ts'];
const FLOOR_2 = ['./src/jobs', './src/reads', './src/accounts'];
const FLOOR_3 = ['./src/content', './src/publish', './src/feeds', './src/slips'];
const ABOVE_STORE = [...FLOOR_1, ...FLOOR_2, ...FLOOR_3, './src/config.ts'];

const floor = (n, target, from, what) => ({
  target,
  from,
  message: `floor ${n} imports only downward (README "Architecture"): ${what}`,
});

export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', 'var/**', 'coverage/**', 'types/**', 'data/**', 'test/fixtures/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  importX.recommended,
  importX.typescript,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    settings: {
      // Sources import `./x.js` for `./x.ts` (NodeNext); resolve the alias without the type-checker.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.json', '.node'], extensionAlias: { '.js': ['.ts', '.js'], '.mjs': ['.mts', '.mjs'] } })],
    },
    rules: {
      // `_`-prefixed names are the codebase's "deliberately unused" (destructured-away fields, callback slots).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Named exports of packages are checked by tsc; the plugin's own check of them costs a parse of every dependency.
      'import-x/named': 'off',
      'import-x/namespace': 'off',
      'import-x/default': 'off',
      'import-x/no-named-as-default-member': 'off',
      // zod, drizzle and commander are used as `z.x`, `sql.x`, `program.x` by design: not the mistake this rule hunts.
      'import-x/no-named-as-default': 'off',
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests read untyped JSON answers and poke at raw shapes; the sources themselves hold no `any`.
      '@typescript-eslint/no-explicit-any': 'off',
      // Reference values from outside solvers (mpmath, penaltyblog) are written digit for digit as published.
      'no-loss-of-precision': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      // Circles are a property of src/; walking the graph again from every test file would double the run.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // Floor 5: the domain is pure and imports nothing of ours but itself and the error family.
            { target: './src/domain', from: './src', except: ['./domain', './errors.ts'], message: 'domain/ imports nothing of ours above it (README "Architecture")' },
            // Floor 4: the store sees only the domain (and the error family).
            { target: './src/store', from: './src', except: ['./store', './domain', './errors.ts'], message: 'store/ imports only domain/ (README "Architecture")' },
            floor(3, ['./src/content', './src/publish', './src/feeds', './src/slips'], [...FLOOR_1, ...FLOOR_2], 'content/, publish/, feeds/, slips/ may not import floors 1-2'),
            floor(2, ['./src/jobs', './src/reads', './src/accounts'], FLOOR_1, 'jobs/, reads/, accounts/ may not import cli/, server/ or wire.ts'),
            // jobs/ and reads/ are siblings (issue 35): what both need goes down a floor or is handed in from floor 1.
            { target: './src/jobs', from: './src/reads', message: 'jobs/ may not import reads/: move the shared piece down a floor, or let the cli/server caller pass it in (README "Architecture")' },
            { target: './src/reads', from: './src/jobs', message: 'reads/ may not import jobs/: move the shared piece down a floor, or let the cli/server caller pass it in (README "Architecture")' },
            // The top-level kernels: errors.ts imports nothing of ours; config.ts (the env schema) only domain and errors.
            { target: './src/errors.ts', from: './src', message: 'errors.ts is the shared kernel: it imports nothing of ours' },
            { target: './src/log.ts', from: './src', message: 'log.ts (the log line format) imports nothing of ours' },
            { target: './src/config.ts', from: ABOVE_STORE, message: 'config.ts may import only domain/ and errors.ts' },
          ],
        },
      ],
    },
  },
  {
    // Only the store touches SQL (issue 28): the driver and the query builder stay behind src/store.
    files: ['src/**/*.ts'],
    ignores: ['src/store/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['drizzle-orm', 'drizzle-orm/*', 'better-sqlite3', 'pg'], message: 'only src/store imports drizzle-orm, better-sqlite3 or pg: add a query in src/store/repo/' },
            // A `_`-prefixed store file is the store's own (raw statements, value mappings): the rest of src/ uses its public exports.
            { group: ['**/store/**/_*'], message: 'a `_` file of src/store is private to the store: import a public repo module, or move a pure helper to src/domain/' },
          ],
        },
      ],
    },
  },
  {
    // The store is asynchronous (issue 35: PostgreSQL). A store write nobody awaits is a write that may
    // land after its transaction, or not at all; a Promise in a condition is always true. These are the
    // only type-aware rules: they need the type-checker, so they run on src/ and test/ alone.
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
);
