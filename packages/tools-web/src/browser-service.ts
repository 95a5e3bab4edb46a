import { OneClawError } from '@oneclaw/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEFAULT_BROWSER_PATHS, findBrowserExecutable } from './browser-executable';

/**
 * Headless flags that work in containers and on small machines (STACK.md, "Playwright launch"),
 * plus: WebRTC may not bypass the proxy with UDP (the proxy is where the SSRF policy lives).
 */
export const BROWSER_LAUNCH_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** The only environment Chromium gets: the server's secrets (API keys, ONECLAW_ENV_*) stay in the server. */
const BROWSER_ENV_NAMES = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'FONTCONFIG_PATH', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME'];

export const DEFAULT_BROWSER_IDLE_CLOSE_MS = 5 * 60_000;

export interface BrowserServiceOptions {
  /** ONECLAW_BROWSER_PATH; undefined = the first of `candidates` that exists. */
  readonly executablePath?: string;
  readonly candidates?: readonly string[];
  /** Chromium is closed after this long without a call (default 5 minutes); 0 keeps it until close(). */
  readonly idleCloseMs?: number;
}

/** One browser call's page: a fresh context (no cookies, storage or cache from other calls). */
export interface PageOptions {
  readonly width: number;
  readonly height: number;
  /** Phone emulation: meta viewport honoured, touch events. */
  readonly mobile: boolean;
  readonly userAgent: string;
  /** Every connection of the context goes through this proxy (the policy proxy). */
  readonly proxyUrl: string;
  /** Aborting it (the call's timeout) closes the context, which ends whatever the page is doing. */
  readonly signal: AbortSignal;
}

/**
 * The system Chromium, driven by playwright-core. One browser process is launched on the first
 * call and shared (a launch costs about half a second); each call gets its own context, so calls
 * see nothing of each other. Playwright gives each launch a fresh temporary profile and deletes it
 * on close. Chromium is closed after a quiet spell and when the tool runtime closes, and launched
 * again on demand, also after a crash.
 */
export class BrowserService {
  #launching: Promise<Browser> | undefined;
  #active = 0;
  #idleTimer: NodeJS.Timeout | undefined;
  #closed = false;
  private readonly idleCloseMs: number;

  constructor(private readonly options: BrowserServiceOptions = {}) {
    this.idleCloseMs = options.idleCloseMs ?? DEFAULT_BROWSER_IDLE_CLOSE_MS;
  }

  /** True while a Chromium process is running or starting. */
  get running(): boolean {
    return this.#launching !== undefined;
  }

  async withPage<T>(options: PageOptions, work: (page: Page) => Promise<T>): Promise<T> {
    if (this.#closed) throw new OneClawError('browser_unavailable', 'The server is shutting down; the browser cannot be used now.');
    const executablePath = findBrowserExecutable(this.options.executablePath, this.options.candidates ?? DEFAULT_BROWSER_PATHS);
    this.#acquire();
    let context: BrowserContext | undefined;
    const onAbort = (): void => void context?.close().catch(() => undefined);
    options.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const browser = await this.#browser(executablePath);
      context = await browser.newContext({
        // <-loopback>: Chromium would otherwise connect to localhost itself, bypassing the proxy.
        proxy: { server: options.proxyUrl, bypass: '<-loopback>' },
        viewport: { width: options.width, height: options.height },
        screen: { width: options.width, height: options.height },
        deviceScaleFactor: 1,
        isMobile: options.mobile,
        hasTouch: options.mobile,
        userAgent: options.userAgent,
        locale: 'en-US',
        // A service worker's requests are not the page's; blocking them keeps every request visible.
        serviceWorkers: 'block',
        acceptDownloads: false,
      });
      if (options.signal.aborted) throw abortedError(options.signal);
      const page = await context.newPage();
      return await work(page);
    } finally {
      options.signal.removeEventListener('abort', onAbort);
      await context?.close().catch(() => undefined);
      this.#release();
    }
  }

  /** Closes Chromium (ToolRuntime.close); later calls answer browser_unavailable. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#idleTimer);
    await this.#closeBrowser();
  }

  #browser(executablePath: string): Promise<Browser> {
    if (this.#launching) return this.#launching;
    // playwright-core takes ~0.4 s to load: loaded on the first browser call, not at server start.
    const { chromium } = require('playwright-core') as typeof import('playwright-core');
    const launching: Promise<Browser> = chromium
      .launch({
        executablePath,
        headless: true,
        args: [...BROWSER_LAUNCH_ARGS],
        env: browserEnv(),
        timeout: 30_000,
        // The server decides when to stop; Playwright must not install its own signal handlers.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      })
      .then(
        (browser) => {
          browser.on('disconnected', () => {
            if (this.#launching === launching) this.#launching = undefined;
          });
          return browser;
        },
        (error: unknown) => {
          if (this.#launching === launching) this.#launching = undefined;
          throw new OneClawError(
            'browser_launch_failed',
            `The browser at ${executablePath} could not be started (${firstLine(error)}). ` +
              'Ask the operator to check that it is a working Chromium or Chrome (set ONECLAW_BROWSER_PATH to another one if not). ' +
              'Until then, use webfetch to read pages.',
          );
        },
      );
    this.#launching = launching;
    return launching;
  }

  async #closeBrowser(): Promise<void> {
    const launching = this.#launching;
    this.#launching = undefined;
    const browser = await launching?.catch(() => undefined);
    await browser?.close().catch(() => undefined);
  }

  #acquire(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    this.#active += 1;
  }

  #release(): void {
    this.#active -= 1;
    if (this.#active > 0 || this.idleCloseMs <= 0 || this.#closed) return;
    this.#idleTimer = setTimeout(() => {
      if (this.#active === 0) void this.#closeBrowser();
    }, this.idleCloseMs);
    this.#idleTimer.unref();
  }
}

function browserEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of BROWSER_ENV_NAMES) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

function abortedError(signal: AbortSignal): OneClawError {
  const reason = signal.reason as { name?: unknown } | undefined;
  return reason?.name === 'TimeoutError'
    ? new OneClawError('timeout', 'The browser call ran out of time before the page was opened; retry.')
    : new OneClawError('cancelled', 'The browser call was cancelled.');
}

/** Playwright's messages carry a call log after the first line; the model needs only the gist. */
export function firstLine(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  const text = typeof message === 'string' ? message : String(error);
  return (text.split('\n').find((line) => line.trim() !== '') ?? text).trim();
}
