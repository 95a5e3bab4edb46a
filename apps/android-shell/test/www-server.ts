/**
 * Serves the app's assembled web assets (www/) the way Capacitor's WebViewLocalServer does on the
 * device, for the browser tests: files by path, any path whose last segment has no "." answered
 * with the ROOT index.html (Capacitor's html5mode, on by default), and /favicon.ico empty. Chromium then sees the same
 * pages at the same relative URLs as the WebView does at https://localhost.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export const WWW_DIR = path.resolve(__dirname, '..', 'www');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

export interface WwwServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startWwwServer(): Promise<WwwServer> {
  if (!existsSync(path.join(WWW_DIR, 'index.html')) || !existsSync(path.join(WWW_DIR, 'ui', 'index.html'))) {
    throw new Error(`${WWW_DIR} is not assembled: run pnpm --filter @oneclaw/android-shell build (after the web UI's build).`);
  }
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    if (pathname === '/favicon.ico') {
      // Capacitor answers it with an empty image rather than a 404.
      response.writeHead(200, { 'Content-Type': 'image/png' }).end();
      return;
    }
    const last = pathname.split('/').pop() ?? '';
    const relative = pathname === '/' || !last.includes('.') ? 'index.html' : pathname.slice(1);
    const file = path.resolve(WWW_DIR, relative);
    if (!file.startsWith(WWW_DIR + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
    response.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
