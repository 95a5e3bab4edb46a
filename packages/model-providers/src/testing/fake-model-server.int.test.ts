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
