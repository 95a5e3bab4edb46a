// Unit tests for the launcher's logic, browser tests of the launcher and offline pages (Debian's
// Chromium, a real OneClaw server), and checks of the generated Android project. The launcher is
// plain ES-module JavaScript, so swc compiles .js as well as .ts here.
const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.[jt]s$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
      },
    ],
  },
};
