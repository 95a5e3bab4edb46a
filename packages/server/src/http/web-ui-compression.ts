import compression from 'compression';

/**
 * gzip or brotli for the web UI's files, as the browser's Accept-Encoding asks (`compression`
 * picks br first, then gzip, and sets Vary: Accept-Encoding). Compressed per response rather
 * than precompressed at build time: the UI is a few hundred KB, brotli runs at quality 4 (fast),
 * and the hashed assets are cached for a year, so each browser asks for them about once; no
 * build step or second copy of the files to keep in step.
 *
 * Never under /api: the turn stream (SSE) must reach the client event by event, which a
 * compressor buffers, and API answers are small JSON read over loopback or a LAN, so they are
 * not worth the CPU.
 */
export function webUiCompression(): ReturnType<typeof compression> {
  const compress = compression();
  // API requests skip the middleware altogether: wrapping every response's write and end only to
  // decide at the first write not to compress was 0.5% of a loaded server's main thread (F5).
  return (req, res, next) => (isApiPath(req.url) ? next() : compress(req, res, next));
}

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}
