import { DEFAULT_FAKE_USAGE, jsonPieces, textPieces, type FakeMessageReply } from './fake-reply';
import type { FakeWire, StreamPlan, WireContext } from './fake-wire';
import { anthropicRequestRefusal } from './anthropic-request-check';

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/** Anthropic Messages streaming: named events (`event:` + `data:`), blocks opened, filled and closed by index. */
export const anthropicWire: FakeWire = {
  basePath: '',

  route(method, url, body) {
    if (method !== 'POST' || url.pathname !== '/v1/messages') return undefined;
    return { model: typeof body.model === 'string' ? body.model : '' };
  },

  authorized(headers, apiKey) {
    return headers['x-api-key'] === apiKey;
  },

  refusal: anthropicRequestRefusal,

  errorBody(status, message) {
    return { type: 'error', error: { type: ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message } };
  },

  stream(reply: FakeMessageReply, context: WireContext): StreamPlan {
    const usage = reply.usage ?? DEFAULT_FAKE_USAGE;
    const content = [
      frame('message_start', {
        type: 'message_start',
        message: {
          id: `msg_fake_${context.requestNumber}`,
          type: 'message',
          role: 'assistant',
          model: context.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.inputTokens, output_tokens: 1 },
        },
      }),
      frame('ping', { type: 'ping' }),
    ];
    let index = 0;
    if (reply.thinking !== undefined) {
      content.push(frame('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
      for (const piece of textPieces(reply.thinking)) {
        content.push(frame('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } }));
      }
      content.push(
        frame('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'signature_delta', signature: `fake-thinking-signature-${context.requestNumber}` },
        }),
      );
      content.push(frame('content_block_stop', { type: 'content_block_stop', index }));
      index++;
    }
    const text = textPieces(reply.text);
    if (text.length > 0) {
      content.push(frame('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      for (const piece of text) content.push(frame('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }));
      content.push(frame('content_block_stop', { type: 'content_block_stop', index }));
      index++;
    }
    (reply.toolCalls ?? []).forEach((call, callIndex) => {
      const id = call.callId ?? `toolu_fake_${context.requestNumber}_${callIndex}`;
      content.push(frame('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: call.name, input: {} } }));
      // The real API opens every tool_use with an empty partial_json.
      for (const piece of ['', ...jsonPieces(call.arguments, call.argumentsText)]) {
        content.push(frame('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }));
      }
      content.push(frame('content_block_stop', { type: 'content_block_stop', index }));
      index++;
    });
    const finish = [
      frame('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: reply.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: usage.outputTokens },
      }),
      frame('message_stop', { type: 'message_stop' }),
    ];
    return { content, finish };
  },

  malformed(context) {
    const start = anthropicWire.stream({}, context).content[0] ?? '';
    return [start, 'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text",\n\n'];
  },
};

function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
