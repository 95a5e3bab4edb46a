import { describe, expect, test } from '@jest/globals';
import { lazyModule } from './lazy-module';

describe('a module loaded on first need', () => {
  test('nothing is loaded before the first need; concurrent callers share one load; afterwards the value is there at once', async () => {
    let imports = 0;
    const lazy = lazyModule(async () => {
      imports += 1;
      return { render: (text: string) => `<p>${text}</p>` };
    });
    expect(imports).toBe(0);
    expect(lazy.current()).toBeUndefined();
    const [a, b] = await Promise.all([lazy.load(), lazy.load()]);
    expect(imports).toBe(1);
    expect(a).toBe(b);
    expect(lazy.current()).toBe(a);
    await lazy.load();
    expect(imports).toBe(1);
  });

  test('a failed load is not remembered: the next caller tries again', async () => {
    let attempts = 0;
    const lazy = lazyModule(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('chunk failed to load');
      return 'loaded';
    });
    await expect(lazy.load()).rejects.toThrow('chunk failed to load');
    expect(lazy.current()).toBeUndefined();
    await expect(lazy.load()).resolves.toBe('loaded');
    expect(lazy.current()).toBe('loaded');
    expect(attempts).toBe(2);
  });
});
