import { contextWindowFor, DEFAULT_CONTEXT_WINDOW_TOKENS } from './context-window';

describe('contextWindowFor', () => {
  it('knows the common models by prefix, falls back for unknown ones, and the setting wins', () => {
    expect(contextWindowFor('gpt-4o-mini')).toBe(128_000);
    expect(contextWindowFor('claude-sonnet-4-5')).toBe(200_000);
    expect(contextWindowFor('gemini-2.5-flash')).toBe(1_048_576);
    expect(contextWindowFor('models/gemini-1.5-pro-002')).toBe(2_097_152);
    expect(contextWindowFor('llama3.1:8b')).toBe(DEFAULT_CONTEXT_WINDOW_TOKENS);
    expect(contextWindowFor('claude-sonnet-4-5', { setting: 4000 })).toBe(4000);
  });

  it("prefers the setting, then the provider's model list, then the table, then the default; a limit the provider stated caps them all", () => {
    expect(contextWindowFor('gemini-2.5-flash', { listed: 32_768 })).toBe(32_768);
    expect(contextWindowFor('llama3.1:8b', { listed: 131_072 })).toBe(131_072);
    expect(contextWindowFor('gemini-2.5-flash', { setting: 8000, listed: 32_768 })).toBe(8000);
    expect(contextWindowFor('claude-sonnet-4-5', { stated: 150_000 })).toBe(150_000);
    expect(contextWindowFor('claude-sonnet-4-5', { listed: 100_000, stated: 150_000 })).toBe(100_000);
    expect(contextWindowFor('claude-sonnet-4-5', { setting: 500_000, listed: 1_000_000, stated: 200_000 })).toBe(200_000);
  });
});
