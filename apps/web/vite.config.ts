import path from 'node:path';
import { defineConfig } from 'vite';

// The build goes straight into the server's static folder, so `pnpm start` serves it
// (docs/web-ui.md). Relative asset URLs let the same bundle run from the Android shell's
// local files as well as from the server's root.
export default defineConfig({
  base: './',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: path.resolve(__dirname, '../../packages/server/static'),
    emptyOutDir: true,
    target: 'es2022',
  },
  server: {
    // `pnpm --filter @oneclaw/web dev` talks to a server started with `pnpm start`.
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
