// Runs the checks (formatting, lint, then typecheck) and every package's tests through turbo (build first),
// then prints one closing line summed over all packages, e.g. "412 passed, 0 failed, 1 skipped",
// where a failed check counts as one failure. Exit code is non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const packageDirs = ['packages', 'apps', 'tools']
  .map((d) => path.join(root, d))
  .filter(existsSync)
  .flatMap((d) => readdirSync(d).map((name) => path.join(d, name)))
  .concat([path.join(root, 'tools-assets')])
  .filter((d) => existsSync(path.join(d, 'package.json')));

// Stale results from an earlier run must not be counted.
for (const dir of packageDirs) rmSync(path.join(dir, '.jest-results.json'), { force: true });

const turboEnv = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', FORCE_COLOR: process.env.FORCE_COLOR ?? '0' };
const turboArgs = process.argv.slice(2);

// The checks run first, and the tests run even when a check fails, so one run shows everything.
const checks = [
  { name: 'format:check', command: ['run', 'format:check'] },
  { name: 'lint', command: ['exec', 'turbo', 'run', 'lint', 'lint:root', '--concurrency=2', '--continue', ...turboArgs] },
  { name: 'typecheck', command: ['exec', 'turbo', 'run', 'typecheck', '--concurrency=2', '--continue', ...turboArgs] },
];
const failedChecks = [];
for (const check of checks) {
  const run = spawnSync('pnpm', check.command, { cwd: root, stdio: 'inherit', env: turboEnv });
  if (run.status !== 0) failedChecks.push(check.name);
}

// Every package's tests run even when another's fail, so the closing line counts them all; a
// package whose build failed is still skipped (its tests would run old code) and is listed below.
const turbo = spawnSync('pnpm', ['exec', 'turbo', 'run', 'test', '--concurrency=1', '--continue=dependencies-successful', ...turboArgs], {
  cwd: root,
  stdio: 'inherit',
  env: turboEnv,
});

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const dir of packageDirs) {
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  if (!pkg.scripts?.test) continue;
  const file = path.join(dir, '.jest-results.json');
  if (!existsSync(file)) {
    missing.push(pkg.name);
    continue;
  }
  const result = JSON.parse(readFileSync(file, 'utf8'));
  passed += result.numPassedTests;
  failed += result.numFailedTests + (result.numRuntimeErrorTestSuites ?? 0);
  skipped += result.numPendingTests + (result.numTodoTests ?? 0);
  console.log(`${pkg.name}: ${result.numPassedTests} passed, ${result.numFailedTests} failed, ${result.numPendingTests} skipped`);
  // A skipped test's name says why it is skipped; print it so the reason is in the CI log.
  for (const suite of result.testResults ?? []) {
    for (const test of suite.assertionResults ?? []) {
      if (test.status === 'pending' || test.status === 'todo') console.log(`  skipped: ${test.fullName}`);
    }
  }
}
for (const name of failedChecks) console.log(`check failed: ${name} (its errors are above; run pnpm ${name})`);
if (missing.length > 0) console.log(`no test results from: ${missing.join(', ')} (build or test run failed before tests ran)`);
const ok = turbo.status === 0 && failed === 0 && missing.length === 0 && failedChecks.length === 0;
console.log(`${passed} passed, ${failed + missing.length + failedChecks.length} failed, ${skipped} skipped`);
process.exit(ok ? 0 : 1);
