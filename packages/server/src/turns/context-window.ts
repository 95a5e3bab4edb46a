/**
 * Context windows (input tokens) of known models, by name prefix, longest prefix first. OpenAI's
 * own model list does not say it (nor did Anthropic's before `max_input_tokens`), so the table is
 * ours; it is used when neither the setting nor the provider's model list gives a window.
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

/** Where a model's window can come from besides the table (see `contextWindowFor`). */
export interface ContextWindowSources {
  /** ONECLAW_CONTEXT_WINDOW_TOKENS: the operator's window for every model. */
  readonly setting?: number;
  /** What the provider's model list states for this model (recorded by fetch_models). */
  readonly listed?: number;
  /** The limit the provider named when it refused a request as too long ("... > 200000 maximum"). */
  readonly stated?: number;
}

/**
 * The window compaction plans with, in this order: the setting (an operator may want a smaller
 * budget than the model allows, or knows better than a list), else the provider's model list,
 * else the built-in table by name prefix, else 128 000. A limit the provider stated when it
 * refused a request is a hard fact about this model, so it caps whichever of those applies.
 */
export function contextWindowFor(model: string, sources: ContextWindowSources = {}): number {
  const configured = sources.setting ?? sources.listed ?? tableWindow(model) ?? DEFAULT_CONTEXT_WINDOW_TOKENS;
  return sources.stated !== undefined ? Math.min(configured, sources.stated) : configured;
}

function tableWindow(model: string): number | undefined {
  const name = model.toLowerCase().replace(/^models\//, '');
  let best: readonly [string, number] | undefined;
  for (const entry of KNOWN_WINDOWS) {
    if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1];
}
