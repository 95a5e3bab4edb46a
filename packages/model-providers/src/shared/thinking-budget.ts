import type { ReasoningEffort } from '@oneclaw/core';

/**
 * Thinking tokens allowed per reasoning effort, for the APIs that take a budget rather than a
 * level (Anthropic `thinking.budget_tokens`, Gemini `thinkingConfig.thinkingBudget`). Fixed
 * numbers rather than a user's free choice: 1 024 is Anthropic's minimum, and 16 384 stays
 * inside every Gemini 2.5 model's range (Flash allows at most 24 576).
 */
export const THINKING_BUDGET_TOKENS: Readonly<Record<ReasoningEffort, number>> = { low: 1024, medium: 4096, high: 16384 };
