// The guardrail tests lint snippets in a child process (lint-snippets.mjs): ESLint loads the
// ES-module config with import(), which Jest's CommonJS sandbox cannot run.
module.exports = { ...require('../../jest.preset.js') };
