import { MISSING_TOOL_NAME, uniqueCallIds } from './unique-call-ids';

const call = (callId: string, toolName = 'read_file') => ({ callId, toolName, arguments: {} });

describe('uniqueCallIds', () => {
  it('keeps distinct ids as they are and records nothing', () => {
    const named = uniqueCallIds([call('a'), call('b')], new Set(), 'call_r1');
    expect(named).toEqual({ calls: [call('a'), call('b')], renamedCalls: [], unnamedCalls: [] });
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
});
