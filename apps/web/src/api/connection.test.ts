import { describe, expect, test } from '@jest/globals';
import { forgetConnection, loadConnection, normalizeApiBase, saveConnection, tokenFromHash, type ConnectionStorage } from './connection';

function memoryStorage(initial: Record<string, string> = {}): ConnectionStorage & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

describe('S6 connection: token and server address', () => {
  test('a #token= link is read, saved, and removed from the address bar, keeping the route after it', () => {
    const storage = memoryStorage();
    const replaced: string[] = [];
    const connection = loadConnection(storage, { hash: '#token=abc%2Fdef-0123456789&/sessions/s1' }, (hash) => replaced.push(hash));
    expect(connection).toEqual({ token: 'abc/def-0123456789', apiBase: '' });
    expect(storage.items.get('oneclaw.token')).toBe('abc/def-0123456789');
    expect(replaced).toEqual(['#/sessions/s1']);
  });

  test('without a link the saved token and address are used; nothing saved means signed out', () => {
    const replaced: string[] = [];
    expect(loadConnection(memoryStorage(), { hash: '#/groups' }, (h) => replaced.push(h))).toBeUndefined();
    const storage = memoryStorage({ 'oneclaw.token': 't-0123456789abcdef', 'oneclaw.apiBase': 'http://10.0.0.2:3000' });
    expect(loadConnection(storage, { hash: '#/groups' }, (h) => replaced.push(h))).toEqual({ token: 't-0123456789abcdef', apiBase: 'http://10.0.0.2:3000' });
    expect(replaced).toEqual([]);
  });

  test('an empty token in the fragment is dropped, not saved', () => {
    expect(tokenFromHash('#token=&/x')).toEqual({ rest: '#/x' });
    expect(tokenFromHash('#/sessions/a')).toEqual({ rest: '#/sessions/a' });
    expect(tokenFromHash('#token=abc')).toEqual({ token: 'abc', rest: '' });
  });

  test('saving normalizes the address; signing out forgets the token but keeps the address', () => {
    const storage = memoryStorage();
    saveConnection(storage, { token: 'tok-0123456789abcdef', apiBase: 'http://192.168.1.20:3000/' });
    expect(storage.items.get('oneclaw.apiBase')).toBe('http://192.168.1.20:3000');
    forgetConnection(storage);
    expect(storage.items.has('oneclaw.token')).toBe(false);
    expect(storage.items.get('oneclaw.apiBase')).toBe('http://192.168.1.20:3000');
    saveConnection(storage, { token: 'tok-0123456789abcdef', apiBase: '' });
    expect(storage.items.has('oneclaw.apiBase')).toBe(false);
  });

  test('addresses must be http(s) URLs', () => {
    expect(normalizeApiBase('  ')).toBe('');
    expect(normalizeApiBase('https://claw.example.org/oneclaw/')).toBe('https://claw.example.org/oneclaw');
    expect(() => normalizeApiBase('ftp://x')).toThrow('not an http(s) address');
    expect(() => normalizeApiBase('not a url')).toThrow();
  });
});
