import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { OneClawError } from '@oneclaw/core';
import { ConfinedFs } from '@oneclaw/js-tools';
import { builtinTool, MAX_ANSWER_CHARS, type Tool } from '@oneclaw/tool-registry';
import type { Page } from 'playwright-core';
import { firstLine, type BrowserService } from './browser-service';
import { cutAtParagraph } from './cut-at-paragraph';
import { htmlToMarkdown } from './html-to-markdown';
import { BLOCKED_HEADER, FAILED_HEADER, PolicyProxy } from './policy-proxy';
import { DESKTOP_CHROME_USER_AGENT, MOBILE_CHROME_USER_AGENT } from './user-agents';
import { checkWebTarget, type WebPolicy } from './web-target';
import { parseWebUrl } from './web-url';

type Mode = 'screenshot' | 'extract';

interface BrowserParams {
  readonly url: string;
  readonly mode: Mode;
  readonly width?: number;
  readonly height?: number;
  readonly wait_seconds?: number;
  readonly full_page?: boolean;
  readonly max_length?: number;
  readonly start_index?: number;
  readonly javascript?: string;
}

export interface BrowserToolOptions {
  readonly browser: BrowserService;
  /** The tools' fetch policy (the same one webfetch uses). */
  readonly policy: WebPolicy;
  /** Screenshots are written under this root (paths.files), in `screenshots/`. */
  readonly filesRoot: string;
  /** Step limits; tests shorten them. */
  readonly limits?: Partial<BrowserStepLimits>;
}

/** How long each step may take, inside the engine's 60 s, so each fails with its own clear message first. */
export interface BrowserStepLimits {
  readonly callMs: number;
  readonly navigationMs: number;
  /** Waiting for the load event after the DOM is ready; a page that never fires it is used as it is. */
  readonly loadEventMs: number;
  readonly scriptMs: number;
  /** Kept free after the wait for the script and the capture. */
  readonly captureReserveMs: number;
}

export const BROWSER_STEP_LIMITS: BrowserStepLimits = {
  callMs: 55_000,
  navigationMs: 30_000,
  loadEventMs: 10_000,
  scriptMs: 15_000,
  captureReserveMs: 10_000,
};

export const BROWSER_DEFAULTS = { width: 412, height: 915, waitSeconds: 2, maxLength: 50_000 } as const;
export const BROWSER_LIMITS = { width: [200, 2560], height: [200, 4096], waitSeconds: [0, 30] } as const;
/** Viewports up to this width are phones and small tablets: mobile emulation and a mobile User-Agent. */
const MOBILE_MAX_WIDTH = 800;
export const SCREENSHOT_FOLDER = 'screenshots';
const MAX_SCREENSHOT_BYTES = 50 * 1024 * 1024;
export const SCRIPT_RESULT_CHARS = 10_000;

/**
 * `browser`: opens a page in the system Chromium, lets its JavaScript run, and returns a screenshot
 * (a PNG in the files folder) or its rendered content as Markdown. Every connection the page makes
 * goes through a PolicyProxy enforcing the tools' SSRF policy.
 */
export function createBrowserTool(options: BrowserToolOptions): Tool {
  const files = new ConfinedFs({ root: options.filesRoot, maxWriteBytes: MAX_SCREENSHOT_BYTES });
  const limits: BrowserStepLimits = { ...BROWSER_STEP_LIMITS, ...options.limits };
  return builtinTool<BrowserParams>(
    {
      name: 'browser',
      description: 'Open a URL in a headless browser (runs JavaScript): save a PNG screenshot to the files folder, or extract the page as Markdown.',
      parameters: {
        type: 'object',
        properties: {
          url: { type: 'string' },
          mode: { type: 'string', enum: ['screenshot', 'extract'] },
          width: { type: 'integer', description: `px, ${BROWSER_LIMITS.width[0]}-${BROWSER_LIMITS.width[1]}, default ${BROWSER_DEFAULTS.width}` },
          height: { type: 'integer', description: `px, ${BROWSER_LIMITS.height[0]}-${BROWSER_LIMITS.height[1]}, default ${BROWSER_DEFAULTS.height}` },
          wait_seconds: { type: 'number', description: `after load, 0-30, default ${BROWSER_DEFAULTS.waitSeconds}` },
          full_page: { type: 'boolean', description: 'whole scrollable page' },
          max_length: {
            type: 'integer',
            minimum: 100,
            maximum: 1_000_000,
            description: `extract: max ${MAX_ANSWER_CHARS} per call`,
          },
          start_index: { type: 'integer', minimum: 0, description: 'extract: offset to read on' },
          javascript: {
            type: 'string',
            description: 'run in the page first; its result is returned',
          },
        },
        required: ['url', 'mode'],
      },
      timeoutMs: 60_000,
    },
    async (params, context) => {
      const url = parseWebUrl(params.url);
      const view = browserView(params);
      const verdict = await checkWebTarget(url, options.policy);
      if (!verdict.allowed) {
        throw new OneClawError(verdict.code === 'unresolvable' ? 'navigation_failed' : verdict.code, verdict.reason);
      }
      const proxy = await PolicyProxy.start(options.policy);
      try {
        return await options.browser.withPage(
          { width: view.width, height: view.height, mobile: view.mobile, userAgent: view.userAgent, proxyUrl: proxy.url, signal: context.signal },
          (page) => visit(page, { url, params, view, proxy, files, limits, signal: context.signal, redact: context.redact ?? ((text) => text) }),
        );
      } finally {
        await proxy.close();
      }
    },
  );
}

interface View {
  readonly width: number;
  readonly height: number;
  readonly waitMs: number;
  readonly mobile: boolean;
  readonly userAgent: string;
  /** Which parameters were out of range and what was used instead. */
  readonly notes: readonly string[];
}

/** The viewport and wait of a call, parameters clamped to their ranges (and noted when they were). */
export function browserView(params: BrowserParams): View {
  const notes: string[] = [];
  const clamp = (name: string, value: number, [min, max]: readonly [number, number]): number => {
    const used = Math.min(max, Math.max(min, value));
    if (used !== value) notes.push(`${name} ${value} is outside ${min}-${max}; used ${used}.`);
    return used;
  };
  const width = clamp('width', params.width ?? BROWSER_DEFAULTS.width, BROWSER_LIMITS.width);
  const height = clamp('height', params.height ?? BROWSER_DEFAULTS.height, BROWSER_LIMITS.height);
  const waitSeconds = clamp('wait_seconds', params.wait_seconds ?? BROWSER_DEFAULTS.waitSeconds, BROWSER_LIMITS.waitSeconds);
  const mobile = width <= MOBILE_MAX_WIDTH;
  return { width, height, waitMs: Math.round(waitSeconds * 1000), mobile, userAgent: mobile ? MOBILE_CHROME_USER_AGENT : DESKTOP_CHROME_USER_AGENT, notes };
}

interface Visit {
  readonly url: URL;
  readonly params: BrowserParams;
  readonly view: View;
  readonly proxy: PolicyProxy;
  readonly files: ConfinedFs;
  readonly limits: BrowserStepLimits;
  readonly signal: AbortSignal;
  /** Runs before every cut (ToolContext.redact): the page's window and the script's value. */
  readonly redact: (text: string) => string;
}

async function visit(page: Page, { url, params, view, proxy, files, limits, signal, redact }: Visit): Promise<string> {
  const budget = new Budget(limits.callMs);
  const notes = [...view.notes];
  await navigate(page, url, proxy, budget.cap(limits.navigationMs));
  // Pages with endless requests (ads, long polling) never fire "load"; what has rendered is still usable.
  await page.waitForLoadState('load', { timeout: budget.cap(limits.loadEventMs) }).catch(() => undefined);
  const waitMs = Math.min(view.waitMs, Math.max(0, budget.remaining() - limits.captureReserveMs));
  if (waitMs < view.waitMs) notes.push(`Waited ${(waitMs / 1000).toFixed(1)} s instead of ${view.waitMs / 1000} s: the page took long to load.`);
  if (waitMs > 0) await sleep(waitMs, undefined, { signal });
  const script = params.javascript !== undefined && params.javascript.trim() !== '' ? await runScript(page, params.javascript, budget.cap(limits.scriptMs), redact) : undefined;

  const lines: string[] = [];
  let body: string | undefined;
  if (params.mode === 'screenshot') {
    lines.push(await screenshot(page, url, params.full_page ?? false, budget.cap(budget.remaining()), files));
  } else {
    const { markdown } = htmlToMarkdown(await page.content(), page.url());
    body =
      markdown.trim() === ''
        ? '(The page shows no text. Try mode "screenshot" to see it.)'
        : cutAtParagraph(redact(markdown), { start: params.start_index ?? 0, maxLength: params.max_length ?? BROWSER_DEFAULTS.maxLength, tool: 'browser' });
  }
  lines.push(`URL: ${page.url()}`);
  const title = await page.title().catch(() => '');
  if (title.trim() !== '') lines.push(`Title: ${title.trim()}`);
  if (script !== undefined) lines.push(`JavaScript result: ${script}`);
  lines.push(...blockedSummary(proxy), ...notes);
  return body === undefined ? lines.join('\n') : `${lines.join('\n')}\n\n${body}`;
}

async function navigate(page: Page, url: URL, proxy: PolicyProxy, timeoutMs: number): Promise<void> {
  let response;
  try {
    response = await page.goto(url.href, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
  } catch (error) {
    if ((error as { name?: unknown }).name === 'TimeoutError') {
      throw new OneClawError('timeout', `${url.origin} did not load within ${Math.round(timeoutMs / 1000)} s; retry later or try webfetch.`);
    }
    throw refusedOrFailed(proxy) ?? new OneClawError('navigation_failed', `Opening ${url.href} failed: ${firstLine(error).replace(/^page\.goto: /, '')}.`);
  }
  if (!response) return;
  const headers = response.headers();
  if (headers[BLOCKED_HEADER] !== undefined || headers[FAILED_HEADER] !== undefined) {
    const known = refusedOrFailed(proxy);
    if (known) throw known;
  }
  if (response.status() >= 400) {
    const status = `${response.status()}${response.statusText() ? ` ${response.statusText()}` : ''}`;
    throw new OneClawError('navigation_failed', `${response.url()} answered HTTP ${status}; the page could not be opened.`);
  }
}

/** Why the main page did not load, when the proxy refused or could not reach it (the latest incident is the page's). */
function refusedOrFailed(proxy: PolicyProxy): OneClawError | undefined {
  const incident = proxy.incidents.at(-1);
  if (!incident) return undefined;
  return incident.kind === 'blocked'
    ? new OneClawError('forbidden_url', incident.reason)
    : new OneClawError('navigation_failed', `${incident.reason} Check the URL and that the site is up.`);
}

async function runScript(page: Page, script: string, timeoutMs: number, redact: (text: string) => string): Promise<string> {
  const evaluation = (async () => {
    // A string is evaluated as a script (its last expression is the value; a promise is awaited).
    // If that value is a function, such as "() => document.title", it is called.
    const handle = await page.evaluateHandle(script);
    try {
      return await handle.evaluate((value: unknown) => (typeof value === 'function' ? (value as () => unknown)() : value));
    } finally {
      await handle.dispose().catch(() => undefined);
    }
  })();
  evaluation.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new OneClawError('timeout', `The javascript did not finish within ${Math.round(timeoutMs / 1000)} s; make it shorter or remove waits.`)),
      timeoutMs,
    );
  });
  try {
    return serialise(await Promise.race([evaluation, deadline]), redact);
  } catch (error) {
    if (error instanceof OneClawError) throw error;
    const message = firstLine(error).replace(/^(page|jsHandle)\.evaluate(Handle)?: /, '');
    throw new OneClawError('script_error', `The javascript failed in the page: ${message}. Fix the script, or call again without it.`);
  } finally {
    clearTimeout(timer);
  }
}

function serialise(value: unknown, redact: (text: string) => string): string {
  const json = value === undefined ? 'undefined' : JSON.stringify(value);
  const text = redact(json ?? String(value));
  return text.length <= SCRIPT_RESULT_CHARS ? text : `${text.slice(0, SCRIPT_RESULT_CHARS)} [cut: ${text.length} characters in all]`;
}

async function screenshot(page: Page, url: URL, fullPage: boolean, timeoutMs: number, files: ConfinedFs): Promise<string> {
  let png: Buffer;
  try {
    png = await page.screenshot({ type: 'png', fullPage, timeout: timeoutMs });
  } catch (error) {
    if ((error as { name?: unknown }).name !== 'TimeoutError') throw error;
    throw new OneClawError('timeout', 'The page loaded but the screenshot ran out of time; retry with a shorter wait_seconds or without full_page.');
  }
  const file = `${SCREENSHOT_FOLDER}/${screenshotName(url)}`;
  const bytes = files.writeBytes(file, png);
  const { width, height } = pngSize(png);
  return `Screenshot saved to ${file} (${width}x${height} px, ${bytes} bytes, PNG${fullPage ? ', full page' : ''}).`;
}

/** `<host>-<UTC date and time>-<random>.png`: sorts by site and time, never overwrites. */
function screenshotName(url: URL): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const host = url.hostname.replace(/[^a-z0-9.-]/gi, '_');
  return `${host}-${stamp}-${randomBytes(3).toString('hex')}.png`;
}

/** Width and height from the IHDR chunk, which always comes first. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}

function blockedSummary(proxy: PolicyProxy): string[] {
  const origins = [...new Set(proxy.incidents.filter((i) => i.kind === 'blocked').map((i) => i.origin))];
  if (origins.length === 0) return [];
  const shown = origins.slice(0, 5).join(', ');
  return [`Blocked by the network policy (non-public or not allowed addresses): ${shown}${origins.length > 5 ? ` and ${origins.length - 5} more` : ''}.`];
}

/** The call's time, shared by its steps. */
class Budget {
  private readonly end: number;

  constructor(totalMs: number) {
    this.end = Date.now() + totalMs;
  }

  remaining(): number {
    return Math.max(0, this.end - Date.now());
  }

  /** A step's limit: its own, or what is left of the call if that is less (at least 1 ms). */
  cap(stepMs: number): number {
    return Math.max(1, Math.min(stepMs, this.remaining()));
  }
}
