import { describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONTENT_SECURITY_POLICY, securityHeaders } from './security-headers';

/** A bare HTTP server running only the middleware, the way Express would call it. */
async function headersFrom(): Promise<Headers> {
  const middleware = securityHeaders();
  const server: Server = createServer((req, res) => {
    res.setHeader('X-Powered-By', 'Express');
    middleware(req, res, () => {
      res.statusCode = 404;
      res.end('not found');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return (await fetch(`http://127.0.0.1:${port}/nope`)).headers;
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('securityHeaders (API-10)', () => {
  it('API-10 sends the CSP without remote images, nosniff, DENY, no-referrer and HSTS, also on a 404', async () => {
    const headers = await headersFrom();
    expect(headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
    expect(headers.get('x-powered-by')).toBeNull();
    expect(headers.get('cross-origin-embedder-policy')).toBeNull();
  });

  it('exports the exact policy string', () => {
    expect(CONTENT_SECURITY_POLICY.split(';').join('; ')).toBe(
      "default-src 'self'; img-src 'self' data:; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
        "connect-src 'self'; frame-ancestors 'none'; object-src 'none'; base-uri 'self'",
    );
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/upgrade-insecure-requests|https:|\*/);
  });
});
