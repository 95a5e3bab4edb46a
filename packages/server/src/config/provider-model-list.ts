import { isContextWindowTokens, type ModelEntry } from '@oneclaw/core';
import { ANTHROPIC_VERSION, errorFromHttpStatus, PROVIDER_LABELS, ProviderError, redactSecret } from '@oneclaw/model-providers';
import { DEFAULT_BASE_URLS, type ProviderConnection } from './provider-connection';

/** A model list longer than this is cut: the list is recorded in an event, which has a size limit. */
export const MAX_LISTED_MODELS = 2000;
/** Pages read at most from paginated APIs (Anthropic, Gemini). */
const MAX_PAGES = 10;

export type ModelListFetcher = (connection: ProviderConnection, signal: AbortSignal) => Promise<ModelEntry[]>;

/**
 * The provider's own model-list API: OpenAI-compatible `GET {base}/models`, Anthropic
 * `GET /v1/models`, Gemini `GET /v1beta/models` (only models that can `generateContent`).
 * Where the list states a model's context window (Gemini `inputTokenLimit`, Anthropic
 * `max_input_tokens`, OpenAI-compatible servers: see `openAiCompatibleWindow`) it is kept with
 * the model, and compaction prefers it to the built-in table (turns/context-window.ts).
 * Failures are `ProviderError`s with the same codes as a chat request (auth, rate limit, ...).
 */
export const fetchProviderModels: ModelListFetcher = async (connection, signal) => {
  const base = (connection.baseUrl ?? DEFAULT_BASE_URLS[connection.kind]).replace(/\/+$/, '');
  const key = connection.apiKey;
  switch (connection.kind) {
    case 'openai': {
      const body = (await getJson(connection, `${base}/models`, key ? { authorization: `Bearer ${key}` } : {}, signal)) as { data?: unknown };
      return cap(listOf(connection, body.data).map((m) => entry(m.id, undefined, openAiCompatibleWindow(m))));
    }
    case 'anthropic': {
      const headers = { 'anthropic-version': ANTHROPIC_VERSION, ...(key ? { 'x-api-key': key } : {}) };
      const models: ModelEntry[] = [];
      let after: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const query = new URLSearchParams({ limit: '1000', ...(after ? { after_id: after } : {}) });
        const body = (await getJson(connection, `${base}/v1/models?${query}`, headers, signal)) as { data?: unknown; has_more?: unknown; last_id?: unknown };
        models.push(...listOf(connection, body.data).map((m) => entry(m.id, m.display_name, m.max_input_tokens)));
        if (body.has_more !== true || typeof body.last_id !== 'string') break;
        after = body.last_id;
      }
      return cap(models);
    }
    case 'gemini': {
      const headers: Record<string, string> = key ? { 'x-goog-api-key': key } : {};
      const models: ModelEntry[] = [];
      let token: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const query = new URLSearchParams({ pageSize: '1000', ...(token ? { pageToken: token } : {}) });
        const body = (await getJson(connection, `${base}/v1beta/models?${query}`, headers, signal)) as { models?: unknown; nextPageToken?: unknown };
        for (const m of listOf(connection, body.models, 'name')) {
          const methods = m.supportedGenerationMethods;
          if (Array.isArray(methods) && !methods.includes('generateContent')) continue;
          models.push(entry(String(m.name).replace(/^models\//, ''), m.displayName, m.inputTokenLimit));
        }
        if (typeof body.nextPageToken !== 'string' || body.nextPageToken === '') break;
        token = body.nextPageToken;
      }
      return cap(models);
    }
  }
};

async function getJson(connection: ProviderConnection, url: string, headers: Record<string, string>, signal: AbortSignal): Promise<unknown> {
  const provider = connection.kind;
  let response: Response;
  try {
    response = await fetch(url, { method: 'GET', headers: { accept: 'application/json', ...headers }, signal });
  } catch (error) {
    if (signal.aborted) throw new ProviderError('provider_cancelled', `The ${PROVIDER_LABELS[provider]} model list request was cancelled.`, { provider });
    const reason = redactSecret((error as { cause?: { message?: string }; message?: string }).cause?.message ?? (error as Error).message, connection.apiKey);
    throw new ProviderError(
      'provider_unavailable',
      `Could not reach ${PROVIDER_LABELS[provider]} at ${new URL(url).origin} (${reason}); check the provider's api_base_url and that it is running.`,
      {
        provider,
      },
    );
  }
  const text = await response.text();
  if (!response.ok)
    throw errorFromHttpStatus({ provider, status: response.status, bodyText: text, headers: response.headers, ...(connection.apiKey ? { secret: connection.apiKey } : {}) });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badList(connection, 'the answer is not JSON');
  }
}

function listOf(connection: ProviderConnection, value: unknown, idField = 'id'): Record<string, unknown>[] {
  if (!Array.isArray(value)) throw badList(connection, 'it has no model list');
  return value.filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && typeof (m as Record<string, unknown>)[idField] === 'string');
}

/** `contextWindow`: the input-token limit the list states; kept only when plausible (the configuration checks it again). */
function entry(id: unknown, displayName: unknown, contextWindow?: unknown): ModelEntry {
  return {
    modelId: String(id),
    ...(typeof displayName === 'string' && displayName !== '' ? { displayName } : {}),
    ...(isContextWindowTokens(contextWindow) ? { contextWindowTokens: contextWindow } : {}),
  };
}

/**
 * OpenAI's own list says nothing about windows; compatible servers often do, each its own way:
 * OpenRouter and Together `context_length` (OpenRouter also `top_provider.context_length`), Groq
 * `context_window`, Mistral `max_context_length`, vLLM `max_model_len`. The first plausible one wins.
 */
function openAiCompatibleWindow(model: Record<string, unknown>): number | undefined {
  const top = model.top_provider as Record<string, unknown> | null | undefined;
  const candidates = [model.context_length, top?.context_length, model.context_window, model.max_context_length, model.max_model_len];
  return candidates.find(isContextWindowTokens);
}

function cap(models: ModelEntry[]): ModelEntry[] {
  return models.slice(0, MAX_LISTED_MODELS);
}

function badList(connection: ProviderConnection, what: string): ProviderError {
  return new ProviderError(
    'provider_bad_response',
    `${PROVIDER_LABELS[connection.kind]} answered the model list request with something unreadable (${what}). Check that api_base_url points at a ${connection.kind === 'openai' ? 'OpenAI-compatible' : PROVIDER_LABELS[connection.kind]} API.`,
    { provider: connection.kind },
  );
}
