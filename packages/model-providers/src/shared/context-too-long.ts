/** What a provider said when it refused a request as longer than the model's context window. */
export interface ContextOverflow {
  /** The model's limit in input tokens, when the provider named it. */
  readonly limitTokens?: number;
  /** How many tokens the refused request had, when the provider counted them. */
  readonly promptTokens?: number;
}

/** Providers write counts as `208310` or `208,310`. */
const N = '(\\d[\\d,]*)';

/**
 * The refusals we know, each with where its numbers are (prompt, limit):
 * - Anthropic: 400 invalid_request_error "prompt is too long: 208310 tokens > 200000 maximum"
 * - OpenAI (and vLLM, OpenRouter): 400 `context_length_exceeded` "This model's maximum context
 *   length is 128000 tokens. However, your messages resulted in 130532 tokens" (or "you requested")
 * - OpenAI (newer models): "Input tokens exceed the configured limit of 272000 tokens. Your
 *   messages resulted in 300000 tokens"
 * - Gemini: 400 INVALID_ARGUMENT "The input token count (1200000) exceeds the maximum number of
 *   tokens allowed (1048576)."
 */
const PATTERNS: readonly { readonly pattern: RegExp; readonly prompt?: number; readonly limit?: number }[] = [
  { pattern: new RegExp(`prompt is too long:\\s*${N}\\s*tokens\\s*>\\s*${N}`, 'i'), prompt: 1, limit: 2 },
  { pattern: /prompt is too long/i },
  { pattern: new RegExp(`maximum context length is ${N} tokens.*?(?:resulted in|requested(?: about)?) ${N} tokens`, 'is'), limit: 1, prompt: 2 },
  { pattern: new RegExp(`maximum context length is ${N} tokens`, 'i'), limit: 1 },
  { pattern: new RegExp(`exceed(?:s|ed)? the configured limit of ${N} tokens.*?resulted in ${N} tokens`, 'is'), limit: 1, prompt: 2 },
  { pattern: new RegExp(`input token count \\(?${N}\\)? exceeds the maximum number of tokens allowed \\(?${N}\\)?`, 'i'), prompt: 1, limit: 2 },
  { pattern: /input token count .* exceeds the maximum/i },
  { pattern: /context[ _]length[ _]exceeded|exceeds? the (?:available )?context (?:size|window|length)/i },
];

/**
 * Whether a 400 answer (or an error inside a stream) is the provider refusing the prompt as too
 * long for the model, and the numbers it named. Undefined for every other refusal. The agent loop
 * compacts the conversation and sends the request once more when it is.
 */
export function contextOverflowOf(bodyText: string): ContextOverflow | undefined {
  const structured = structuredOverflow(bodyText);
  for (const { pattern, prompt, limit } of PATTERNS) {
    const match = pattern.exec(bodyText);
    if (!match) continue;
    return withNumbers(structured, count(prompt !== undefined ? match[prompt] : undefined), count(limit !== undefined ? match[limit] : undefined));
  }
  return structured;
}

/** OpenAI's `code: "context_length_exceeded"`; llama.cpp's `exceed_context_size_error` with `n_ctx` and `n_prompt_tokens`. */
function structuredOverflow(bodyText: string): ContextOverflow | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  if (Array.isArray(parsed)) parsed = parsed[0];
  const error = (parsed as { error?: unknown } | null)?.error;
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as Record<string, unknown>;
  if (e.code !== 'context_length_exceeded' && e.type !== 'exceed_context_size_error') return undefined;
  return withNumbers(undefined, count(e.n_prompt_tokens), count(e.n_ctx));
}

function withNumbers(base: ContextOverflow | undefined, promptTokens: number | undefined, limitTokens: number | undefined): ContextOverflow {
  const limit = limitTokens ?? base?.limitTokens;
  const prompt = promptTokens ?? base?.promptTokens;
  return { ...(limit !== undefined ? { limitTokens: limit } : {}), ...(prompt !== undefined ? { promptTokens: prompt } : {}) };
}

function count(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.replace(/,/g, '')) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
