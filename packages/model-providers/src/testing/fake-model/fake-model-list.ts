import type { FakeModelKind } from '../fake-model-server';

/** One model the fake lists. */
export interface FakeModelInfo {
  readonly id: string;
  readonly displayName?: string;
  /** Gemini's `supportedGenerationMethods`; default `['generateContent', 'countTokens']`. */
  readonly generationMethods?: readonly string[];
  /**
   * The context window the list states: Gemini `inputTokenLimit` (default 1 048 576), Anthropic
   * `max_input_tokens`, and for OpenAI-compatible lists OpenRouter's `context_length` and
   * `top_provider` (absent by default, as in OpenAI's own list and Anthropic's older one).
   */
  readonly contextWindow?: number;
}

export const DEFAULT_FAKE_MODELS: Readonly<Record<FakeModelKind, readonly FakeModelInfo[]>> = {
  openai: [{ id: 'gpt-4o-mini' }, { id: 'gpt-4o' }, { id: 'text-embedding-3-small' }],
  anthropic: [
    { id: 'claude-sonnet-4-5', displayName: 'Claude Sonnet 4.5' },
    { id: 'claude-haiku-4-5', displayName: 'Claude Haiku 4.5' },
  ],
  gemini: [
    { id: 'gemini-2.5-flash', displayName: 'Gemini 2.5 Flash' },
    { id: 'gemini-2.5-pro', displayName: 'Gemini 2.5 Pro' },
    { id: 'text-embedding-004', displayName: 'Text Embedding 004', generationMethods: ['embedContent'] },
  ],
};

/**
 * The model-list APIs in their real shapes: OpenAI `GET /v1/models` (one page), Anthropic
 * `GET /v1/models` (`limit` default 20, `after_id` cursor, `has_more`/`first_id`/`last_id`),
 * Gemini `GET /v1beta/models` (`pageSize` default 50, `pageToken`/`nextPageToken`).
 * Undefined when the request is not a model-list request of this API.
 */
export function modelListAnswer(kind: FakeModelKind, method: string, url: URL, models: readonly FakeModelInfo[]): unknown {
  if (method !== 'GET') return undefined;
  switch (kind) {
    case 'openai':
      if (url.pathname !== '/v1/models') return undefined;
      return {
        object: 'list',
        data: models.map((m) => ({
          id: m.id,
          object: 'model',
          created: 1_700_000_000,
          owned_by: 'fake',
          // OpenRouter's shape (GET /api/v1/models): the window twice, once for the model and once for its top provider.
          ...(m.contextWindow !== undefined
            ? {
                name: m.displayName ?? m.id,
                context_length: m.contextWindow,
                top_provider: { context_length: m.contextWindow, max_completion_tokens: 16_384, is_moderated: false },
              }
            : {}),
        })),
      };
    case 'anthropic': {
      if (url.pathname !== '/v1/models') return undefined;
      const limit = clamp(Number(url.searchParams.get('limit') ?? 20), 1, 1000);
      const after = url.searchParams.get('after_id');
      const start = after ? models.findIndex((m) => m.id === after) + 1 : 0;
      const page = models.slice(start, start + limit);
      return {
        data: page.map((m) => ({
          type: 'model',
          id: m.id,
          display_name: m.displayName ?? m.id,
          created_at: '2025-09-29T00:00:00Z',
          ...(m.contextWindow !== undefined ? { max_input_tokens: m.contextWindow, max_tokens: 64_000 } : {}),
        })),
        has_more: start + limit < models.length,
        first_id: page[0]?.id ?? null,
        last_id: page.at(-1)?.id ?? null,
      };
    }
    case 'gemini': {
      if (url.pathname !== '/v1beta/models') return undefined;
      const size = clamp(Number(url.searchParams.get('pageSize') ?? 50), 1, 1000);
      const start = Number(url.searchParams.get('pageToken') ?? 0) || 0;
      const page = models.slice(start, start + size);
      return {
        models: page.map((m) => ({
          name: `models/${m.id}`,
          version: '001',
          displayName: m.displayName ?? m.id,
          description: `Fake ${m.id}`,
          inputTokenLimit: m.contextWindow ?? 1_048_576,
          outputTokenLimit: 65_536,
          supportedGenerationMethods: m.generationMethods ?? ['generateContent', 'countTokens'],
        })),
        ...(start + size < models.length ? { nextPageToken: String(start + size) } : {}),
      };
    }
  }
}

function clamp(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, Math.floor(value))) : min;
}
