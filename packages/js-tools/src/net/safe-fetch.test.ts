import { afterEach, describe, expect, it } from '@jest/globals';
import type { FetchPolicy, ResolvedAddress } from './fetch-policy';
import { resolveFetchPolicy } from './fetch-policy';
import { errorCode, failure } from './fetch-errors.test-support';
import { SafeFetch, type HttpRequest } from './safe-fetch';

// None of these requests may reach DNS or a socket: the URL check rejects them first. The resolver
// records what would have been looked up and answers with a closed loopback port, so a broken check
// shows up as a resolver call or a network_error instead of a pass.
const clients: SafeFetch[] = [];
const lookups: string[] = [];

function client(policy: FetchPolicy = {}): SafeFetch {
  const resolve = async (hostname: string): Promise<readonly ResolvedAddress[]> => {
    lookups.push(hostname);
    return [{ address: '127.0.0.1', family: 4 }];
  };
  const created = new SafeFetch({ timeoutMs: 2000, resolve, ...policy });
  clients.push(created);
  return created;
}

function get(url: string): HttpRequest {
  return { url, method: 'GET' };
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  lookups.length = 0;
});

describe('SafeFetch URL checks (B5.2)', () => {
  it.each(['file:///etc/passwd', 'ftp://ftp.example.com/x', 'javascript:alert(1)', 'gopher://example.com:70/', 'data:text/plain,hi', 'ws://example.com/'])(
    'SSRF-01 blocks the non-http(s) scheme of %s',
    async (url) => {
      const err = await failure(client().request(get(url)));
      expect(err.code).toBe('forbidden_url');
      expect(err.message).toMatch(/only supports http: and https:/);
      expect(lookups).toEqual([]);
    },
  );

  it.each([
    'http://localhost/',
    'http://localhost./',
    'http://LOCALHOST:8080/',
    'http://x.localhost/',
    'http://printer.local/',
    'http://printer.local./',
    'http://metadata.google.internal/',
    'http://ⓛocalhost/',
  ])('SSRF-02 blocks the local name in %s', async (url) => {
    const err = await failure(client().request(get(url)));
    expect(err.code).toBe('forbidden_url');
    expect(lookups).toEqual([]);
  });

  it.each([
    'http://127.0.0.1/',
    'http://127.1.2.3:8080/',
    'http://0.0.0.0/',
    'http://10.0.0.1/',
    'http://10.255.255.255/',
    'http://172.16.0.1/',
    'http://172.31.255.254/',
    'http://192.168.0.1/',
    'https://192.168.255.255/',
  ])('SSRF-03 blocks the loopback or private address in %s', async (url) => {
    const err = await failure(client().request(get(url)));
    expect(err.code).toBe('forbidden_url');
    expect(err.message).toMatch(/non-public address/);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/',
    'http://[64:ff9b::169.254.169.254]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[fe80::a9fe:a9fe]/',
  ])('SSRF-04 blocks the cloud metadata address in %s', async (url) => {
    const err = await failure(client().request(get(url)));
    expect(err.code).toBe('forbidden_url');
  });

  it.each([
    'http://100.64.0.1/',
    'http://100.127.255.255/',
    'http://198.18.0.1/',
    'http://198.19.255.255/',
    'http://192.0.0.1/',
    'http://192.0.2.1/',
    'http://198.51.100.1/',
    'http://203.0.113.1/',
    'http://224.0.0.1/',
    'http://239.1.2.3/',
    'http://240.0.0.1/',
    'http://255.255.255.255/',
  ])('SSRF-05 blocks the special-purpose address in %s', async (url) => {
    const err = await failure(client().request(get(url)));
    expect(err.code).toBe('forbidden_url');
  });

  it.each([
    'http://[::1]/',
    'http://[::]/',
    'http://[fc00::1]/',
    'http://[fdff:ffff::1]/',
    'http://[fe80::1]/',
    'http://[febf::1]/',
    'http://[fec0::1]/',
    'http://[ff02::1]/',
    'http://[2001:db8::1]/',
    'http://[::127.0.0.1]/',
    'http://[2002:7f00:1::]/',
  ])('SSRF-06 blocks the non-public IPv6 address in %s', async (url) => {
    const err = await failure(client().request(get(url)));
    expect(err.code).toBe('forbidden_url');
  });

  it('SSRF-06 rejects unparsable IPv6 literals instead of looking them up', async () => {
    for (const url of ['http://[::1/', 'http://[fe80::1%25eth0]/', 'http://[1:2:3:4:5:6:7:8:9]/', 'http://[::ffff::1]/']) {
      const err = await failure(client().request(get(url)));
      expect(err.code).toBe('invalid_request');
    }
    expect(lookups).toEqual([]);
  });

  it.each(['http://2130706433/', 'http://0x7f000001/', 'http://0177.0.0.1/', 'http://0x7f.1/', 'http://127.1/', 'http://%31%32%37.0.0.1/', 'http://0/'])(
    'SSRF-07 blocks %s once it is normalised to a loopback address',
    async (url) => {
      const err = await failure(client().request(get(url)));
      expect(err.code).toBe('forbidden_url');
      expect(err.message).toMatch(/http:\/\/(127\.0\.0\.1|0\.0\.0\.0) is not reachable/);
      expect(lookups).toEqual([]);
    },
  );

  it.each(['https://allowed.example@127.0.0.1/', 'http://api.example.com:x@127.0.0.1/', 'http://api.example.com@[::1]/', 'http://user:pass@169.254.169.254/'])(
    'SSRF-14 judges the real host of %s, not the userinfo',
    async (url) => {
      const err = await failure(client().request(get(url)));
      expect(err.code).toBe('forbidden_url');
      expect(err.message).not.toMatch(/allowed\.example|pass/);
    },
  );

  it.each([
    ['https://evil.example.org/?d=secret', 'egress_denied'],
    ['https://example.com/', 'egress_denied'],
    ['https://api.example.com.evil.org/', 'egress_denied'],
    ['https://8.8.8.8/', 'egress_denied'],
    ['https://api.example.com/v1', 'forbidden_url'],
    ['https://API.example.com./v1', 'forbidden_url'],
  ])('SSRF-15 with allowedHosts [api.example.com], %s ends in %s', async (url, code) => {
    // The allowed host passes the egress check and then fails at DNS (the test resolver answers 127.0.0.1).
    const err = await failure(client({ allowedHosts: ['api.example.com'] }).request(get(url)));
    expect(err.code).toBe(code);
    if (code === 'egress_denied') {
      expect(err.message).toMatch(/not in the allowed hosts \(api\.example\.com\)/);
      expect(err.message).not.toMatch(/secret/);
      expect(lookups).toEqual([]);
    } else {
      expect(lookups).toEqual([new URL(url).hostname]);
    }
  });
});

describe('SafeFetch request validation', () => {
  it('rejects unsupported methods, bodies on GET/HEAD and malformed headers without echoing values', async () => {
    const http = client();
    const url = 'https://api.example.com/';
    expect((await failure(http.request({ url, method: 'TRACE' as 'GET' }))).code).toBe('invalid_request');
    expect((await failure(http.request({ url, method: 'GET', body: 'x' }))).code).toBe('invalid_request');
    expect((await failure(http.request({ url, method: 'HEAD', body: 'x' }))).code).toBe('invalid_request');
    const bad = await failure(http.request({ url, method: 'GET', headers: { authorization: 'Bearer s3cret\r\nx-injected: 1' } }));
    expect(bad.code).toBe('invalid_request');
    expect(bad.message).toMatch(/authorization/);
    expect(bad.message).not.toMatch(/s3cret/);
    expect((await failure(http.request({ url, method: 'GET', headers: { 'bad name': 'v' } }))).code).toBe('invalid_request');
    expect(lookups).toEqual([]);
  });

  it('fails with aborted when the caller signal is already aborted', async () => {
    const err = await failure(client().request(get('https://api.example.com/'), { signal: AbortSignal.abort() }));
    expect(err.code).toBe('aborted');
  });

  it('refuses requests after close()', async () => {
    const http = client();
    await http.close();
    await http.close();
    expect((await failure(http.request(get('https://api.example.com/')))).code).toBe('invalid_request');
  });
});

describe('resolveFetchPolicy', () => {
  it('applies the documented defaults', () => {
    const policy = resolveFetchPolicy();
    expect(policy).toMatchObject({
      allowPrivateNetwork: false,
      allowedHosts: undefined,
      proxyUrl: undefined,
      caCertificates: [],
      maxResponseBytes: 10 * 1024 * 1024,
      maxDownloadBytes: 100 * 1024 * 1024,
      timeoutMs: 30_000,
      maxRedirects: 10,
    });
    expect(typeof policy.resolve).toBe('function');
  });

  it('rejects nonsense limits, proxy URLs and CA certificates with invalid_fetch_policy', () => {
    expect(errorCode(() => resolveFetchPolicy({ timeoutMs: 0 }))).toBe('invalid_fetch_policy');
    expect(errorCode(() => resolveFetchPolicy({ maxRedirects: -1 }))).toBe('invalid_fetch_policy');
    expect(errorCode(() => resolveFetchPolicy({ maxResponseBytes: 1.5 }))).toBe('invalid_fetch_policy');
    expect(errorCode(() => resolveFetchPolicy({ proxyUrl: 'socks5://user:pw@proxy:1080' }))).toBe('invalid_fetch_policy');
    expect(errorCode(() => new SafeFetch({ caCertificates: ['not a certificate'] }))).toBe('invalid_fetch_policy');
    expect(errorCode(() => new SafeFetch({ caCertificates: ['-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----'] }))).toBe('invalid_fetch_policy');
  });
});
