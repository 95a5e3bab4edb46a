import { describe, expect, it } from '@jest/globals';
import { anthropicThinkingMode } from './anthropic-thinking-mode';

describe('anthropicThinkingMode: adaptive thinking from Claude 4.6 on, a token budget before', () => {
  it.each([
    ['claude-opus-4-6', 'adaptive'],
    ['claude-opus-4-7', 'adaptive'],
    ['claude-sonnet-4-6', 'adaptive'],
    ['claude-sonnet-4-6-20260101', 'adaptive'],
    ['claude-opus-5', 'adaptive'],
    ['claude-haiku-5-1', 'adaptive'],
    ['anthropic/claude-sonnet-4-6', 'adaptive'],
    ['claude-sonnet-4-5', 'budget'],
    ['claude-sonnet-4-5-20250929', 'budget'],
    ['claude-haiku-4-5', 'budget'],
    ['claude-opus-4-1', 'budget'],
    ['claude-opus-4-20250514', 'budget'],
    ['claude-3-7-sonnet-latest', 'budget'],
    ['my-proxy-alias', 'budget'],
  ])('%s: %s', (model, mode) => {
    expect(anthropicThinkingMode(model)).toBe(mode);
  });
});
