import { truncateText } from './truncate-text';

describe('truncateText', () => {
  it('leaves text at or under the limit alone', () => {
    expect(truncateText('abc', 300)).toBe('abc');
    expect(truncateText('a'.repeat(300), 300)).toBe('a'.repeat(300));
  });

  it('cuts longer text to the limit, ending with a marker that says how much is shown', () => {
    const out = truncateText('a'.repeat(1000), 300);
    expect(out.length).toBeLessThanOrEqual(300);
    const kept = Number(/showing the first (\d+) of 1000 characters\]$/.exec(out)?.[1]);
    expect(out.startsWith('a'.repeat(kept))).toBe(true);
    expect(out.charAt(kept)).toBe('\n');
  });

  it('never splits a surrogate pair', () => {
    const emoji = '😀'.repeat(500);
    const out = truncateText(emoji, 301);
    const body = out.slice(0, out.indexOf('\n\n[truncated'));
    expect(body).toBe('😀'.repeat(body.length / 2));
  });
});
