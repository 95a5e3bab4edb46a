import { OneClawError } from '@oneclaw/core';

/**
 * The URL a web tool was given, parsed: absolute http:// or https:// only. Other schemes (file:,
 * chrome:, data:, javascript:, ftp:) would read local files or browser internals, so they are
 * refused here, before anything else happens.
 */
export function parseWebUrl(raw: string): URL {
  const text = raw.trim();
  if (text === '') throw invalidUrl('The url is empty; pass a full http:// or https:// URL.');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidUrl(
      looksLikeBareHost(text)
        ? `"${shown(text)}" has no scheme; pass the full URL, for example https://${shown(text)}.`
        : `"${shown(text)}" is not a valid absolute URL; pass a full http:// or https:// URL.`,
    );
  }
  // A bare "example.com:8080" parses with the scheme "example.com:"; it is still a missing scheme.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidUrl(
      looksLikeBareHost(text)
        ? `"${shown(text)}" has no scheme; pass the full URL, for example https://${shown(text)}.`
        : `The scheme "${url.protocol}" is not supported: only http:// and https:// URLs can be opened (file:, chrome:, data: and others are refused).`,
    );
  }
  if (url.hostname === '') throw invalidUrl(`"${shown(text)}" has no host; pass a full http:// or https:// URL.`);
  return url;
}

function invalidUrl(message: string): OneClawError {
  return new OneClawError('invalid_url', message);
}

/** "example.com/page", "example.com:8080" or "nas:5000": what a model writes when it forgets the scheme. */
function looksLikeBareHost(text: string): boolean {
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?([/?#].*)?$/i.test(text) || /^[a-z0-9-]+:\d+([/?#].*)?$/i.test(text);
}

function shown(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
