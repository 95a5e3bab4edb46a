import { DEFAULT_FAKE_USAGE, textPieces, type FakeMessageReply } from './fake-reply';
import type { FakeWire, StreamPlan, WireContext } from './fake-wire';

const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

const STREAM_PATH = /^\/v1beta\/models\/([^/:]+):streamGenerateContent$/;

/**
 * Gemini `streamGenerateContent?alt=sse`: `data: <GenerateContentResponse>` frames separated by
 * CRLF CRLF as Google sends them; function calls arrive whole, the last chunk has finishReason.
 */
export const geminiWire: FakeWire = {
  basePath: '',

  route(method, url) {
    const match = STREAM_PATH.exec(url.pathname);
    if (method !== 'POST' || !match?.[1] || url.searchParams.get('alt') !== 'sse') return undefined;
    return { model: decodeURIComponent(match[1]) };
  },

  authorized(headers, apiKey) {
    return headers['x-goog-api-key'] === apiKey;
  },

  errorBody(status, message) {
    return { error: { code: status, message, status: STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } };
  },

  stream(reply: FakeMessageReply, context: WireContext): StreamPlan {
    const usage = reply.usage ?? DEFAULT_FAKE_USAGE;
    const chunk = (
      parts: unknown[],
      extra: Record<string, unknown> = {},
      usageMetadata: Record<string, unknown> = { promptTokenCount: usage.inputTokens, totalTokenCount: usage.inputTokens },
    ): string =>
      frame({
        candidates: [{ content: { parts, role: 'model' }, index: 0, ...extra }],
        usageMetadata,
        modelVersion: context.model,
        responseId: `fake-response-${context.requestNumber}`,
      });
    const content = [...textPieces(reply.thinking).map((piece) => chunk([{ text: piece, thought: true }])), ...textPieces(reply.text).map((piece) => chunk([{ text: piece }]))];
    const calls = reply.toolCalls ?? [];
    if (calls.length > 0) {
      // Gemini signs only the first function call of a (parallel) set.
      content.push(
        chunk(
          calls.map((call, index) => ({
            functionCall: { name: call.name, args: call.arguments },
            ...(index === 0 && reply.thoughtSignature ? { thoughtSignature: reply.thoughtSignature } : {}),
          })),
        ),
      );
    }
    const finalPart = { text: '', ...(calls.length === 0 && reply.thoughtSignature ? { thoughtSignature: reply.thoughtSignature } : {}) };
    const finish = [
      chunk(
        [finalPart],
        { finishReason: 'STOP' },
        {
          promptTokenCount: usage.inputTokens,
          candidatesTokenCount: usage.outputTokens,
          totalTokenCount: usage.inputTokens + usage.outputTokens,
        },
      ),
    ];
    return { content, finish };
  },

  malformed() {
    return ['data: {"candidates": [{"content": {"parts": [{"text": "Hel\r\n\r\n'];
  },
};

function frame(data: unknown): string {
  return `data: ${JSON.stringify(data)}\r\n\r\n`;
}
