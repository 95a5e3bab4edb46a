import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SafeFetch } from '../net/safe-fetch';
import { startInterceptingProxy, type InterceptingProxy } from '../testing/intercepting-proxy';
import { createGoogleTokenProvider } from './google-token-provider';

// A fake of Google's OAuth token endpoint behind the TLS-intercepting test proxy.
let proxy: InterceptingProxy;
let http: SafeFetch;
let answer: { status: number; body: unknown; delayMs?: number } = { status: 200, body: {} };
let issued = 0;

beforeAll(async () => {
  proxy = await startInterceptingProxy(async (req, res) => {
    if (req.method !== 'POST' || req.url !== 'https://oauth2.googleapis.com/token') {
      res.writeHead(404).end();
      return;
    }
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    issued += 1;
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  });
  http = new SafeFetch({ proxyUrl: proxy.url, caCertificates: [proxy.caCertificate] });
});

afterAll(async () => {
  await http.close();
  await proxy.close();
});

const config = { kind: 'refresh_token' as const, clientId: 'client-1.apps.googleusercontent.com', clientSecret: 'GOCSPX-secret', refreshToken: '1//refresh-secret' };

describe('Google access tokens for google.getAccessToken()', () => {
  it('a configured access token is returned as it is, with no request', async () => {
    const before = proxy.requests.length;
    expect(await createGoogleTokenProvider({ kind: 'access_token', accessToken: 'ya29.static' }, http).accessToken(AbortSignal.timeout(1000))).toBe('ya29.static');
    expect(proxy.requests.length).toBe(before);
  });

  it('a refresh token is exchanged with grant_type=refresh_token as a form, and the access token cached until shortly before expiry', async () => {
    answer = { status: 200, body: { access_token: 'ya29.first', expires_in: 3600, token_type: 'Bearer' } };
    let now = 1_000_000;
    const provider = createGoogleTokenProvider(config, http, { now: () => now });
    const start = proxy.requests.length;
    expect(await provider.accessToken(AbortSignal.timeout(5000))).toBe('ya29.first');
    const request = proxy.requests[start];
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request?.body.toString('utf8')))).toEqual({
      grant_type: 'refresh_token',
      client_id: config.clientId,
      client_secret: config.clientSecret,
      refresh_token: config.refreshToken,
    });
    answer = { status: 200, body: { access_token: 'ya29.second', expires_in: 3600 } };
    now += 3_000_000; // 50 minutes: still cached
    expect(await provider.accessToken(AbortSignal.timeout(5000))).toBe('ya29.first');
    now += 560_000; // inside the last minute before expiry: refreshed
    expect(await provider.accessToken(AbortSignal.timeout(5000))).toBe('ya29.second');
    expect(proxy.requests.length - start).toBe(2);
  });

  it('onToken hears of every token, with when it expires, before any caller gets it', async () => {
    answer = { status: 200, body: { access_token: 'ya29.told', expires_in: 3600 } };
    const now = 5_000_000;
    const told: [string, number | undefined][] = [];
    const provider = createGoogleTokenProvider(config, http, { now: () => now, onToken: (token, expiresAt) => told.push([token, expiresAt]) });
    const got = await provider.accessToken(AbortSignal.timeout(5000)).then((token) => [token, told.length] as const);
    expect(got).toEqual(['ya29.told', 1]);
    expect(told).toEqual([['ya29.told', now + 3_600_000]]);
    await provider.accessToken(AbortSignal.timeout(5000)); // cached: nothing new to tell
    expect(told.length).toBe(1);

    const statics: [string, number | undefined][] = [];
    createGoogleTokenProvider({ kind: 'access_token', accessToken: 'ya29.static' }, http, { onToken: (token, expiresAt) => statics.push([token, expiresAt]) });
    expect(statics).toEqual([['ya29.static', undefined]]);
  });

  it('concurrent callers share one refresh', async () => {
    answer = { status: 200, body: { access_token: 'ya29.shared', expires_in: 3600 }, delayMs: 50 };
    const provider = createGoogleTokenProvider(config, http);
    const before = issued;
    const tokens = await Promise.all(Array.from({ length: 5 }, () => provider.accessToken(AbortSignal.timeout(5000))));
    expect(new Set(tokens)).toEqual(new Set(['ya29.shared']));
    expect(issued - before).toBe(1);
  });

  it('a revoked refresh token (invalid_grant) is a clear google_auth_failed error that names no secret', async () => {
    answer = { status: 400, body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' } };
    const failure = await createGoogleTokenProvider(config, http)
      .accessToken(AbortSignal.timeout(5000))
      .catch((e: unknown) => e as Error & { code: string });
    expect(failure).toMatchObject({ code: 'google_auth_failed' });
    expect((failure as Error).message).toMatch(/invalid_grant.*authorize the app again/);
    for (const secret of [config.clientSecret, config.refreshToken]) expect((failure as Error).message).not.toContain(secret);
  });

  it('an answer without an access token is refused', async () => {
    answer = { status: 200, body: { token_type: 'Bearer' } };
    await expect(createGoogleTokenProvider(config, http).accessToken(AbortSignal.timeout(5000))).rejects.toMatchObject({ code: 'google_auth_failed' });
  });
});
