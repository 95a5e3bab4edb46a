// ESLint for the whole monorepo (flat config, one file). Two jobs:
//   1. catch real mistakes: @eslint/js and typescript-eslint "recommended" (no type-aware rules:
//      they would type-check everything a second time; `pnpm typecheck` already does that);
//   2. keep the package direction: DIRECTION below says which of our packages each package may
//      import. Anything else from @oneclaw/* is an error, so a new edge is a visible change here.
// Tests of the direction rule and of this table: tools/lint/src/direction.test.ts (docs/testing.md).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The package direction, bottom to top. `imports`: our packages it may import (their `./testing`
 * entry included); `typeImports`: ours it may import only with `import type` (nothing at run
 * time); `testImports`: more that its tests may import (`*.test.ts(x)` files and `testDirs`).
 * A package not listed here may import nothing of ours until it is added.
 */
export const DIRECTION = {
  // The domain: pure, imports nothing of ours.
  '@oneclaw/core': { dir: 'packages/core', imports: [] },
  // Browser-safe shapes of the HTTP API: types only, so the web bundle gets no server code.
  '@oneclaw/api-contract': { dir: 'packages/api-contract', imports: [], typeImports: ['@oneclaw/core'] },
  '@oneclaw/tool-registry': { dir: 'packages/tool-registry', imports: ['@oneclaw/core'] },
  '@oneclaw/js-tools': { dir: 'packages/js-tools', imports: ['@oneclaw/core', '@oneclaw/tool-registry'] },
  // Adapters: each owns one vendor SDK; they sit between the tool layer and the server and never
  // import each other or the server.
  '@oneclaw/model-providers': { dir: 'packages/model-providers', imports: ['@oneclaw/core', '@oneclaw/tool-registry'] },
  '@oneclaw/event-store-sqlite': { dir: 'packages/event-store-sqlite', imports: ['@oneclaw/core'] },
  '@oneclaw/event-store-kurrentdb': { dir: 'packages/event-store-kurrentdb', imports: ['@oneclaw/core'] },
  '@oneclaw/event-store-postgres': { dir: 'packages/event-store-postgres', imports: ['@oneclaw/core'] },
  '@oneclaw/tools-web': { dir: 'packages/tools-web', imports: ['@oneclaw/core', '@oneclaw/tool-registry', '@oneclaw/js-tools'] },
  '@oneclaw/tools-pdf': { dir: 'packages/tools-pdf', imports: ['@oneclaw/core', '@oneclaw/tool-registry', '@oneclaw/js-tools'] },
  '@oneclaw/tools-assets': { dir: 'tools-assets', imports: ['@oneclaw/core', '@oneclaw/tool-registry', '@oneclaw/js-tools'] },
  // The composition root: may import every package below it; nothing imports it at run time.
  '@oneclaw/server': {
    dir: 'packages/server',
    imports: [
      '@oneclaw/core',
      '@oneclaw/api-contract',
      '@oneclaw/tool-registry',
      '@oneclaw/js-tools',
      '@oneclaw/model-providers',
      '@oneclaw/event-store-sqlite',
      '@oneclaw/event-store-kurrentdb',
      '@oneclaw/event-store-postgres',
      '@oneclaw/tools-web',
      '@oneclaw/tools-pdf',
      '@oneclaw/tools-assets',
    ],
  },
  // The browser UI: types from the domain and the API contract, never server code. Its browser
  // tests start a real server with a fake model, through the server's test entry.
  '@oneclaw/web': {
    dir: 'apps/web',
    imports: [],
    typeImports: ['@oneclaw/core', '@oneclaw/api-contract'],
    testImports: ['@oneclaw/server/testing', '@oneclaw/model-providers/testing'],
    testDirs: ['e2e'],
  },
  // The Android launcher is plain browser JavaScript; its tests drive a real server.
  '@oneclaw/android-shell': {
    dir: 'apps/android-shell',
    imports: [],
    testImports: ['@oneclaw/server/testing', '@oneclaw/model-providers/testing'],
    testDirs: ['test'],
  },
  // Tests of these guardrails.
  '@oneclaw/lint': { dir: 'tools/lint', imports: [] },
};

const SOURCE_EXTENSIONS = '{ts,tsx,js,mjs,cjs}';

/** A regex alternative for `@oneclaw/x` (any of its entries) or one entry (`@oneclaw/x/testing`). */
function entries(specifiers) {
  return specifiers.map((s) => s.replace('@oneclaw/', '') + (s.split('/').length > 2 ? '' : '(?:/.*)?')).join('|');
}

function directionRule(name, { imports, typeImports = [] }, extra = []) {
  const allowed = [...imports, ...extra];
  const why = `${name} may import ${allowed.length ? `only ${allowed.join(', ')}` : 'nothing of ours'}${typeImports.length ? ` (and types from ${typeImports.join(', ')})` : ''}: see DIRECTION in eslint.config.mjs.`;
  // A package may always import itself by name (its own `./testing` entry, say).
  const permitted = [...allowed, ...typeImports, ...(name.startsWith('@oneclaw/') ? [name] : [])];
  const patterns = [{ regex: permitted.length ? `^@oneclaw/(?!(?:${entries(permitted)})$)` : '^@oneclaw/', message: why }];
  if (typeImports.length > 0) {
    patterns.push({
      regex: `^@oneclaw/(?:${entries(typeImports)})$`,
      allowTypeImports: true,
      message: `${name} may import only types from ${typeImports.join(', ')}: use \`import type\` (see DIRECTION in eslint.config.mjs).`,
    });
  }
  return ['error', { patterns }];
}

/**
 * One config block per package (and one more for its tests when they may import more), after one
 * for every file: code outside the table (a new package, the root scripts) imports nothing of ours.
 */
const directionBlocks = [
  {
    name: 'direction/unlisted',
    files: [`**/*.${SOURCE_EXTENSIONS}`],
    rules: { '@typescript-eslint/no-restricted-imports': directionRule('A package without a row in DIRECTION', { imports: [] }) },
  },
].concat(
  Object.entries(DIRECTION).flatMap(([name, spec]) => {
    const files = [`${spec.dir}/**/*.${SOURCE_EXTENSIONS}`];
    const blocks = [{ name: `direction/${name}`, files, rules: { '@typescript-eslint/no-restricted-imports': directionRule(name, spec) } }];
    if (spec.testImports) {
      blocks.push({
        name: `direction/${name}/tests`,
        files: [`${spec.dir}/**/*.test.{ts,tsx}`, ...(spec.testDirs ?? []).map((d) => `${spec.dir}/${d}/**`)],
        rules: { '@typescript-eslint/no-restricted-imports': directionRule(name, spec, spec.testImports) },
      });
    }
    return blocks;
  }),
);

export default defineConfig(
  {
    name: 'ignores',
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.turbo/**',
      'packages/server/static/**',
      'apps/android-shell/android/**',
      'apps/android-shell/www/**',
      'apps/android-shell/launcher/vendor/**',
    ],
  },
  { name: 'js/recommended', ...js.configs.recommended },
  ...tseslint.configs.recommended,
  {
    name: 'oneclaw/all',
    files: [`**/*.${SOURCE_EXTENSIONS}`],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_`-prefixed names are deliberately unused (placeholders in signatures, destructuring).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // Off: every control character in our regexes is deliberate (rejecting NUL and friends in
      // names, paths and titles; stripping ANSI escapes), which is what this rule reports.
      'no-control-regex': 'off',
      // Off: the require() calls are deliberate lazy loads (playwright-core, the QuickJS build,
      // the KurrentDB and PostgreSQL adapters) so that start-up and `oneclaw --help` do not pay
      // for what they do not use.
      '@typescript-eslint/no-require-imports': 'off',
      // `let x; ... () => x ...; x = ...`: a closure that reads x before its one assignment.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // The JSON bodies tests read (`res.body.code`) are `any` in tests, their helpers and the
    // benches; code that ships has none: what it has not checked yet is `unknown`.
    name: 'oneclaw/tests-may-use-any',
    files: ['**/*.test.{ts,tsx}', '**/src/testing/**', '**/src/bench/**', 'apps/web/e2e/**', 'tools-assets/src/google/workspace-test-helpers.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    name: 'oneclaw/commonjs',
    files: ['**/*.cjs', '**/jest.config.js', 'jest.preset.js', 'scripts/register-typescript.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    name: 'oneclaw/browser',
    files: ['apps/web/src/**', 'apps/android-shell/launcher/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The shipped JavaScript tools run as plain scripts in the QuickJS sandbox (js-tools): their
    // top-level `execute` is called by the loader, and the bridges are globals.
    name: 'oneclaw/sandbox-tools',
    files: ['tools-assets/js/**/*.js', 'tools-assets/skills/**/*.js'],
    languageOptions: { sourceType: 'script', globals: Object.fromEntries(['console', 'fs', 'fetch', '_time', 'lib', 'google'].map((name) => [name, 'readonly'])) },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { vars: 'local', args: 'none', caughtErrors: 'none' }],
      // Off here: the model sees only an error's message, and any byte changed in a shipped tool
      // is a new tool version (js-tools hashes the files), so a `cause` would cost and add nothing.
      'preserve-caught-error': 'off',
    },
  },
  ...directionBlocks,
);
