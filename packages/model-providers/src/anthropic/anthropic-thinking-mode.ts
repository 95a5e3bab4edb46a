/**
 * How a Claude model takes a request to think. Models from 4.6 on think "adaptively": they take
 * `thinking: {type: 'adaptive'}` with `output_config.effort`, and the newest refuse the older
 * fixed `budget_tokens` form (400). Earlier ones (Haiku 4.5, Sonnet 4.5, Claude 3.7) know only
 * the budget. Read from the model id (`claude-opus-4-6`, `claude-sonnet-4-5-20250929`,
 * `claude-3-7-sonnet-latest`); an id that names no version (an alias behind a proxy) gets the
 * budget, which every thinking model before 4.7 accepts.
 */
export type AnthropicThinkingMode = 'adaptive' | 'budget';

const NEW_STYLE = /claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d)(?!\d))?/;
const OLD_STYLE = /claude-(\d+)(?:-(\d)(?!\d))?-(?:opus|sonnet|haiku)/;

export function anthropicThinkingMode(model: string): AnthropicThinkingMode {
  const match = NEW_STYLE.exec(model) ?? OLD_STYLE.exec(model);
  if (!match) return 'budget';
  const major = Number(match[1]);
  const minor = match[2] === undefined ? 0 : Number(match[2]);
  return major > 4 || (major === 4 && minor >= 6) ? 'adaptive' : 'budget';
}
