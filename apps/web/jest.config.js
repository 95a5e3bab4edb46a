// Unit tests (src/**/*.test.ts) for the UI's pure modules, and browser end-to-end tests
// (e2e/*.e2e.test.ts) that drive Debian's Chromium against a real server and a fake model.
const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  roots: ['<rootDir>/src', '<rootDir>/e2e'],
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  // Preact 11 ships ES modules only; Jest on Node 20 needs them compiled to CommonJS too.
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/)?preact)'],
  transform: {
    '^.+\\.(tsx?|mjs|js)$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic', importSource: 'preact' } },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
};
