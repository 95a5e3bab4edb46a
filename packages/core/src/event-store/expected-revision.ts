import { OneClawError } from '../oneclaw-error';

/**
 * What the writer believes about the stream before appending (KurrentDB semantics):
 * - `no_stream`: the stream must not exist yet;
 * - `stream_exists`: it must have at least one event;
 * - a number: the revision of the stream's last event must be exactly this (0-based);
 * - `any`: no check. It must be spelled out: there is no default.
 */
export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | number;

/** The stream's actual state: its last revision, or `no_stream`. */
export type StreamState = 'no_stream' | number;

export class InvalidExpectedRevisionError extends OneClawError {
  constructor(value: unknown) {
    super(
      'invalid_expected_revision',
      `Expected revision ${JSON.stringify(value) ?? String(value)} is not valid: pass 'no_stream', 'stream_exists', 'any' or a revision number >= 0.`,
      { value: String(value) },
    );
  }
}

/** Runtime guard for callers outside TypeScript (EST-10): `undefined` is refused, not read as `any`. */
export function assertExpectedRevision(value: unknown): asserts value is ExpectedRevision {
  if (value === 'no_stream' || value === 'stream_exists' || value === 'any') return;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return;
  throw new InvalidExpectedRevisionError(value);
}

/** Whether `actual` satisfies `expected`. */
export function revisionMatches(expected: ExpectedRevision, actual: StreamState): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return actual === 'no_stream';
    case 'stream_exists':
      return actual !== 'no_stream';
    default:
      return actual === expected;
  }
}
