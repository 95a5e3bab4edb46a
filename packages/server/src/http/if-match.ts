import { OneClawError } from '@oneclaw/core';

/**
 * The revision in an If-Match header: `"3"`, `W/"3"` or `3`. Optional on every mutating route
 * (absent: last writer wins at the command level; present and stale: 412). docs/api.md.
 */
export function revisionFromIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const match = /^(?:W\/)?"?(\d{1,15})"?$/.exec(header.trim());
  if (!match) throw new OneClawError('invalid_if_match', 'If-Match must be a session revision such as "3" (the revision field of the session).');
  return Number(match[1]);
}
