import { describe, expect, test } from '@jest/globals';
import {
  BUNDLED_UI_PATH,
  PREF_MODE,
  PREF_SERVER_URL,
  ShellInputError,
  WEB_UI_API_BASE_KEY,
  WEB_UI_TOKEN_KEY,
  checkBundledConnection,
  parseServerAddress,
  serverEntryUrl,
  settingsStore,
  signInBundledUi,
  startAction,
  validateToken,
} from '../launcher/shell-settings.js';

const TOKEN = 'abcdefghijklmnop0123';

function inputError(run: () => unknown): ShellInputError {
  try {
    run();
  } catch (error) {
    if (error instanceof ShellInputError) return error;
    throw error;
  }
  throw new Error('expected a ShellInputError');
}

describe('parseServerAddress', () => {
  test.each([
    ['http://192.168.1.20:3000', 'http://192.168.1.20:3000'],
    ['  http://192.168.1.20:3000/  ', 'http://192.168.1.20:3000'],
    ['192.168.1.20:3000', 'http://192.168.1.20:3000'],
    ['localhost:3000', 'http://localhost:3000'],
    ['HTTPS://OneClaw.Example.org', 'https://oneclaw.example.org'],
    ['https://example.org/oneclaw//', 'https://example.org/oneclaw'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
    ['http://10.0.2.2:3000/#/settings', 'http://10.0.2.2:3000'],
  ])('%s -> %s', (raw, base) => {
    expect(parseServerAddress(raw)).toEqual({ base });
  });

  test('the sign-in link the server prints gives the address and its token', () => {
    expect(parseServerAddress(`http://192.168.1.20:3000/#token=${encodeURIComponent('tok/en+with=chars!')}`)).toEqual({
      base: 'http://192.168.1.20:3000',
      token: 'tok/en+with=chars!',
    });
  });

  test.each([
    ['', 'Enter the server address'],
    ['   ', 'Enter the server address'],
    ['ftp://example.org', 'http:// or https://'],
    ['javascript:alert(1)', 'not a valid address'],
    ['http://', 'not a valid address'],
    ['http://user:secret@example.org', 'user name and password'],
    ['http://example.org/?x=1', '"?..."'],
    ['http://exa mple.org', 'not a valid address'],
  ])('%j is refused (%s)', (raw, message) => {
    const error = inputError(() => parseServerAddress(raw));
    expect(error.field).toBe('address');
    expect(error.message).toContain(message);
  });
});

describe('validateToken', () => {
  test('the bundled UI needs a token; the server UI may do without', () => {
    expect(inputError(() => validateToken('  ', 'bundled')).field).toBe('token');
    expect(validateToken('  ', 'server')).toBeUndefined();
  });

  test('a token follows the server rule: 16+ visible characters, no spaces', () => {
    expect(validateToken(`  ${TOKEN} `, 'bundled')).toBe(TOKEN);
    expect(inputError(() => validateToken('short-token', 'server')).message).toContain('at least 16');
    expect(inputError(() => validateToken('sixteen chars with spaces', 'bundled')).field).toBe('token');
  });
});

describe('serverEntryUrl', () => {
  test('carries the token in the fragment, encoded, or no fragment at all', () => {
    expect(serverEntryUrl('http://h:3000', 'a&b#c')).toBe('http://h:3000/#token=a%26b%23c');
    expect(serverEntryUrl('https://h/oneclaw', undefined)).toBe('https://h/oneclaw/');
  });
});

describe('startAction', () => {
  const server = { mode: 'server' as const, serverUrl: 'http://h:3000' };
  const bundled = { mode: 'bundled' as const, serverUrl: 'http://h:3000' };

  test('first start, ?change and Back show the form', () => {
    expect(startAction({ settings: undefined, search: '', cameBack: false })).toEqual({ kind: 'form' });
    expect(startAction({ settings: server, search: '?change', cameBack: false })).toEqual({ kind: 'form' });
    expect(startAction({ settings: server, search: '', cameBack: true })).toEqual({ kind: 'form' });
  });

  test('a saved choice opens the server (without a token) or the bundled UI by its file name', () => {
    expect(startAction({ settings: server, search: '', cameBack: false })).toEqual({ kind: 'open', url: 'http://h:3000/' });
    expect(startAction({ settings: bundled, search: '', cameBack: false })).toEqual({ kind: 'open', url: 'ui/index.html' });
    // Capacitor answers an extension-less path such as "ui/" with the root index.html (the launcher).
    expect(BUNDLED_UI_PATH).toMatch(/\.html$/);
  });
});

/** @capacitor/preferences' API over a Map, recording the order of writes. */
function fakePreferences(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  const writes: string[] = [];
  return {
    values,
    writes,
    api: {
      get: async ({ key }: { key: string }) => ({ value: values.get(key) ?? null }),
      set: async ({ key, value }: { key: string; value: string }) => {
        writes.push(key);
        values.set(key, value);
      },
      remove: async ({ key }: { key: string }) => {
        values.delete(key);
      },
    },
  };
}

describe('settingsStore', () => {
  test('nothing saved, or something unusable, reads as no settings', async () => {
    await expect(settingsStore(fakePreferences().api).load()).resolves.toBeUndefined();
    await expect(settingsStore(fakePreferences({ [PREF_MODE]: 'server' }).api).load()).resolves.toBeUndefined();
    await expect(settingsStore(fakePreferences({ [PREF_MODE]: 'other', [PREF_SERVER_URL]: 'http://h' }).api).load()).resolves.toBeUndefined();
  });

  test('saves and reads back; the address is written before the mode the native rule checks', async () => {
    const prefs = fakePreferences();
    const store = settingsStore(prefs.api);
    await store.save({ mode: 'server', serverUrl: 'http://h:3000' });
    await expect(store.load()).resolves.toEqual({ mode: 'server', serverUrl: 'http://h:3000' });
    expect(prefs.writes).toEqual([PREF_SERVER_URL, PREF_MODE]);
    expect([...prefs.values.keys()].sort()).toEqual([PREF_MODE, PREF_SERVER_URL].sort());
  });
});

describe('checkBundledConnection', () => {
  const origin = 'https://localhost';

  test('asks the sessions endpoint with the token, as the bundled UI will', async () => {
    const calls: Array<[string, RequestInit | undefined]> = [];
    const fetchFn = (async (url: string, init?: RequestInit) => {
      calls.push([url, init]);
      return new Response('[]', { status: 200 });
    }) as unknown as typeof fetch;
    await expect(checkBundledConnection(fetchFn, 'http://h:3000', TOKEN, origin)).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.[0]).toBe('http://h:3000/api/sessions');
    expect((calls[0]?.[1]?.headers as Record<string, string>).Authorization).toBe(`Bearer ${TOKEN}`);
  });

  test('a network failure names both causes and the exact CORS setting', async () => {
    const fetchFn = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    const result = await checkBundledConnection(fetchFn, 'http://h:3000', TOKEN, origin);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain('ONECLAW_CORS_ORIGINS=https://localhost');
    expect(!result.ok && result.message).toContain('ONECLAW_HOST=0.0.0.0');
  });

  test('401 says the token was refused; other statuses are named', async () => {
    const status = (code: number) => (async () => new Response('', { status: code })) as unknown as typeof fetch;
    const refused = await checkBundledConnection(status(401), 'http://h', TOKEN, origin);
    expect(!refused.ok && refused.message).toContain('refused this token');
    const missing = await checkBundledConnection(status(404), 'http://h', TOKEN, origin);
    expect(!missing.ok && missing.message).toContain('404');
  });
});

test('signInBundledUi writes the keys the web UI reads', () => {
  const values = new Map<string, string>();
  signInBundledUi({ getItem: (k) => values.get(k) ?? null, setItem: (k, v) => void values.set(k, v) }, 'http://h:3000', TOKEN);
  expect(Object.fromEntries(values)).toEqual({ [WEB_UI_API_BASE_KEY]: 'http://h:3000', [WEB_UI_TOKEN_KEY]: TOKEN });
});
