// Preloaded (`node -r`, or required first in a worker thread) where tests start a child process
// or a worker that must run the TypeScript under test itself, compiled by the same @swc/core that
// Jest uses. Loading dist/ instead would silently test a stale build whenever someone runs Jest
// without rebuilding first.
'use strict';
const fs = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    sourceMaps: 'inline',
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
