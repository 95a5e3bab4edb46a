/**
 * The app's own pages (launcher, offline page) and both UIs, in Debian's Chromium against a real
 * OneClaw server process. Chromium stands in for Android's WebView (the same engine); the www/
 * folder is served as Capacitor's local server serves it, at a "localhost" origin like the app's
 * https://localhost. What only the native side does is out of reach here and named where it
 * matters: Capacitor loading offline.html on a failed page load is emulated (see
 * emulateCapacitorErrorPath), and keeping the server's pages inside the WebView is native.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { API_TOKEN, CHROMIUM_SKIP_REASON, PHONE, SYSTEM_CHROMIUM, chromiumAvailable, startServerProcess, type RunningServer } from '../../web/e2e/harness';
import { startWwwServer, type WwwServer } from './www-server';

const describeUi = chromiumAvailable ? describe : describe.skip;
jest.setTimeout(60_000);

/** Where @capacitor/preferences' web implementation keeps the launcher's settings in a browser. */
const PREF_MODE = 'CapacitorStorage.oneclaw.shell.mode';
const PREF_SERVER_URL = 'CapacitorStorage.oneclaw.shell.serverUrl';

async function unusedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * What BridgeWebViewClient does when `server.errorPath` is set: a main-frame load that fails
 * (onReceivedError) or answers an HTTP error (onReceivedHttpError) is replaced by
 * `<app origin>/offline.html`. Chromium has no such hook, so the test adds it.
 */
function emulateCapacitorErrorPath(page: Page, appOrigin: string): void {
  const showErrorPage = () => void page.goto(`${appOrigin}/offline.html`).catch(() => {});
  page.on('requestfailed', (request) => {
    // ERR_ABORTED is a navigation replaced by another one, not a failure the WebView reports.
    if (request.isNavigationRequest() && request.frame() === page.mainFrame() && !request.failure()?.errorText.includes('ERR_ABORTED')) showErrorPage();
  });
  page.on('response', (response) => {
    const request = response.request();
    if (request.isNavigationRequest() && request.frame() === page.mainFrame() && response.status() >= 400) showErrorPage();
  });
}

describeUi(chromiumAvailable ? 'S7 launcher and offline pages (Chromium, real server)' : CHROMIUM_SKIP_REASON, () => {
  let www: WwwServer;
  let server: RunningServer;
  let browser: Browser;
  let dataDir: string;
  /** The app's origin in these tests; "localhost" as in the app (the web UI checks the name). */
  let app: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    www = await startWwwServer();
    app = `http://localhost:${www.port}`;
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-shell-'));
    // Only the app's origin may call the API cross-origin, as docs/android.md tells operators
    // (there: https://localhost).
    server = await startServerProcess({ dataDir, env: { PORT: '0', ONECLAW_CORS_ORIGINS: app } });
    browser = await chromium.launch({
      executablePath: SYSTEM_CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    });
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close().catch(() => {});
    await server?.stop();
    await www?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** A fresh context is a fresh install: no saved settings, no tokens. */
  async function freshApp(options: { origin?: string } = {}) {
    const context = await browser.newContext({ ...PHONE });
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    await page.goto(`${options.origin ?? app}/`);
    return { context, page, errors };
  }

  async function connect(page: Page, fields: { address: string; token?: string; mode: 'server' | 'bundled' }) {
    await page.getByLabel('Server address').fill(fields.address);
    if (fields.token !== undefined) await page.getByLabel('API token').fill(fields.token);
    await page.getByRole('radio', { name: fields.mode === 'server' ? "The server's own UI" : 'The UI bundled in this app' }).check();
    await page.getByRole('button', { name: 'Connect' }).click();
  }

  const setupForm = (page: Page) => page.getByRole('form', { name: 'Connect to your OneClaw server' });
  const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
  const onServer = (url: URL) => url.origin === server.url;

  /** The launcher's saved settings and every value it keeps, read on the app's origin. */
  async function appStorage(context: BrowserContext): Promise<Record<string, string>> {
    const page = await context.newPage();
    await page.goto(`${app}/offline.html`);
    const values = await page.evaluate(() => ({ ...window.localStorage }));
    await page.close();
    return values;
  }

  test("first start shows the setup form, with the server's own UI preselected", async () => {
    const { page, errors } = await freshApp();
    await setupForm(page).waitFor();
    await expect(page.getByRole('radio', { name: "The server's own UI" }).isChecked()).resolves.toBe(true);
    // The bundled choice names the origin the server must allow.
    await expect(page.locator('#app-origin').textContent()).resolves.toBe(app);
    expect(errors).toEqual([]);
  });

  test('an address that is not http(s) is refused on the form and nothing is saved', async () => {
    const { page, context } = await freshApp();
    await connect(page, { address: 'ftp://192.168.1.20', token: API_TOKEN, mode: 'server' });
    await expect(page.getByRole('alert').textContent()).resolves.toContain('http:// or https://');
    await expect(page.getByLabel('Server address').getAttribute('aria-invalid')).resolves.toBe('true');
    expect(new URL(page.url()).origin).toBe(app);
    expect(await appStorage(context)).toEqual({});
  });

  test("server's own UI: address and token open it signed in; the token leaves the address bar and the launcher keeps no copy", async () => {
    const { page, context, errors } = await freshApp();
    await connect(page, { address: server.url, token: API_TOKEN, mode: 'server' });
    await page.waitForURL(onServer);
    await mainNav(page).waitFor();
    expect(new URL(page.url()).hash).not.toContain('token');
    const saved = await appStorage(context);
    expect(saved).toEqual({ [PREF_MODE]: 'server', [PREF_SERVER_URL]: server.url });
    expect(JSON.stringify(saved)).not.toContain(API_TOKEN);
    expect(errors).toEqual([]);
  });

  test('a later start opens the saved server directly, signed in, without sending the token again', async () => {
    const { page, context } = await freshApp();
    await connect(page, { address: server.url, token: API_TOKEN, mode: 'server' });
    await mainNav(page).waitFor();

    // The next start of the app: the launcher opens the server without asking, and the server's
    // UI is still signed in from its own storage.
    const next = await context.newPage();
    const navigations: string[] = [];
    next.on('request', (request) => {
      if (request.isNavigationRequest()) navigations.push(request.url());
    });
    await next.goto(`${app}/`);
    await next.waitForURL(onServer);
    await mainNav(next).waitFor();
    expect(navigations).toEqual([`${app}/`, `${server.url}/`]);
    expect(new URL(next.url()).hash).not.toContain('token');
  });

  test('Back from the UI after setting it up returns to the form, which stays (no bounce forward)', async () => {
    // After a setup the launcher is in the history (the user tapped Connect there). On later
    // starts it opens the UI without a gesture, Chromium's back button skips it, and the app's
    // native Back handler opens index.html?change instead (MainActivity.java; not testable here).
    const { page } = await freshApp();
    await connect(page, { address: server.url, token: API_TOKEN, mode: 'server' });
    await mainNav(page).waitFor();
    for (let step = 0; step < 5 && new URL(page.url()).origin !== app; step++) await page.goBack();
    await setupForm(page).waitFor();
    expect(new URL(page.url()).origin).toBe(app);
    await expect(page.getByLabel('Server address').inputValue()).resolves.toBe(server.url);
    await expect(page.getByRole('radio', { name: "The server's own UI" }).isChecked()).resolves.toBe(true);
  });

  test("the UI bundled in the app: signed in against the server, remembered, and switchable back to the server's UI", async () => {
    const { page, context, errors } = await freshApp();
    // A call made by the bundled UI itself (not the launcher's check before it opens).
    const uiCall = page.waitForRequest((request) => request.url().startsWith(`${server.url}/api/`) && request.frame().url().startsWith(`${app}/ui/`));
    await connect(page, { address: server.url, token: API_TOKEN, mode: 'bundled' });
    // By file name: Capacitor would answer "ui/" with the launcher (the server mimics that).
    await page.waitForURL(`${app}/ui/index.html`);
    await mainNav(page).waitFor();
    await uiCall;
    expect(await appStorage(context)).toMatchObject({ [PREF_MODE]: 'bundled', [PREF_SERVER_URL]: server.url, 'oneclaw.apiBase': server.url, 'oneclaw.token': API_TOKEN });

    const next = await context.newPage();
    await next.goto(`${app}/`);
    await next.waitForURL(`${app}/ui/index.html`);
    await mainNav(next).waitFor();

    // Changing the choice: ?change is what the offline page's "Change server" opens.
    await next.goto(`${app}/index.html?change`);
    await setupForm(next).waitFor();
    await expect(next.getByRole('radio', { name: 'The UI bundled in this app' }).isChecked()).resolves.toBe(true);
    await expect(next.getByLabel('Server address').inputValue()).resolves.toBe(server.url);
    // No token: this server's own UI has none in this install yet, so it asks for it itself.
    await connect(next, { address: server.url, mode: 'server' });
    await next.waitForURL(onServer);
    await next.getByRole('heading', { name: 'Connect to OneClaw' }).waitFor();
    await next.getByLabel('API token').fill(API_TOKEN);
    await next.getByRole('button', { name: 'Connect' }).click();
    await mainNav(next).waitFor();
    expect(await appStorage(context)).toMatchObject({ [PREF_MODE]: 'server' });
    expect(errors).toEqual([]);
  });

  test('the bundled UI with a wrong token: refused on the form, nothing saved', async () => {
    const { page, context } = await freshApp();
    await connect(page, { address: server.url, token: 'wrong-token-0123456789', mode: 'bundled' });
    await expect(page.getByRole('alert').textContent()).resolves.toContain('refused this token');
    expect(new URL(page.url()).origin).toBe(app);
    expect(await appStorage(context)).toEqual({});
  });

  test('the bundled UI from an origin the server does not allow: the message names the CORS setting for this origin', async () => {
    const other = `http://127.0.0.1:${www.port}`;
    const { page } = await freshApp({ origin: other });
    await connect(page, { address: server.url, token: API_TOKEN, mode: 'bundled' });
    await expect(page.getByRole('alert').textContent()).resolves.toContain(`ONECLAW_CORS_ORIGINS=${other}`);
    expect(new URL(page.url()).origin).toBe(other);
  });

  test('an unreachable server shows the offline page (Capacitor errorPath, emulated); Try again retries it; Change server opens the form', async () => {
    const { page, errors } = await freshApp();
    emulateCapacitorErrorPath(page, app);
    const dead = `http://127.0.0.1:${await unusedPort()}`;
    const attempts: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.url().startsWith(dead)) attempts.push(request.url());
    });

    await connect(page, { address: dead, token: API_TOKEN, mode: 'server' });
    await page.getByRole('heading', { name: "Can't reach the OneClaw server" }).waitFor();
    // The page names the saved server once it has read the settings.
    await page.locator('#server-url', { hasText: dead }).waitFor();
    expect(attempts).toHaveLength(1);

    const retried = page.waitForRequest((request) => request.isNavigationRequest() && request.url().startsWith(dead));
    await page.getByRole('button', { name: 'Try again' }).click();
    await retried;
    expect(attempts).toHaveLength(2);
    // The saved server's root, as a later start opens it.
    expect(attempts[1]).toBe(`${dead}/`);
    await page.waitForURL(`${app}/offline.html`);
    await page.getByRole('heading', { name: "Can't reach the OneClaw server" }).waitFor();

    await page.getByRole('button', { name: 'Change server' }).click();
    await setupForm(page).waitFor();
    await expect(page.getByLabel('Server address').inputValue()).resolves.toBe(dead);
    expect(errors).toEqual([]);
  });

  test('pasting the link the server prints fills the token field, and it signs in', async () => {
    const { page } = await freshApp();
    await page.getByLabel('Server address').fill(`${server.url}/#token=${encodeURIComponent(API_TOKEN)}`);
    await page.getByLabel('Server address').blur();
    await expect(page.getByLabel('API token').inputValue()).resolves.toBe(API_TOKEN);
    await expect(page.getByLabel('Server address').inputValue()).resolves.toBe(server.url);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.waitForURL(onServer);
    await mainNav(page).waitFor();
  });
});
