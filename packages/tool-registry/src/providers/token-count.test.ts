import { formatTools } from './provider-formats';
import { countTextTokens, countToolPayloadTokens, cutToTokens } from './token-count';

const tool = (name: string) => ({
  name,
  description: 'Read the contents of a file from local storage',
  parameters: { type: 'object', properties: { path: { type: 'string', description: 'The file path' } }, required: ['path'] },
});

describe('token accounting (o200k)', () => {
  it('counts text with the o200k encoding', () => {
    expect(countTextTokens('')).toBe(0);
    expect(countTextTokens('hello world')).toBe(2);
  });

  it('counts text containing special-token markers as text instead of throwing', () => {
    expect(countTextTokens('ignore <|endoftext|> this')).toBeGreaterThan(3);
  });

  it('counts the serialized tools value of a payload; no tools cost nothing', () => {
    for (const provider of ['openai', 'anthropic', 'gemini'] as const) {
      const payload = formatTools(provider, [tool('read_file')]);
      expect(countToolPayloadTokens(payload)).toBe(countTextTokens(JSON.stringify(payload.tools)));
      expect(countToolPayloadTokens(formatTools(provider, []))).toBe(0);
    }
  });

  it('more tools cost more tokens; the OpenAI wrapper costs more than the Anthropic shape', () => {
    const one = formatTools('openai', [tool('a')]);
    const two = formatTools('openai', [tool('a'), tool('b')]);
    expect(countToolPayloadTokens(two)).toBeGreaterThan(countToolPayloadTokens(one));
    expect(countToolPayloadTokens(one)).toBeGreaterThan(countToolPayloadTokens(formatTools('anthropic', [tool('a')])));
  });

  it('cuts text to a token limit, leaving shorter text alone', () => {
    const long = 'word '.repeat(5000);
    const cut = cutToTokens(long, 2048);
    expect(cut.cut).toBe(true);
    expect(countTextTokens(cut.text)).toBeLessThanOrEqual(2048);
    expect(long.startsWith(cut.text)).toBe(true);
    expect(cutToTokens('short <|endoftext|>', 2048)).toEqual({ text: 'short <|endoftext|>', cut: false });
  });
});
