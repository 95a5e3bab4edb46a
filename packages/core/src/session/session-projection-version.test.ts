import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SESSION_PROJECTION_VERSION } from './evolve';

/**
 * What a session snapshot's meaning depends on: the fold, the state and the snapshot format.
 * When one of them changes, the same events may give another state, and snapshots taken before
 * would then be served as if they were current.
 */
const PROJECTION_SOURCES = ['evolve.ts', 'session-state.ts', 'supersede.ts', 'session-state-codec.ts'];

/**
 * The fingerprint of those files for each projection version. When this test fails:
 * - if the change can alter the state some events give (a new field, a fold reading an event
 *   differently, another snapshot format), bump SESSION_PROJECTION_VERSION in evolve.ts and
 *   add the new fingerprint under the new version;
 * - if it cannot (a comment, formatting, a rename inside a function), replace the fingerprint
 *   of the current version.
 * Either way, say which in the commit message.
 */
const RECORDED: Readonly<Record<number, string>> = {
  1: 'e12c0d32ceb9b4bb',
  // openedTurnIds: every turn the stream opened (a keyed request retried after a clear is known to have run).
  2: '3e1e03c68b61fc93',
};

function fingerprint(): string {
  const hash = createHash('sha256');
  // Line endings and trailing blanks do not change meaning; a checkout may convert them.
  for (const file of PROJECTION_SOURCES) hash.update(`${file}\0${readFileSync(path.join(__dirname, file), 'utf8').replace(/\s+$/gm, '')}\0`);
  return hash.digest('hex').slice(0, 16);
}

describe('session projection version (F4 snapshots)', () => {
  it('F4 the projection sources are those the current version was recorded for (bump SESSION_PROJECTION_VERSION when evolve changes meaning)', () => {
    const now = fingerprint();
    const message =
      `evolve.ts, session-state.ts, supersede.ts or session-state-codec.ts changed (fingerprint ${now}). ` +
      `If the same events can now give another session state, bump SESSION_PROJECTION_VERSION (evolve.ts) ` +
      `so older snapshots are rebuilt, and record ${now} under the new version here; otherwise replace the fingerprint of version ${SESSION_PROJECTION_VERSION}.`;
    expect({ version: SESSION_PROJECTION_VERSION, fingerprint: RECORDED[SESSION_PROJECTION_VERSION], message }).toEqual({
      version: SESSION_PROJECTION_VERSION,
      fingerprint: now,
      message,
    });
  });
});
