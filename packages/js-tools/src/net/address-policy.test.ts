import { describe, expect, it } from '@jest/globals';
import { checkTargetUrl, classifyAddress, hostMatches, normalizeHost } from './address-policy';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'unicast'],
    ['93.184.216.34', 'unicast'],
    ['2606:4700:4700::1111', 'unicast'],
    ['2a00:1450:4001:82b::200e', 'unicast'],
    ['::ffff:8.8.8.8', 'ipv4Mapped(unicast)'],
    ['64:ff9b::808:808', 'rfc6052(unicast)'],
    ['2002:808:808::1', '6to4(unicast)'],
  ])('treats the global unicast address %s as public (%s)', (ip, range) => {
    expect(classifyAddress(ip)).toEqual({ isPublic: true, range });
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.254', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:127.0.0.1', 'ipv4Mapped(loopback)'],
    ['::ffff:169.254.169.254', 'ipv4Mapped(linkLocal)'],
    ['64:ff9b::a9fe:a9fe', 'rfc6052(linkLocal)'],
    ['64:ff9b:1::808:808', 'rfc6052'],
    ['2002:7f00:1::1', '6to4(loopback)'],
    ['2002:a00:1::', '6to4(private)'],
    ['::127.0.0.1', 'nonGlobal'],
    ['::8.8.8.8', 'nonGlobal'],
    ['fe80::1%eth0', 'unparsable'],
    ['4000::1', 'nonGlobal'],
    ['2001::1', 'teredo'],
  ])('treats %s as not public (%s)', (ip, range) => {
    expect(classifyAddress(ip)).toEqual({ isPublic: false, range });
  });

  it.each(['', 'localhost', '1.2.3', '0x7f000001', '2130706433', '::ffff::1', '1.2.3.4.5', '[::1]', ' 8.8.8.8'])('fails closed on the non-canonical or unparsable %p', (ip) => {
    expect(classifyAddress(ip)).toEqual({ isPublic: false, range: 'unparsable' });
  });
});

describe('host names', () => {
  it('normalises case, brackets and trailing dots', () => {
    expect(normalizeHost('LocalHost.')).toBe('localhost');
    expect(normalizeHost('[::1]')).toBe('::1');
    expect(normalizeHost('example.com..')).toBe('example.com');
  });

  it.each([
    ['api.example.com', 'api.example.com', true],
    ['api.example.com', 'API.Example.com.', true],
    ['example.com', 'api.example.com', false],
    ['a.b.example.com', '*.example.com', true],
    ['example.com', '*.example.com', false],
    ['badexample.com', '*.example.com', false],
    ['xn--bcher-kva.de', 'bücher.de', true],
  ])('matches %s against the allowed host %s: %s', (host, pattern, expected) => {
    expect(hostMatches(host, pattern)).toBe(expected);
  });

  it('accepts public http and https URLs and reports the normalised host', () => {
    const verdict = checkTargetUrl('HTTPS://Api.Example.COM./v1?q=1', { allowPrivateNetwork: false });
    expect(verdict).toMatchObject({ allowed: true, host: 'api.example.com' });
    expect(checkTargetUrl('http://8.8.8.8:8080/', { allowPrivateNetwork: false }).allowed).toBe(true);
  });

  it('allows loopback and local names when private networks are allowed', () => {
    for (const url of ['http://127.0.0.1:1/', 'http://localhost/', 'http://printer.local/', 'http://[::1]/']) {
      expect(checkTargetUrl(url, { allowPrivateNetwork: true }).allowed).toBe(true);
    }
  });

  it('rejects URLs it cannot parse and credentials in the URL', () => {
    expect(checkTargetUrl('not a url', { allowPrivateNetwork: false })).toMatchObject({ allowed: false, code: 'invalid_request' });
    expect(checkTargetUrl('https://user:secret@api.example.com/', { allowPrivateNetwork: false })).toMatchObject({
      allowed: false,
      code: 'invalid_request',
    });
  });

  it('never puts the path or query in its reasons', () => {
    const verdict = checkTargetUrl('http://127.0.0.1/admin?token=s3cret', { allowPrivateNetwork: false });
    expect(verdict.allowed).toBe(false);
    expect(JSON.stringify(verdict)).not.toMatch(/s3cret|admin/);
  });
});
