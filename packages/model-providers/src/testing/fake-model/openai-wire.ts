import { DEFAULT_FAKE_USAGE, jsonPieces, textPieces, type FakeMessageReply } from './fake-reply';
import type { FakeWire, StreamPlan, WireContext } from './fake-wire';

/** OpenAI chat completions streaming: `data: <chunk>` frames, then `data: [DONE]`. */
export const openAiWire: FakeWire = {
  basePath: '/v1',

  route(method, url, body) {
    if (method !== 'POST' || url.pathname !== '/v1/chat/completions') return undefined;
    return { model: typeof body.model === 'string' ? body.model : '' };
  },

  authorized(headers, apiKey) {
    return headers.authorization === `Bearer ${apiKey}`;
  },

  errorBody(status, message) {
    return {
      error: {
        message,
        type: status === 401 ? 'invalid_request_error' : status === 429 ? 'requests' : 'server_error',
        param: null,
        code: status === 401 ? 'invalid_api_key' : null,
      },
    };
  },

  stream(reply: FakeMessageReply, context: WireContext): StreamPlan {
    const includeUsage = (context.body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    const chunk = (choice: Record<string, unknown>): string =>
      frame({
        id: `chatcmpl-fake-${context.requestNumber}`,
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: context.model,
        system_fingerprint: 'fp_fake',
        choices: [{ index: 0, logprobs: null, finish_reason: null, ...choice }],
        // With include_usage the real API sends `usage: null` on every chunk but the last.
        ...(includeUsage ? { usage: null } : {}),
      });
    const content = [chunk({ delta: { role: 'assistant', content: '', refusal: null } })];
    for (const piece of textPieces(reply.thinking)) content.push(chunk({ delta: { [reply.reasoningField ?? 'reasoning_content']: piece } }));
    for (const piece of textPieces(reply.text)) content.push(chunk({ delta: { content: piece } }));
    (reply.toolCalls ?? []).forEach((call, index) => {
      const id = call.callId ?? `call_fake_${context.requestNumber}_${index}`;
      content.push(chunk({ delta: { tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] } }));
      for (const piece of jsonPieces(call.arguments, call.argumentsText)) content.push(chunk({ delta: { tool_calls: [{ index, function: { arguments: piece } }] } }));
    });
    const usage = reply.usage ?? DEFAULT_FAKE_USAGE;
    const finish = [chunk({ delta: {}, finish_reason: reply.toolCalls?.length ? 'tool_calls' : 'stop' })];
    if (includeUsage) {
      finish.push(
        frame({
          id: `chatcmpl-fake-${context.requestNumber}`,
          object: 'chat.completion.chunk',
          created: 1_700_000_000,
          model: context.model,
          system_fingerprint: 'fp_fake',
          choices: [],
          usage: { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens, total_tokens: usage.inputTokens + usage.outputTokens },
        }),
      );
    }
    finish.push('data: [DONE]\n\n');
    return { content, finish };
  },

  malformed() {
    return ['data: {"id":"chatcmpl-fake","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hel\n\n'];
  },
};

function frame(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}
