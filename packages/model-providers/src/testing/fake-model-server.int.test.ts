import { afterEach, describe, expect, it } from '@jest/globals';
import { fakeReply } from './fake-model/fake-reply';
import { startFakeModelServer, type FakeModelServer } from './fake-model-server';

describe('S2 loopback fake model server (test double for the provider APIs)', () => {
  let fake: FakeModelServer | undefined;
  afterEach(() => fake?.close());

  it('records every request, answers unknown paths with 404 and a missing key with 401 without consuming replies', async () => {
    fake = await startFakeModelServer('anthropic', { apiKey: 'k', replies: [fakeReply.text('hi')] });
    const wrongPath = await fetch(`${fake.url}/v1/complete`, { method: 'POST', body: '{}' });
    const noKey = await fetch(`${fake.url}/v1/messages`, { method: 'POST', body: '{"model":"m"}' });
    expect([wrongPath.status, noKey.status]).toEqual([404, 401]);
    expect(await noKey.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    expect(fake.pendingReplies).toBe(1);
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/complete', '/v1/messages']);
    expect(fake.requests[1]?.body).toEqual({ model: 'm' });
  });

  it('the Anthropic fake refuses, like the real API, a blank or empty text block and a message without content: 400 invalid_request_error, no reply taken', async () => {
    fake = await startFakeModelServer('anthropic', { replies: [fakeReply.text('hi')] });
    const post = async (messages: unknown): Promise<[number, unknown]> => {
      const response = await fetch(`${fake?.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'm', max_tokens: 9, messages }) });
      return [response.status, response.status === 400 ? await response.json() : await response.text()];
    };
    const user = { role: 'user', content: [{ type: 'text', text: 'Hi' }] };
    const refused = (message: string) => [400, { type: 'error', error: { type: 'invalid_request_error', message } }];
    expect(await post([user, { role: 'assistant', content: [{ type: 'text', text: '  \n ' }] }, user])).toEqual(
      refused('messages: text content blocks must contain non-whitespace text'),
    );
    expect(await post([{ role: 'user', content: [{ type: 'text', text: '' }] }])).toEqual(refused('messages: text content blocks must be non-empty'));
    expect(await post([user, { role: 'assistant', content: [] }, user])).toEqual(
      refused('messages.1: all messages must have non-empty content except for the optional final assistant message'),
    );
    expect(fake.pendingReplies).toBe(1);
    const [status] = await post([user, { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] }, user]);
    expect(status).toBe(200);
    expect(fake.pendingReplies).toBe(0);
  });

  it('the Anthropic fake refuses, like the real API, a tool_use id used twice or outside ^[a-zA-Z0-9_-]+$, and a tool_result that answers no tool_use of the message before', async () => {
    fake = await startFakeModelServer('anthropic');
    const post = async (messages: unknown): Promise<unknown> => {
      const response = await fetch(`${fake?.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'm', max_tokens: 9, messages }) });
      return ((await response.json()) as { error?: { message?: string } }).error?.message;
    };
    const user = { role: 'user', content: [{ type: 'text', text: 'Hi' }] };
    const use = (id: string) => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 't', input: {} }] });
    const result = (id: string) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'r' }] });
    expect(await post([user, use('call_0'), result('call_0'), use('call_0'), result('call_0')])).toBe('messages.3.content.0: `tool_use` ids must be unique');
    expect(await post([user, use('functions.get_time:0'), result('functions.get_time:0')])).toBe(
      "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
    );
    expect(await post([user, use('call_0'), result('call_1')])).toBe(
      'messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: call_1. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    );
    expect(fake.requests).toHaveLength(3);
  });

  it('answers 500 naming the exhausted script, and script() replaces the queue', async () => {
    fake = await startFakeModelServer('openai');
    fake.enqueue(fakeReply.text('a'), fakeReply.text('b'));
    fake.script([]);
    const response = await fetch(`${fake.url}/chat/completions`, { method: 'POST', body: '{"model":"m"}' });
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).toContain('script ran out');
  });

  it('streams Gemini SSE frames with CRLF separators on the real path', async () => {
    fake = await startFakeModelServer('gemini', { replies: [fakeReply.text('hi')] });
    const response = await fetch(`${fake.url}/v1beta/models/gemini-x:streamGenerateContent?alt=sse`, { method: 'POST', body: '{"contents":[]}' });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const text = await response.text();
    expect(text.startsWith('data: {')).toBe(true);
    expect(text).toContain('"finishReason":"STOP"');
    expect(text.endsWith('\r\n\r\n')).toBe(true);
  });
});
