import { describe, expect, it } from '@jest/globals';
import { INSTANT_SUMMARY, INSTANT_TEXT, INSTANT_TEXT_ONLY, INSTANT_TOOL, instantInputTokens, instantReply } from './instant-model';

const TOOLS = [{ type: 'function', function: { name: INSTANT_TOOL, parameters: { type: 'object' } } }];
const request = (last: { role: string; content: string }, tools: unknown = TOOLS) => ({ model: 'gpt-4o-mini', messages: [last], ...(tools ? { tools } : {}) });

describe('the instant FAKE model the benchmarks run against', () => {
  it('reports input tokens from the request size, as a real provider would, so long sessions reach the window and are compacted', () => {
    const small = instantReply(request({ role: 'user', content: 'hi' }), 400);
    const large = instantReply(request({ role: 'user', content: 'hi' }), 600_000);
    expect(small?.usage?.inputTokens).toBe(100);
    expect(large?.usage?.inputTokens).toBe(150_000);
    // Past 85% of gpt-4o-mini's 128,000-token window, where the server compacts.
    expect(instantInputTokens(600_000)).toBeGreaterThan(0.85 * 128_000);
    expect(instantInputTokens(0)).toBe(1);
  });

  it('answers a user message with a tool call, a tool result or a text-only message with text, and the summary request (no tools) with a summary', () => {
    expect(instantReply(request({ role: 'user', content: 'time?' }), 100)?.toolCalls?.[0]?.name).toBe(INSTANT_TOOL);
    expect(instantReply(request({ role: 'tool', content: '{"status":"success"}' }), 100)?.text).toBe(INSTANT_TEXT);
    expect(instantReply(request({ role: 'user', content: `note ${INSTANT_TEXT_ONLY}` }), 100)?.text).toBe(INSTANT_TEXT);
    expect(instantReply(request({ role: 'user', content: 'transcript' }, null), 100)?.text).toBe(INSTANT_SUMMARY);
    expect(instantReply(request({ role: 'user', content: 'transcript' }, []), 100)?.text).toBe(INSTANT_SUMMARY);
    expect(instantReply({ messages: [] }, 100)).toBeUndefined();
  });
});
