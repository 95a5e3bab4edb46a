import { describe, expect, it } from '@jest/globals';
import { anthropicThinkingMode } from './anthropic-thinking-mode';

describe('anthropicThinkingMode: adaptive thinking from Claude 4.6 on and for ids without a version, a token budget before', () => {
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
    ['claude-fable-5', 'adaptive'],
    ['claude-mythos-preview', 'adaptive'],
    ['my-proxy-alias', 'adaptive'],
    ['claude-3-5-haiku-20241022', 'budget'],
  ])('%s: %s', (model, mode) => {
    expect(anthropicThinkingMode(model)).toBe(mode);
  });
});
