import { describe, expect, it } from '@jest/globals';
import type { ToolCallOutcome } from '@oneclaw/tool-registry';
import { findDuplicateCalls, withRepeats } from './duplicate-calls';

const call = (callId: string, toolName: string, args: unknown) => ({ callId, toolName, arguments: args });
const ran = (callId: string, toolName: string, result: ToolCallOutcome['result']): ToolCallOutcome => ({ callId, toolName, arguments: {}, result, durationMs: 12 });

describe('repeated calls in one model reply', () => {
  it('a call with the same tool and the same arguments as values (key order aside) repeats the first; other tools or arguments do not', () => {
    const calls = [
      call('a', 'gmail_send', { to: 'x@example.com', body: 'hi' }),
      call('b', 'gmail_send', { body: 'hi', to: 'x@example.com' }),
      call('c', 'gmail_send', { to: 'y@example.com', body: 'hi' }),
      call('d', 'drive_upload', { to: 'x@example.com', body: 'hi' }),
      call('e', 'get_current_time', undefined),
      call('f', 'get_current_time', undefined),
      call('g', 'gmail_send', { to: 'x@example.com', body: 'hi' }),
    ];
    expect(findDuplicateCalls(calls)).toEqual([
      { callId: 'b', sameAs: 'a' },
      { callId: 'f', sameAs: 'e' },
      { callId: 'g', sameAs: 'a' },
    ]);
    expect(findDuplicateCalls([call('a', 't', { n: 1 }), call('b', 't', { n: '1' })])).toEqual([]);
  });

  it('arguments too deep to compare (a model can send any depth) make the call unique instead of failing the turn', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(findDuplicateCalls([call('a', 't', deep), call('b', 't', deep), call('c', 't', 'not json'), call('d', 't', 'not json')])).toEqual([{ callId: 'd', sameAs: 'c' }]);
  });

  it('every call gets an outcome in the reply order; a repeat carries the first result (success or error) under its own id, with a note and no duration', () => {
    const outcomes = withRepeats(
      ['a', 'b', 'c', 'd'],
      [ran('a', 'gmail_send', { status: 'success', result: 'Sent.' }), ran('c', 'read_file', { status: 'error', errorType: 'not_found', message: 'No such file.' })],
      [
        { callId: 'b', sameAs: 'a' },
        { callId: 'd', sameAs: 'c' },
      ],
    );
    expect(outcomes.map((o) => [o.callId, o.toolName, o.durationMs])).toEqual([
      ['a', 'gmail_send', 12],
      ['b', 'gmail_send', 0],
      ['c', 'read_file', 12],
      ['d', 'read_file', 0],
    ]);
    expect(outcomes[0]?.result).toEqual({ status: 'success', result: 'Sent.' });
    expect(outcomes[1]?.result).toMatchObject({ status: 'success', result: expect.stringMatching(/^Sent\.\n\n\[OneClaw: this call repeats a of the same reply .* not run again/) });
    expect(outcomes[3]?.result).toMatchObject({ status: 'error', errorType: 'not_found', message: expect.stringContaining('repeats c of the same reply') });
  });
});
