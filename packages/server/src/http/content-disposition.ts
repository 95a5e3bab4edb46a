import { toWellFormed } from '@oneclaw/core';

/**
 * `attachment` with an ASCII fallback name and the UTF-8 one (RFC 6266 / 5987). Made well-formed
 * here too: encodeURIComponent throws on a lone surrogate, which made the download a 500, and a
 * name stored before names were cut by code points may end in one.
 */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(toWellFormed(name))}`;
}
