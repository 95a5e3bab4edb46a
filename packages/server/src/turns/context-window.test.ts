import { contextWindowFor, DEFAULT_CONTEXT_WINDOW_TOKENS } from './context-window';

describe('contextWindowFor', () => {
  it('knows the common models by prefix, falls back for unknown ones, and the setting wins', () => {
    expect(contextWindowFor('gpt-4o-mini')).toBe(128_000);
    expect(contextWindowFor('claude-sonnet-4-5')).toBe(200_000);
    expect(contextWindowFor('gemini-2.5-flash')).toBe(1_048_576);
    expect(contextWindowFor('models/gemini-1.5-pro-002')).toBe(2_097_152);
    expect(contextWindowFor('llama3.1:8b')).toBe(DEFAULT_CONTEXT_WINDOW_TOKENS);
    expect(contextWindowFor('claude-sonnet-4-5', 4000)).toBe(4000);
  });
});
