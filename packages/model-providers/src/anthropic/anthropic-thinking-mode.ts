/**
 * How a Claude model takes a request to think. Models from 4.6 on think "adaptively": they take
 * `thinking: {type: 'adaptive'}` with `output_config.effort`, and the newest refuse the older
 * fixed `budget_tokens` form (400). Earlier ones (Haiku 4.5, Sonnet 4.5, Opus 4.1, Claude 3.7)
 * know only the budget. Read from the model id, whatever the family's name
 * (`claude-opus-4-6`, `claude-sonnet-4-5-20250929`, `claude-3-7-sonnet-latest`). An id whose
 * version cannot be read (a new family, an alias behind a proxy) is taken as adaptive: every
 * model that knows only the budget has a version in its id, and the budget form is deprecated.
 */
export type AnthropicThinkingMode = 'adaptive' | 'budget';

/** `claude-<family>-<major>[-<minor>]`; a date suffix (`-20250514`) is not a minor version. */
const NEW_STYLE = /claude-[a-z]+-(\d+)(?:-(\d)(?!\d))?/;
/** `claude-<major>[-<minor>]-<family>`, the naming up to Claude 3.7. */
const OLD_STYLE = /claude-(\d+)(?:-(\d)(?!\d))?-[a-z]+/;

export function anthropicThinkingMode(model: string): AnthropicThinkingMode {
  const match = NEW_STYLE.exec(model) ?? OLD_STYLE.exec(model);
  if (!match) return 'adaptive';
  const major = Number(match[1]);
  const minor = match[2] === undefined ? 0 : Number(match[2]);
  return major > 4 || (major === 4 && minor >= 6) ? 'adaptive' : 'budget';
}
