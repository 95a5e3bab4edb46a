/**
 * Context windows (input tokens) of known models, by name prefix, longest prefix first. The
 * providers' model lists do not say it for OpenAI and Anthropic, so the table is ours; an
 * operator overrides it for every model with ONECLAW_CONTEXT_WINDOW_TOKENS (a local model
 * served under a known name, or a smaller budget to keep requests cheap).
 */
const KNOWN_WINDOWS: readonly (readonly [prefix: string, tokens: number])[] = [
  ['gpt-4.1', 1_047_576],
  ['gpt-4o', 128_000],
  ['gpt-4-turbo', 128_000],
  ['gpt-5', 400_000],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4', 200_000],
  ['claude-', 200_000],
  ['gemini-1.5-pro', 2_097_152],
  ['gemini-', 1_048_576],
];

/** Unknown models without the setting: the smallest window common today, so compaction starts early rather than never. */
export const DEFAULT_CONTEXT_WINDOW_TOKENS = 128_000;

export function contextWindowFor(model: string, override?: number): number {
  if (override !== undefined) return override;
  const name = model.toLowerCase().replace(/^models\//, '');
  let best: readonly [string, number] | undefined;
  for (const entry of KNOWN_WINDOWS) {
    if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best ? best[1] : DEFAULT_CONTEXT_WINDOW_TOKENS;
}
