import { fitText, jsonBytes } from './fit-text';

describe('fitText', () => {
  it('leaves a text that fits as it is', () => {
    expect(fitText('hello', 7, 'tool result')).toBe('hello');
  });

  it('counts bytes as JSON: control characters take 6 each, so 30 000 of them are cut to fit 64 KiB, with a note', () => {
    const text = '\u0001'.repeat(30_000);
    const cut = fitText(text, 64 * 1024, 'tool result');
    expect(jsonBytes(cut)).toBeLessThanOrEqual(64 * 1024);
    expect(jsonBytes(cut)).toBeGreaterThan(64 * 1024 - 200);
    expect(cut).toMatch(/^\u0001+\n\n\[OneClaw: the tool result was cut here to fit the record size limit; \d+ of 30000 bytes kept\.\]$/);
  });

  it('is empty when not even the note fits', () => {
    expect(fitText('x'.repeat(1_000), 50, 'reply')).toBe('');
  });
});
