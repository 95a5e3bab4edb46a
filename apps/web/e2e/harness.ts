/**
 * Browser end-to-end harness: the real server (its built `dist/main.js`, as `pnpm start` runs
 * it, serving the built UI from its static folder) in a child process, a FAKE OpenAI-compatible
 * model on loopback (scripted replies in the real wire format), and Debian's Chromium driven by
 * playwright-core. Never `npx playwright install`: .ci/run installs the system Chromium.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startFakeModelServer, type FakeModelServer } from '@oneclaw/server/testing';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';
/** Present here, and always in CI (`.ci/run` installs it): there a missing browser fails. */
export const chromiumAvailable = existsSync(SYSTEM_CHROMIUM) || process.env.CI === 'true';
export const CHROMIUM_SKIP_REASON = `skipped: no Chromium at ${SYSTEM_CHROMIUM} (apt-get install chromium to run the browser tests)`;

export const API_TOKEN = 'ui-e2e-token-0123456789abcdef';
export const MODEL_KEY = 'fake-model-key-not-secret';

/** A phone-sized viewport (390 x 844 CSS px, touch), as in the Android shell. */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } as const;
export const DESKTOP = { viewport: { width: 1280, height: 800 } } as const;
/** A large laptop or desktop screen (1440 x 900), for checks that depend on the viewport's size. */
export const WIDE_DESKTOP = { viewport: { width: 1440, height: 900 } } as const;
export type Device = typeof PHONE | typeof DESKTOP | typeof WIDE_DESKTOP;

const SERVER_MAIN = path.join(path.dirname(require.resolve('@oneclaw/server/package.json')), 'dist', 'main.js');
const STATIC_INDEX = path.join(path.dirname(require.resolve('@oneclaw/server/package.json')), 'static', 'index.html');

export interface RunningServer {
  readonly url: string;
  readonly dataDir: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
  /** SIGKILL: the process gets no chance to record anything on the way out (a crash). */
  kill(): Promise<void>;
}

/** Starts `node packages/server/dist/main.js` on a free loopback port and waits until it listens. */
export async function startServerProcess(options: { dataDir: string; env?: Record<string, string> }): Promise<RunningServer> {
  if (!existsSync(STATIC_INDEX)) throw new Error(`The web UI is not built (${STATIC_INDEX} is missing): run pnpm build first.`);
  const child: ChildProcess = spawn(process.execPath, [SERVER_MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      ONECLAW_HOST: '127.0.0.1',
      ONECLAW_DATA_DIR: options.dataDir,
      ONECLAW_API_TOKEN: API_TOKEN,
      ONECLAW_LOG: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The server did not start within 30 s. Output:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The server exited (code ${code}) before listening. Output:\n${output}`));
    });
  });
  return {
    url,
    dataDir: options.dataDir,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * What the browser logs for requests to a server a test stopped or killed: refused, reset, sent on
 * a kept-alive socket the stop closed (SOCKET_NOT_CONNECTED), answered with nothing, or a stream
 * cut mid-way. Tests that stop the server expect these and fail on any other error. Only these
 * console lines: a failed request the app handles logs nothing else, while one it lets reject
 * shows as `pageerror: Cannot reach the server (Failed to fetch). …` (ApiError.network), a bug
 * that no test may filter out.
 */
export const SERVER_DOWN_LOAD_ERROR =
  /^console: Failed to load resource: net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|SOCKET_NOT_CONNECTED|EMPTY_RESPONSE|INCOMPLETE_CHUNKED_ENCODING)$/;

export interface UiHarness {
  readonly fake: FakeModelServer;
  readonly server: RunningServer;
  readonly browser: Browser;
  /**
   * A new browser context (fresh storage) on the UI. With `signedIn` (the default) it opens the
   * link the server prints, `/#token=...`, so the token is saved as a user's first visit would.
   * Page errors (uncaught exceptions, CSP violations) are collected in `errors`. With `fakeClock`
   * the page's timers run on Playwright's clock (installed before the page loads), which a test
   * can pause and move on itself.
   */
  open(options?: { device?: Device; hash?: string; signedIn?: boolean; fakeClock?: boolean }): Promise<{ page: Page; context: BrowserContext; errors: string[] }>;
  /** An authorized JSON request to the server (for setting up state and checking it); throws on a non-2xx answer. */
  api<T = unknown>(method: string, route: string, body?: unknown): Promise<T>;
  /** Stops the server and starts it again on the same data directory and port. */
  restartServer(): Promise<void>;
  /**
   * Kills the server with SIGKILL and starts it again on the same data directory and port: a turn
   * that was running stays open in the store, and the new process closes it as cut off.
   */
  crashServer(): Promise<void>;
  /** Stops the server: until `startServer`, the page's requests get no answer at all (connection refused). */
  stopServer(): Promise<void>;
  /** Starts the stopped server again on the same data directory and port (the same origin). */
  startServer(): Promise<void>;
  close(): Promise<void>;
}

export async function startUiHarness(options: { env?: Record<string, string> } = {}): Promise<UiHarness> {
  const fake = await startFakeModelServer('openai', { apiKey: MODEL_KEY });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-ui-'));
  // One port for the harness's life: a restarted server is the same origin, so the browser
  // keeps its saved token, as it would for a user whose server restarts.
  const port = await freePort();
  const env = { PORT: String(port), ONECLAW_PROVIDER: 'openai', OPENAI_API_KEY: MODEL_KEY, OPENAI_BASE_URL: fake.url, ...options.env };
  let server = await startServerProcess({ dataDir, env });
  const browser = await chromium.launch({
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
  const contexts: BrowserContext[] = [];
  return {
    fake,
    get server() {
      return server;
    },
    browser,
    async open({ device = DESKTOP, hash = '#/', signedIn = true, fakeClock = false } = {}) {
      const context = await browser.newContext({ ...device });
      contexts.push(context);
      if (fakeClock) await context.clock.install();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`console: ${message.text()}`);
      });
      const target = signedIn ? `${server.url}/#token=${API_TOKEN}${hash.startsWith('#/') ? `&${hash.slice(1)}` : ''}` : `${server.url}/${hash}`;
      await page.goto(target);
      return { page, context, errors };
    },
    async api<T>(method: string, route: string, body?: unknown): Promise<T> {
      const response = await fetch(`${server.url}${route}`, {
        method,
        headers: { authorization: `Bearer ${API_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
      return (response.status === 204 ? undefined : await response.json()) as T;
    },
    async restartServer() {
      await server.stop();
      server = await startServerProcess({ dataDir, env });
    },
    async crashServer() {
      await server.kill();
      server = await startServerProcess({ dataDir, env });
    },
    async stopServer() {
      await server.stop();
    },
    async startServer() {
      server = await startServerProcess({ dataDir, env });
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close().catch(() => {});
      await server.stop();
      await fake.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/*
 * Waits for what a step changes, instead of reading it once: a textContent() or getAttribute() right
 * after a click or a notice races the re-render (the read can land before it). Playwright re-resolves
 * the locator and re-checks until the condition holds or its own timeout ends the test.
 */

/** Until the element's text is `expected` (a string: all of it, surrounding whitespace aside; a RegExp: matching). */
export async function waitForText(locator: Locator, expected: string | RegExp): Promise<void> {
  const pattern = typeof expected === 'string' ? new RegExp(`^\\s*${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) : expected;
  await settled(
    locator.filter({ hasText: pattern }),
    () => `the text of ${String(locator)} to be ${String(expected)}`,
    () => locator.textContent(),
  );
}

/** Until the element's attribute `name` is `value`. */
export async function waitForAttribute(locator: Locator, name: string, value: string): Promise<void> {
  await settled(
    locator.and(locator.page().locator(`[${name}="${value}"]`)),
    () => `${name}="${value}" on ${String(locator)}`,
    () => locator.getAttribute(name),
  );
}

/** Until exactly `n` elements match. */
export async function waitForCount(locator: Locator, n: number): Promise<void> {
  await settled(
    locator.nth(n),
    () => `at most ${n} of ${String(locator)}`,
    () => locator.count(),
    'detached',
  );
  if (n > 0)
    await settled(
      locator.nth(n - 1),
      () => `${n} of ${String(locator)}`,
      () => locator.count(),
    );
}

/** What a button showed at one moment: its accessible name (`aria-label`) and its text. */
export interface ShownState {
  readonly label: string | null;
  readonly text: string;
}

let recordings = 0;

/**
 * Records every state (label and text) the elements matching the CSS `selector` take from now on,
 * for a state shown only for a moment, such as a copy button's "Copied" that reverts after 2 s.
 * Waiting by polling can miss such a window on a loaded machine (each poll is a round trip to the
 * browser); a MutationObserver in the page misses none, even if the element is replaced meanwhile.
 * `waitFor` waits until a state with that label (and text, if given) was shown, and otherwise
 * says every state that was.
 */
export async function recordShownStates(page: Page, selector: string): Promise<{ waitFor(expected: { label: string; text?: string }): Promise<void> }> {
  const key = `__oneclawShown${++recordings}`;
  await page.evaluate(
    ({ key, selector }) => {
      const seen: { label: string | null; text: string }[] = [];
      (window as unknown as Record<string, unknown>)[key] = seen;
      const note = (node: Node | null) => {
        const element = node instanceof Element ? node : node?.parentElement;
        const target = element?.closest(selector);
        if (target) seen.push({ label: target.getAttribute('aria-label'), text: target.textContent ?? '' });
      };
      new MutationObserver((mutations) => mutations.forEach((mutation) => note(mutation.target))).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
        attributeFilter: ['aria-label'],
      });
    },
    { key, selector },
  );
  return {
    async waitFor(expected) {
      try {
        await page.waitForFunction(
          ({ key, expected }) =>
            ((window as unknown as Record<string, { label: string | null; text: string }[]>)[key] ?? []).some(
              (state) => state.label === expected.label && (expected.text === undefined || state.text.trim() === expected.text),
            ),
          { key, expected },
        );
      } catch (error) {
        const seen = await page.evaluate((key) => (window as unknown as Record<string, unknown>)[key], key).catch((e: unknown) => `(unreadable: ${(e as Error).message})`);
        throw new Error(`Expected ${selector} to show ${JSON.stringify(expected)}; it showed ${JSON.stringify(seen)}. ${(error as Error).message}`, { cause: error });
      }
    },
  };
}

async function settled(target: Locator, what: () => string, actual: () => Promise<unknown>, state: 'attached' | 'detached' = 'attached'): Promise<void> {
  try {
    await target.waitFor({ state });
  } catch (error) {
    // Say what was there instead, not only that the wait ran out.
    const seen = await actual().catch((e: unknown) => `(unreadable: ${(e as Error).message})`);
    throw new Error(`Expected ${what()}; it was ${JSON.stringify(seen)}. ${(error as Error).message}`, { cause: error });
  }
}

/** The axe-core check for every screen (`accessibility-check.ts`): `await expectAccessible(page, 'chat, phone')`. */
export { accessibilityViolations, expectAccessible, type AccessibilityViolation } from './accessibility-check';

/**
 * Starts a session as a user does: "New session" in the session list (the sidebar on a desktop;
 * on a phone open the drawer first) opens the draft (#/new), and the first message creates the
 * session and is sent into it. Enqueue the FAKE model's reply before. Resolves with the new
 * session's id once the page shows that session (its own audit link, not the previous page's).
 */
export async function startSession(page: Page, firstMessage: string): Promise<string> {
  await page.getByRole('complementary', { name: 'Sessions' }).getByRole('link', { name: 'New session' }).click();
  await page.waitForURL((url) => url.hash === '#/new');
  await page.getByRole('heading', { level: 1, name: 'New session' }).waitFor();
  const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/sessions');
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(firstMessage);
  await box.press('Enter');
  const { sessionId } = (await (await created).json()) as { sessionId: string };
  await page.waitForURL((url) => url.hash === `#/sessions/${encodeURIComponent(sessionId)}`);
  await page.locator(`a[href="#/sessions/${encodeURIComponent(sessionId)}/audit"]`).waitFor();
  return sessionId;
}
