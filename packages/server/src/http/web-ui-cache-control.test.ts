import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { IMMUTABLE, REVALIDATE, webUiCacheControl } from './web-ui-cache-control';

describe('webUiCacheControl', () => {
  const webDir = path.join(path.sep, 'srv', 'assets', 'oneclaw');
  const at = (...parts: string[]) => webUiCacheControl(webDir, path.join(webDir, ...parts));

  it('a hashed file directly under assets/ is immutable', () => {
    expect(at('assets', 'index-3f9a1c2b.js')).toBe(IMMUTABLE);
    expect(at('assets', 'index-B_x9-kQ2.css')).toBe(IMMUTABLE);
  });

  it('index.html, unhashed files and files outside assets/ are rechecked, even when the web folder lies under a folder named assets', () => {
    expect(at('index.html')).toBe(REVALIDATE);
    expect(at('assets', 'notes.txt')).toBe(REVALIDATE);
    expect(at('favicon-3f9a1c2b.svg')).toBe(REVALIDATE);
    expect(at('assets', 'deeper', 'index-3f9a1c2b.js')).toBe(REVALIDATE);
  });
});
