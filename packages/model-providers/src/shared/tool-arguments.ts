/**
 * Streamed tool arguments arrive as JSON text. Unparseable text is kept as the raw string so the
 * execution engine answers with a validation error the model can read and fix, instead of the
 * whole turn failing.
 */
export function parseToolArguments(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Anthropic `input` and Gemini `args` must be JSON objects; anything else (a raw string kept above) becomes `{}`. */
export function asArgumentsObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** OpenAI wants the arguments as JSON text; a raw string kept from an unparseable reply goes back unchanged. */
export function argumentsAsJsonText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? {});
}
