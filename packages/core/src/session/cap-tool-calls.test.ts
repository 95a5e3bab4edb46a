import { DEFAULT_EVENT_STORE_LIMITS } from '../event-store/event-store';
import { testCatalogue } from '../testing/fixed-tool-catalogue';
import { sessionScenario } from '../testing/session-scenario';
import { callsDroppedNote, capToolCalls, MAX_TOOL_CALLS_PER_REPLY } from './cap-tool-calls';
import { MAX_CALL_ID_CHARS, MAX_TOOL_NAME_CHARS } from './unique-call-ids';

const calls = (n: number) => Array.from({ length: n }, (_, i) => ({ callId: `c${i + 1}`, toolName: 'get_current_time', arguments: {} }));
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('capToolCalls', () => {
  it('takes a reply within the limit whole and says nothing', () => {
    expect(capToolCalls(calls(MAX_TOOL_CALLS_PER_REPLY))).toEqual({ calls: calls(MAX_TOOL_CALLS_PER_REPLY) });
  });

  it('keeps the first calls up to the limit, in order, and counts the ones dropped after them', () => {
    const capped = capToolCalls(calls(3000));
    expect(capped.calls).toEqual(calls(MAX_TOOL_CALLS_PER_REPLY));
    expect(capped.dropped).toEqual({ limit: MAX_TOOL_CALLS_PER_REPLY, count: 3000 - MAX_TOOL_CALLS_PER_REPLY });
    expect(capToolCalls(calls(5), 2)).toEqual({ calls: calls(2), dropped: { limit: 2, count: 3 } });
  });

  it('the note for the model says how many calls were sent, taken and dropped, and what to do', () => {
    expect(callsDroppedNote({ limit: 128, count: 2872 })).toBe(
      '[OneClaw: this reply had 3000 tool calls, over the limit of 128 per reply; only the first 128 were taken, the other 2872 were not run and are not in this record. Send the ones still needed in a later reply.]',
    );
  });

  it('a turn cut off with a whole reply of calls pending (longest ids and names) is closed in one append well within the 1 MiB limit', () => {
    const turnId = '0d8f2a4e-7b1c-4c55-9e3a-2f6b8d1e0a77';
    const longest = Array.from({ length: MAX_TOOL_CALLS_PER_REPLY }, (_, i) => ({
      // An id at the limit, plus the suffix uniqueCallIds may add to it.
      callId: `${'i'.repeat(MAX_CALL_ID_CHARS - 4)}${String(i).padStart(4, '0')}_${i + 2}`,
      toolName: 'n'.repeat(MAX_TOOL_NAME_CHARS),
      arguments: {},
    }));
    const s = sessionScenario(testCatalogue()).given(
      { type: 'StartSession', sessionId: 's1', agentId: 'default' },
      { type: 'RecordUserMessage', messageId: `${turnId}-user`, text: 'hi', turnId, host: { replicaId: 'r', processId: 'p' } },
      { type: 'RecordModelRequest', provider: 'openai', model: 'm', toolNames: [], schemaTokens: 0 },
      { type: 'RecordAssistantMessage', messageId: `${turnId}-assistant-1`, text: '', toolCalls: longest },
    );
    const events = s.record({ type: 'InterruptTurn', turnId, detail: 'The server restarted mid-turn.' });
    expect(events).toHaveLength(MAX_TOOL_CALLS_PER_REPLY + 1);
    // What the store counts: each event's data and metadata as JSON.
    const appended = events.reduce((sum, e) => sum + bytes(e.data) + bytes(e.metadata), 0);
    expect(appended).toBeLessThan(DEFAULT_EVENT_STORE_LIMITS.maxAppendBytes / 8);
  });
});
