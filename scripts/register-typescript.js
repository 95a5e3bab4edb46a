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
    // Same settings as jest.preset.js: Nest needs decorators with their metadata.
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
