import { LONG_TOOL_NAME, MAX_CALL_ID_CHARS, MAX_TOOL_NAME_CHARS, MISSING_TOOL_NAME, uniqueCallIds } from './unique-call-ids';

const call = (callId: string, toolName = 'read_file') => ({ callId, toolName, arguments: {} });

describe('uniqueCallIds', () => {
  it('keeps distinct ids as they are and records nothing', () => {
    const named = uniqueCallIds([call('a'), call('b')], new Set(), 'call_r1');
    expect(named).toEqual({ calls: [call('a'), call('b')], renamedCalls: [], unnamedCalls: [], longToolNames: [] });
  });

  it('the first of a repeated id keeps it, later ones get _2, _3 (skipping ids in use), deterministically', () => {
    const calls = [call('x'), call('x'), call('x_2'), call('x')];
    const named = uniqueCallIds(calls, new Set(), 'call_r1');
    expect(named.calls.map((c) => c.callId)).toEqual(['x', 'x_2', 'x_2_2', 'x_3']);
    expect(named.renamedCalls).toEqual([
      { callId: 'x_2', originalCallId: 'x' },
      { callId: 'x_2_2', originalCallId: 'x_2' },
      { callId: 'x_3', originalCallId: 'x' },
    ]);
    expect(uniqueCallIds(calls, new Set(), 'call_r1')).toEqual(named);
  });

  it('names calls without an id by position, avoiding ids still pending; a missing tool name is recorded as such', () => {
    const named = uniqueCallIds([call(''), call('  '), call('p', '')], new Set(['call_r2_1', 'p']), 'call_r2');
    expect(named.calls.map((c) => [c.callId, c.toolName])).toEqual([
      ['call_r2_1_2', 'read_file'],
      ['call_r2_2', 'read_file'],
      ['p_2', MISSING_TOOL_NAME],
    ]);
    expect(named.renamedCalls).toEqual([
      { callId: 'call_r2_1_2', originalCallId: '' },
      { callId: 'call_r2_2', originalCallId: '  ' },
      { callId: 'p_2', originalCallId: 'p' },
    ]);
    expect(named.unnamedCalls).toEqual(['p_2']);
  });

  it('replaces an id over MAX_CALL_ID_CHARS like a missing one, and records only its start and length, so a huge id cannot overflow the record', () => {
    const atLimit = 'a'.repeat(MAX_CALL_ID_CHARS);
    const huge = 'b'.repeat(2_000_000);
    const named = uniqueCallIds([call(atLimit), call(huge), call(`x${'😀'.repeat(64)}`)], new Set(['call_r1_2']), 'call_r1');
    expect(named.calls.map((c) => c.callId)).toEqual([atLimit, 'call_r1_2_2', 'call_r1_3']);
    expect(named.renamedCalls).toEqual([
      { callId: 'call_r1_2_2', originalCallId: 'b'.repeat(MAX_CALL_ID_CHARS), originalCallIdChars: 2_000_000 },
      // 129 UTF-16 units: 128 would end on the first half of the last emoji, which is left out.
      { callId: 'call_r1_3', originalCallId: `x${'😀'.repeat(63)}`, originalCallIdChars: 129 },
    ]);
    expect(JSON.stringify(named).length).toBeLessThan(2_000);
  });

  it('records a tool name over MAX_TOOL_NAME_CHARS (longer than any tool has) as LONG_TOOL_NAME, keeping its start and length', () => {
    const atLimit = 'n'.repeat(MAX_TOOL_NAME_CHARS);
    const named = uniqueCallIds([call('a', atLimit), call('b', `get_current_time${'c'.repeat(2_000_000)}`)], new Set(), 'call_r1');
    expect(named.calls.map((c) => [c.callId, c.toolName])).toEqual([
      ['a', atLimit],
      ['b', LONG_TOOL_NAME],
    ]);
    expect(named.longToolNames).toEqual([{ callId: 'b', start: `get_current_time${'c'.repeat(MAX_TOOL_NAME_CHARS - 16)}`, chars: 2_000_016 }]);
    expect(named.unnamedCalls).toEqual([]);
    expect(JSON.stringify(named).length).toBeLessThan(1_000);
  });
});
