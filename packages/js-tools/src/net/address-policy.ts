import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import ipaddr from 'ipaddr.js';

/** How an IP address is classified; only global unicast addresses are public. */
export interface AddressClass {
  readonly isPublic: boolean;
  /** ipaddr.js range name ("loopback", "private", …), "ipv4Mapped(loopback)" for embedded IPv4, "unparsable". */
  readonly range: string;
}

/**
 * Classifies an IP address. Anything that is not a canonical IPv4/IPv6 literal is `unparsable` and
 * therefore not public (fail closed), so a resolver returning garbage cannot open a hole.
 */
export function classifyAddress(ip: string): AddressClass {
  const version = isIP(ip);
  if (version === 0) return { isPublic: false, range: 'unparsable' };
  try {
    return classify(ipaddr.parse(version === 6 ? canonicalIPv6(ip) : ip));
  } catch {
    return { isPublic: false, range: 'unparsable' };
  }
}

/**
 * The WHATWG serialisation (pure hex groups). ipaddr.js reads the dotted tail of `::a.b.c.d` as if it
 * were `::ffff:a.b.c.d`, so it must never see dotted IPv6. Zone ids do not survive (fail closed).
 */
function canonicalIPv6(ip: string): string {
  return new URL(`http://[${ip}]/`).hostname.slice(1, -1);
}

export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip).isPublic;
}

function classify(addr: ipaddr.IPv4 | ipaddr.IPv6): AddressClass {
  if (addr.kind() === 'ipv4') {
    const range = (addr as ipaddr.IPv4).range();
    return { isPublic: range === 'unicast', range };
  }
  const v6 = addr as ipaddr.IPv6;
  const range = v6.range();
  const embedded = embeddedIPv4(v6, range);
  if (embedded) {
    const inner = classify(embedded);
    return { isPublic: inner.isPublic, range: `${range}(${inner.range})` };
  }
  // ipaddr.js calls everything it has no name for "unicast"; only 2000::/3 is global unicast.
  const globalUnicast = range === 'unicast' && ((v6.parts[0] ?? 0) & 0xe000) === 0x2000;
  return { isPublic: globalUnicast, range: range === 'unicast' && !globalUnicast ? 'nonGlobal' : range };
}

/** The IPv4 address a translation/tunnel form carries; a connection to it effectively reaches that IPv4. */
function embeddedIPv4(v6: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const p = v6.parts;
  const fromParts = (hi: number | undefined, lo: number | undefined): ipaddr.IPv4 =>
    new ipaddr.IPv4([((hi ?? 0) >> 8) & 0xff, (hi ?? 0) & 0xff, ((lo ?? 0) >> 8) & 0xff, (lo ?? 0) & 0xff]);
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return fromParts(p[6], p[7]);
    case 'rfc6052':
      // Only the well-known NAT64 prefix 64:ff9b::/96 carries the IPv4 in the last 32 bits; the
      // local-use 64:ff9b:1::/48 is not global, so it stays blocked by its range name.
      return p[1] === 0xff9b && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0 ? fromParts(p[6], p[7]) : undefined;
    case '6to4':
      return fromParts(p[1], p[2]);
    default:
      return undefined;
  }
}

export type UrlVerdict =
  | { readonly allowed: true; readonly url: URL; /** lower-case, no brackets, no trailing dot */ readonly host: string }
  | {
      readonly allowed: false;
      readonly code: 'invalid_request' | 'forbidden_url' | 'egress_denied';
      /** What is wrong and what to do; names the origin only, never the path or query. */
      readonly reason: string;
    };

export interface TargetCheckOptions {
  readonly allowPrivateNetwork: boolean;
  readonly allowedHosts?: readonly string[] | undefined;
}

/**
 * Checks a request URL before anything is sent: scheme, non-public host names and IP literals, the
 * egress allow-list. It validates the WHATWG-parsed host, which already turns `2130706433`,
 * `0x7f000001`, `0177.0.0.1`, `%31%32%37.0.0.1` and userinfo tricks into what a socket would reach.
 * Host names that are not literals are checked again, after DNS, when the connection is made.
 */
export function checkTargetUrl(raw: string | URL, options: TargetCheckOptions): UrlVerdict {
  let url: URL;
  try {
    url = typeof raw === 'string' ? new URL(raw) : new URL(raw.href);
  } catch {
    return deny('invalid_request', 'The URL is not a valid absolute URL; pass a full http:// or https:// URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return deny('forbidden_url', `The scheme "${url.protocol}" is not allowed; fetch only supports http: and https: URLs.`);
  }
  const host = normalizeHost(url.hostname);
  const origin = `${url.protocol}//${url.host}`;
  if (host === '') return deny('invalid_request', `The URL ${origin} has no host; pass a full http:// or https:// URL.`);
  if (!options.allowPrivateNetwork) {
    const why = nonPublicHostReason(host);
    if (why) {
      return deny(
        'forbidden_url',
        `${origin} is not reachable from tools: ${why}. Only public internet hosts are allowed; ` + 'an operator can set allowPrivateNetwork to reach internal services.',
      );
    }
  }
  if (options.allowedHosts && !options.allowedHosts.some((pattern) => hostMatches(host, pattern))) {
    return deny(
      'egress_denied',
      `Egress to ${host} is not allowed: it is not in the allowed hosts (${options.allowedHosts.join(', ')}). ` + 'Use one of those hosts, or ask the operator to add this one.',
    );
  }
  if (url.username !== '' || url.password !== '') {
    return deny('invalid_request', `Credentials in the URL (user:password@${url.host}) are not supported; send them in an Authorization header.`);
  }
  return { allowed: true, url, host };
}

function deny(code: 'invalid_request' | 'forbidden_url' | 'egress_denied', reason: string): UrlVerdict {
  return { allowed: false, code, reason };
}

/** Lower-case, IPv6 brackets removed, trailing dots removed (`localhost.` is `localhost`). */
export function normalizeHost(hostname: string): string {
  let host = hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return host.replace(/\.+$/, '');
}

const NON_PUBLIC_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa'];

/** Why a (normalised) host is not public without a DNS lookup, or undefined when it may be. */
export function nonPublicHostReason(host: string): string | undefined {
  if (isIP(host) !== 0) {
    const cls = classifyAddress(host);
    return cls.isPublic ? undefined : `${host} is a non-public address (${cls.range})`;
  }
  if (host === 'localhost' || host === 'localhost.localdomain') return `${host} names this machine`;
  const suffix = NON_PUBLIC_SUFFIXES.find((s) => host.endsWith(s) || host === s.slice(1));
  return suffix ? `${host} is a local-network name (${suffix.slice(1)})` : undefined;
}

/** Exact host, or `*.example.com` for any subdomain of example.com (not example.com itself). */
export function hostMatches(host: string, pattern: string): boolean {
  const p = normalizeHost(pattern.trim());
  if (p.startsWith('*.')) {
    const base = toAscii(p.slice(2));
    return host.endsWith(`.${base}`);
  }
  return host === toAscii(p);
}

function toAscii(name: string): string {
  return isIP(name) !== 0 ? name : domainToASCII(name) || name;
}
