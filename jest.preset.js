// Shared Jest setup: @swc/jest compiles TypeScript (with decorator metadata, which Nest needs);
// every package writes its results to .jest-results.json so scripts/test.mjs can sum them up.
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  // Jest's default of 5 s per test and hook is too short for a server booted in a hook while the
  // 2-core machine runs other work (CI under load; helpers building side by side): those runs
  // failed on the limit, not on a behaviour. Tests wait on conditions, so a longer limit only
  // changes how long a hung test takes to fail.
  testTimeout: 30_000,
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
      },
    ],
  },
};
