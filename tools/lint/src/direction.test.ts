// The guardrails hold: the package-direction rule in eslint.config.mjs rejects imports that point
// the wrong way (and lets the right ones through), every workspace package has a row in its
// DIRECTION table, package.json dependencies follow the same direction, and every package's
// tsconfig references exactly the TypeScript packages it depends on.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../..');
const RULE = '@typescript-eslint/no-restricted-imports';

interface Direction {
  readonly dir: string;
  readonly imports: readonly string[];
  readonly typeImports?: readonly string[];
  readonly testImports?: readonly string[];
}
interface LintResult {
  readonly filePath: string;
  readonly messages: readonly { ruleId: string | null; message: string }[];
}

/** [title, file the snippet stands in for, snippet, whether the direction rule must reject it] */
const CASES: readonly [string, string, string, 'rejects' | 'accepts'][] = [
  ['core importing the server', 'packages/core/src/lint-probe.ts', "import { bootstrap } from '@oneclaw/server';\nexport const x = bootstrap;\n", 'rejects'],
  [
    'core importing the server, type only',
    'packages/core/src/lint-probe.ts',
    "import type { RunningServer } from '@oneclaw/server/testing';\nexport type X = RunningServer;\n",
    'rejects',
  ],
  ['core re-exporting from a package above it', 'packages/core/src/lint-probe.ts', "export { ToolRegistry } from '@oneclaw/tool-registry';\n", 'rejects'],
  [
    'a core test importing the server',
    'packages/core/src/lint-probe.test.ts',
    "import { startTestServer } from '@oneclaw/server/testing';\nexport const x = startTestServer;\n",
    'rejects',
  ],
  [
    'tool-registry importing js-tools (above it)',
    'packages/tool-registry/src/lint-probe.ts',
    "import { JsToolLoader } from '@oneclaw/js-tools';\nexport const x = JsToolLoader;\n",
    'rejects',
  ],
  [
    'tool-registry importing core and its testing entry',
    'packages/tool-registry/src/lint-probe.test.ts',
    "import { OneClawError } from '@oneclaw/core';\nimport { sessionScenario } from '@oneclaw/core/testing';\nexport const x = [OneClawError, sessionScenario];\n",
    'accepts',
  ],
  [
    'the server importing the packages below it',
    'packages/server/src/lint-probe.ts',
    "import { OneClawError } from '@oneclaw/core';\nimport { ToolRegistry } from '@oneclaw/tool-registry';\nimport { JsToolLoader } from '@oneclaw/js-tools';\nimport { builtinJsTools } from '@oneclaw/tools-assets';\nexport const x = [OneClawError, ToolRegistry, JsToolLoader, builtinJsTools];\n",
    'accepts',
  ],
  [
    'a package importing its own testing entry by name',
    'packages/model-providers/src/lint-probe.test.ts',
    "import { startFakeModelServer } from '@oneclaw/model-providers/testing';\nexport const x = startFakeModelServer;\n",
    'accepts',
  ],
  ['the server importing an app', 'packages/server/src/lint-probe.ts', "import { App } from '@oneclaw/web';\nexport const x = App;\n", 'rejects'],
  [
    'an adapter package (model-providers) importing the server',
    'packages/model-providers/src/lint-probe.ts',
    "import { startTestServer } from '@oneclaw/server/testing';\nexport const x = startTestServer;\n",
    'rejects',
  ],
  [
    'an adapter package (event-store-sqlite) importing another adapter',
    'packages/event-store-sqlite/src/lint-probe.ts',
    "import { KurrentDbEventStore } from '@oneclaw/event-store-kurrentdb';\nexport const x = KurrentDbEventStore;\n",
    'rejects',
  ],
  [
    'an adapter package (event-store-postgres) importing another adapter',
    'packages/event-store-postgres/src/lint-probe.ts',
    "import { SqliteEventStore } from '@oneclaw/event-store-sqlite';\nexport const x = SqliteEventStore;\n",
    'rejects',
  ],
  [
    'an adapter package (event-store-postgres) importing core and its testing entry',
    'packages/event-store-postgres/src/lint-probe.test.ts',
    "import { OneClawError } from '@oneclaw/core';\nimport { describeEventStoreContract } from '@oneclaw/core/testing';\nexport const x = [OneClawError, describeEventStoreContract];\n",
    'accepts',
  ],
  [
    'api-contract importing core at run time',
    'packages/api-contract/src/lint-probe.ts',
    "import { OneClawError } from '@oneclaw/core';\nexport const x = OneClawError;\n",
    'rejects',
  ],
  [
    'api-contract importing types from core',
    'packages/api-contract/src/lint-probe.ts',
    "import type { RecordedEvent } from '@oneclaw/core';\nexport type X = RecordedEvent;\n",
    'accepts',
  ],
  ['the web UI importing core at run time', 'apps/web/src/lint-probe.ts', "import { OneClawError } from '@oneclaw/core';\nexport const x = OneClawError;\n", 'rejects'],
  [
    'the web UI importing types from core and api-contract',
    'apps/web/src/lint-probe.ts',
    "import type { RecordedEvent } from '@oneclaw/core';\nimport { type SessionView } from '@oneclaw/api-contract';\nexport type X = [RecordedEvent, SessionView];\n",
    'accepts',
  ],
  [
    'the web UI importing the server testing entry outside its tests',
    'apps/web/src/lint-probe.ts',
    "import { fakeReply } from '@oneclaw/server/testing';\nexport const x = fakeReply;\n",
    'rejects',
  ],
  [
    "the web UI's browser tests importing the server testing entry",
    'apps/web/e2e/lint-probe.e2e.test.ts',
    "import { fakeReply } from '@oneclaw/server/testing';\nexport const x = fakeReply;\n",
    'accepts',
  ],
  [
    "the web UI's browser tests importing the server's runtime entry",
    'apps/web/e2e/lint-probe.e2e.test.ts',
    "import { bootstrap } from '@oneclaw/server';\nexport const x = bootstrap;\n",
    'rejects',
  ],
  [
    'a package missing from the DIRECTION table',
    'packages/not-in-the-table/src/lint-probe.ts',
    "import { OneClawError } from '@oneclaw/core';\nexport const x = OneClawError;\n",
    'rejects',
  ],
];

let direction: Record<string, Direction>;
let results: readonly LintResult[];

beforeAll(() => {
  const run = spawnSync(process.execPath, [path.join(__dirname, 'lint-snippets.mjs')], {
    input: JSON.stringify(CASES.map(([, filePath, code]) => ({ filePath, code }))),
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`lint-snippets.mjs failed (${run.status}): ${run.stderr}`);
  ({ direction, results } = JSON.parse(run.stdout) as { direction: Record<string, Direction>; results: LintResult[] });
}, 120_000);

describe('the package-direction lint rule', () => {
  test.each(CASES.map((c, i) => [...c, i] as const))('%s (%s)', (_title, _file, _code, expected, index) => {
    const messages = results[index]!.messages;
    // Nothing else may fail either: a parse error would make "accepts" pass for the wrong reason.
    expect(messages.filter((m) => m.ruleId !== RULE)).toEqual([]);
    const direction = messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
    if (expected === 'accepts') expect(direction).toEqual([]);
    else expect(direction).toEqual([expect.stringContaining('see DIRECTION in eslint.config.mjs')]);
  });
});

/** Every workspace package: its folder, name, package.json and tsconfig.json (when it has one). */
function workspacePackages() {
  const dirs = ['packages', 'apps', 'tools']
    .flatMap((parent) => (existsSync(path.join(ROOT, parent)) ? readdirSync(path.join(ROOT, parent)).map((name) => `${parent}/${name}`) : []))
    .concat(['tools-assets'])
    .filter((dir) => existsSync(path.join(ROOT, dir, 'package.json')));
  return dirs.map((dir) => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')) as {
      name: string;
      types?: string;
      scripts?: Record<string, string>;
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    const tsconfigPath = path.join(ROOT, dir, 'tsconfig.json');
    // tsconfig.json may have comments: read it the way tsc does.
    const tsconfig = existsSync(tsconfigPath) ? (ts.readConfigFile(tsconfigPath, ts.sys.readFile).config as { references?: { path: string }[] }) : undefined;
    const ours = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((d) => d.startsWith('@oneclaw/'));
    return { dir, pkg, tsconfig, ours };
  });
}

describe('the workspace follows the direction', () => {
  test('every workspace package has a row in DIRECTION, with its folder', () => {
    const missing = workspacePackages()
      .filter(({ dir, pkg }) => direction[pkg.name]?.dir !== dir)
      .map(({ dir, pkg }) => `${pkg.name} (${dir})`);
    expect(missing).toEqual([]);
  });

  test('every workspace package has the lint and typecheck scripts that pnpm test runs', () => {
    const missing = workspacePackages().flatMap(({ pkg }) => ['lint', 'typecheck'].filter((script) => !pkg.scripts?.[script]).map((script) => `${pkg.name}: ${script}`));
    expect(missing).toEqual([]);
  });

  test('package.json dependencies on our TypeScript packages are edges the direction allows', () => {
    const all = workspacePackages();
    const libraries = new Set(all.filter(({ pkg }) => pkg.types !== undefined).map(({ pkg }) => pkg.name));
    const wrong = all.flatMap(({ pkg, ours }) => {
      const row = direction[pkg.name];
      const allowed = new Set([...(row?.imports ?? []), ...(row?.typeImports ?? []), ...(row?.testImports ?? [])].map((s) => s.split('/').slice(0, 2).join('/')));
      return ours.filter((dep) => libraries.has(dep) && !allowed.has(dep)).map((dep) => `${pkg.name} -> ${dep}`);
    });
    expect(wrong).toEqual([]);
  });

  test('every tsconfig references exactly the TypeScript packages its package depends on', () => {
    const all = workspacePackages();
    const dirOf = new Map(all.filter(({ pkg }) => pkg.types !== undefined).map(({ dir, pkg }) => [pkg.name, dir]));
    const mismatched = all
      .filter(({ tsconfig }) => tsconfig !== undefined)
      .map(({ dir, pkg, tsconfig, ours }) => ({
        name: pkg.name,
        references: (tsconfig!.references ?? []).map((r) => path.relative(ROOT, path.resolve(ROOT, dir, r.path))).sort(),
        expected: ours.flatMap((dep) => (dirOf.has(dep) ? [dirOf.get(dep)!] : [])).sort(),
      }))
      .filter(({ references, expected }) => JSON.stringify(references) !== JSON.stringify(expected));
    expect(mismatched).toEqual([]);
  });
});
