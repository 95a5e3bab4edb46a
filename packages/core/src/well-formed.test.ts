import { describe, expect, it } from '@jest/globals';
import { toWellFormed } from './well-formed';

describe('toWellFormed', () => {
  it('replaces each lone surrogate with U+FFFD and keeps whole pairs', () => {
    expect(toWellFormed('a\ud83d')).toBe('a\ufffd');
    expect(toWellFormed('\ude00b\ud83d\ude00')).toBe('\ufffdb😀');
    expect(encodeURIComponent(toWellFormed('x\ud800'))).toBe('x%EF%BF%BD');
  });
});
