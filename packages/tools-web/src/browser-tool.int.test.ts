import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { resolveFetchPolicy, type FetchPolicy } from '@oneclaw/js-tools';
import { ToolExecutionEngine, ToolRegistry, type Tool, type ToolResult } from '@oneclaw/tool-registry';
import { BrowserService } from './browser-service';
import { createBrowserTool, pngSize, SCREENSHOT_FOLDER, SCRIPT_RESULT_CHARS, type BrowserStepLimits } from './browser-tool';
import { serve, startLoopbackSite, type LoopbackSite } from './testing/loopback-site';
import { CHROMIUM_SKIP_REASON, chromiumAvailable, SYSTEM_CHROMIUM } from './testing/system-chromium';

/**
 * The real system Chromium (/usr/bin/chromium) against pages served on loopback. One browser is
 * launched for the whole file (each call still gets a fresh context); the tests that need their own
 * service say so.
 */
const CHROMIUM = SYSTEM_CHROMIUM;
const context = () => ({ signal: new AbortController().signal, sessionId: 's', callId: 'c', env: {} });

const PAGE = `<!doctype html><html><head><title>Harbour news</title><meta name="viewport" content="width=device-width"></head>
<body><h1>Harbour</h1><p>Static paragraph.</p>
<script>
  document.body.insertAdjacentHTML('beforeend', '<h2>Live</h2><p>Added by JavaScript.</p>');
  setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<p class="late">Added a moment later.</p>'), 100);
</script></body></html>`;
const TALL = '<html><head><meta name="viewport" content="width=device-width"></head><body style="margin:0"><div style="height:2000px;background:#4a8">tall</div></body></html>';
const LONG = `<html><body>${Array.from({ length: 30 }, (_, i) => `<p>Paragraph ${i} of a long page.</p>`).join('')}</body></html>`;

const text = (result: ToolResult): string => (result.status === 'success' ? result.result : `${result.errorType}: ${result.message}`);

(chromiumAvailable ? describe : describe.skip)(chromiumAvailable ? 'browser (real Chromium, pages on loopback)' : `browser (real Chromium): ${CHROMIUM_SKIP_REASON}`, () => {
  let site: LoopbackSite;
  let filesRoot: string;
  let service: BrowserService;
  const toolFor = (policy: FetchPolicy, limits?: Partial<BrowserStepLimits>): Tool =>
    createBrowserTool({ browser: service, policy: resolveFetchPolicy(policy), filesRoot, ...(limits ? { limits } : {}) });
  let open: Tool;
  const browse = (params: Record<string, unknown>): Promise<ToolResult> => open.execute(params, context());

  beforeAll(async () => {
    site = await startLoopbackSite({
      '/page': serve('text/html', PAGE),
      '/tall': serve('text/html', TALL),
      '/long': serve('text/html', LONG),
      '/strict-csp': serve('text/html', '<html><body><p>Locked down.</p></body></html>', 200, { 'content-security-policy': "default-src 'none'; script-src 'none'" }),
      '/gone': serve('text/html', '<h1>Gone</h1>', 410),
      '/hang': () => undefined,
    });
    filesRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-browser-'));
    service = new BrowserService({ executablePath: CHROMIUM, idleCloseMs: 0 });
    open = toolFor({ allowPrivateNetwork: true });
  });

  afterAll(async () => {
    await service.close();
    await site.close();
    fs.rmSync(filesRoot, { recursive: true, force: true });
  });

  it('screenshot: writes a real PNG of the requested size inside the files root and returns its relative path and size', async () => {
    const result = await browse({ url: `${site.origin}/page`, mode: 'screenshot', width: 500, height: 700, wait_seconds: 0 });
    expect(result.status).toBe('success');
    const match = /^Screenshot saved to (\S+) \((\d+)x(\d+) px, (\d+) bytes, PNG\)\.$/m.exec(text(result));
    expect(match).not.toBeNull();
    const [, relative = '', width, height, bytes] = match ?? [];
    expect(relative.startsWith(`${SCREENSHOT_FOLDER}/127.0.0.1-`)).toBe(true);
    const png = fs.readFileSync(path.join(filesRoot, relative));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(pngSize(png)).toEqual({ width: 500, height: 700 });
    expect([width, height, bytes]).toEqual(['500', '700', String(png.length)]);
    expect(text(result)).toContain('Title: Harbour news');
  });

  it('screenshot with full_page captures the whole page, not just the viewport', async () => {
    const result = await browse({ url: `${site.origin}/tall`, mode: 'screenshot', width: 400, height: 600, full_page: true, wait_seconds: 0 });
    const relative = /saved to (\S+) /.exec(text(result))?.[1] ?? '';
    expect(pngSize(fs.readFileSync(path.join(filesRoot, relative)))).toEqual({ width: 400, height: 2000 });
    expect(text(result)).toContain('full page');
  });

  it('extract: the rendered page as Markdown, including what the page JavaScript added (also after a delay, within wait_seconds)', async () => {
    const result = await browse({ url: `${site.origin}/page`, mode: 'extract', wait_seconds: 1 });
    expect(result.status).toBe('success');
    const out = text(result);
    expect(out).toContain(`URL: ${site.origin}/page`);
    expect(out).toContain('Title: Harbour news');
    expect(out).toContain('# Harbour\n\nStatic paragraph.\n\n## Live\n\nAdded by JavaScript.\n\nAdded a moment later.');
    expect(out).not.toContain('insertAdjacentHTML');
  });

  it('calls at the same time share the one browser, each in its own context (no cookies leak between them)', async () => {
    const setCookie = "document.cookie = 'seen=yes'; document.cookie";
    const [first, second] = await Promise.all([
      browse({ url: `${site.origin}/page`, mode: 'extract', wait_seconds: 0, javascript: setCookie }),
      browse({ url: `${site.origin}/long`, mode: 'extract', wait_seconds: 0 }),
    ]);
    expect(text(first)).toContain('JavaScript result: "seen=yes"');
    expect(text(second)).toContain('Paragraph 29 of a long page.');
    const later = await browse({ url: `${site.origin}/page`, mode: 'extract', wait_seconds: 0, javascript: 'document.cookie' });
    expect(text(later)).toContain('JavaScript result: ""');
  });

  it('extract cuts at max_length with a note', async () => {
    const result = await browse({ url: `${site.origin}/long`, mode: 'extract', wait_seconds: 0, max_length: 100 });
    expect(text(result)).toContain('Paragraph 0 of a long page.\n\nParagraph 1 of a long page.\n\nParagraph 2 of a long page.\n\n[Showing characters 0-85 of ');
    expect(text(result)).not.toContain('Paragraph 3');
  });

  it('redacts the page and the script value with context.redact before cutting them, so a secret across a cut leaves no start', async () => {
    const secret = 'sk-deployment-secret-0123456789';
    const redact = (text: string) => text.replaceAll(secret, '[Redacted]');
    const leaky = `<html><body><p>${'x'.repeat(500)}${secret}${'x'.repeat(500)}</p></body></html>`;
    const leakySite = await startLoopbackSite({ '/': serve('text/html', leaky) });
    try {
      // No break to cut at: the window ends at character 510, inside the secret (from 500).
      const page = await open.execute({ url: `${leakySite.origin}/`, mode: 'extract', wait_seconds: 0, max_length: 510 }, { ...context(), redact });
      expect(text(page)).toContain('[Showing characters 0-');
      expect(text(page)).not.toContain('sk-');
      // The script's value is cut at SCRIPT_RESULT_CHARS; the secret straddles that cut too.
      const script = await open.execute(
        { url: `${leakySite.origin}/`, mode: 'extract', wait_seconds: 0, max_length: 100, javascript: `'y'.repeat(${SCRIPT_RESULT_CHARS - 10}) + ${JSON.stringify(secret)}` },
        { ...context(), redact },
      );
      expect(text(script)).toContain('JavaScript result: ');
      expect(text(script)).not.toContain('sk-');
    } finally {
      await leakySite.close();
    }
  });

  it('javascript: runs after load and before the capture; its JSON result is included (expressions, promises, functions)', async () => {
    const changed = await browse({
      url: `${site.origin}/page`,
      mode: 'extract',
      wait_seconds: 0,
      javascript:
        "document.querySelector('h1').textContent = 'Changed by the script'; ({ paragraphs: document.querySelectorAll('p:not(.late)').length, mobile: navigator.userAgent.includes('Mobile') })",
    });
    expect(text(changed)).toContain('JavaScript result: {"paragraphs":2,"mobile":true}');
    expect(text(changed)).toContain('# Changed by the script');
    const awaited = await browse({
      url: `${site.origin}/page`,
      mode: 'extract',
      wait_seconds: 0,
      javascript: 'new Promise((resolve) => setTimeout(() => resolve([1, "two"]), 10))',
    });
    expect(text(awaited)).toContain('JavaScript result: [1,"two"]');
    const fn = await browse({
      url: `${site.origin}/page`,
      mode: 'screenshot',
      width: 1280,
      height: 800,
      wait_seconds: 0,
      javascript: '() => navigator.userAgent.includes("Mobile")',
    });
    expect(text(fn)).toContain('JavaScript result: false');
    const locked = await browse({ url: `${site.origin}/strict-csp`, mode: 'extract', wait_seconds: 0, javascript: 'document.querySelector("p").textContent.length' });
    expect(text(locked)).toContain('JavaScript result: 12');
  });

  it('script_error: an exception or a syntax error in the javascript is reported as an error value, not thrown', async () => {
    const thrown = await browse({ url: `${site.origin}/page`, mode: 'extract', wait_seconds: 0, javascript: 'throw new Error("boom in page")' });
    expect(thrown).toMatchObject({ status: 'error', errorType: 'script_error', message: expect.stringContaining('boom in page') });
    const syntax = await browse({ url: `${site.origin}/page`, mode: 'extract', wait_seconds: 0, javascript: 'let = = 1' });
    expect(syntax).toMatchObject({ status: 'error', errorType: 'script_error', message: expect.stringContaining('SyntaxError') });
  });

  it('navigation_failed: an HTTP error status, and a refused connection', async () => {
    expect(await browse({ url: `${site.origin}/gone`, mode: 'extract', wait_seconds: 0 })).toMatchObject({
      status: 'error',
      errorType: 'navigation_failed',
      message: expect.stringContaining('HTTP 410 Gone'),
    });
    const closed = await startLoopbackSite({});
    await closed.close();
    expect(await browse({ url: `${closed.origin}/`, mode: 'extract', wait_seconds: 0 })).toMatchObject({
      status: 'error',
      errorType: 'navigation_failed',
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('timeout: a page that never answers, and a script that never finishes (shortened limits)', async () => {
    const impatientPage = toolFor({ allowPrivateNetwork: true }, { navigationMs: 500 });
    expect(await impatientPage.execute({ url: `${site.origin}/hang`, mode: 'extract' }, context())).toMatchObject({
      status: 'error',
      errorType: 'timeout',
      message: expect.stringContaining('did not load within'),
    });
    const impatientScript = toolFor({ allowPrivateNetwork: true }, { scriptMs: 300 });
    expect(await impatientScript.execute({ url: `${site.origin}/page`, mode: 'extract', wait_seconds: 0, javascript: 'new Promise(() => {})' }, context())).toMatchObject({
      status: 'error',
      errorType: 'timeout',
      message: expect.stringContaining('javascript did not finish'),
    });
  });

  it('clamps width, height and wait_seconds to their ranges and says so', async () => {
    const result = await browse({ url: `${site.origin}/page`, mode: 'screenshot', width: 10, height: 99_999, wait_seconds: -3 });
    const out = text(result);
    expect(out).toContain('(200x4096 px,');
    expect(out).toContain('width 10 is outside 200-2560; used 200.');
    expect(out).toContain('height 99999 is outside 200-4096; used 4096.');
    expect(out).toContain('wait_seconds -3 is outside 0-30; used 0.');
  });

  it('invalid_url: file:, chrome: and javascript: URLs and non-URLs are refused before a page opens', async () => {
    for (const url of ['file:///etc/passwd', 'chrome://settings', 'javascript:alert(1)', 'about:blank', 'not a url']) {
      expect(await browse({ url, mode: 'extract' })).toMatchObject({ status: 'error', errorType: 'invalid_url' });
    }
  });

  it('bad input is a validation_error from the engine (no mode, an unknown mode, a string width); the timeout is 60 s', async () => {
    const registry = new ToolRegistry();
    registry.register(open, { kind: 'built-in' });
    const calls = [{ url: `${site.origin}/page` }, { url: `${site.origin}/page`, mode: 'pdf' }, { url: `${site.origin}/page`, mode: 'extract', width: 'wide' }];
    const before = site.requests.length;
    const outcomes = await new ToolExecutionEngine(registry).executeAll(
      calls.map((args, i) => ({ callId: `c${i}`, toolName: 'browser', arguments: args })),
      { sessionId: 's', activeToolNames: ['browser'] },
    );
    expect(outcomes.map((o) => o.result.status === 'error' && o.result.errorType)).toEqual(['validation_error', 'validation_error', 'validation_error']);
    expect(site.requests.length).toBe(before);
    expect(registry.get('browser')?.definition.timeoutMs).toBe(60_000);
  });

  describe('SSRF policy (the default: public addresses only)', () => {
    it('forbidden_url: loopback and the metadata address are refused before anything is requested', async () => {
      const strict = toolFor({});
      const before = site.requests.length;
      for (const url of [`${site.origin}/page`, `http://localhost:${site.port}/page`, 'http://169.254.169.254/latest/meta-data/']) {
        expect(await strict.execute({ url, mode: 'extract' }, context())).toMatchObject({ status: 'error', errorType: 'forbidden_url' });
      }
      expect(site.requests.length).toBe(before);
    });

    it('navigation_failed: a host name that does not resolve (before Chromium is asked)', async () => {
      const unresolvable = toolFor({
        resolve: async () => {
          throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
        },
      });
      expect(await unresolvable.execute({ url: 'https://no-such-host.example/', mode: 'extract' }, context())).toMatchObject({
        status: 'error',
        errorType: 'navigation_failed',
        message: expect.stringContaining('could not be resolved (ENOTFOUND)'),
      });
    });

    describe('on a public page (served through a fake operator proxy on loopback speaking the HTTP proxy wire format)', () => {
      let upstream: http.Server;
      let strict: Tool;

      beforeAll(async () => {
        const privateUrl = `http://127.0.0.1:${site.port}`;
        const pages: Record<string, string> = {
          'http://public.test/': `<html><head><title>Public</title></head><body><p>Public page.</p>
            <img src="${privateUrl}/pixel.png" alt="pixel"><img src="http://169.254.169.254/latest/meta-data/" alt="metadata">
            <script>fetch('${privateUrl}/api').catch(() => {});</script></body></html>`,
        };
        upstream = http.createServer((req, res) => {
          if (req.url === 'http://public.test/to-private') {
            res.writeHead(302, { location: `${privateUrl}/secret` }).end();
            return;
          }
          const page = pages[req.url ?? ''];
          if (page) res.writeHead(200, { 'content-type': 'text/html' }).end(page);
          else res.writeHead(404).end();
        });
        await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
        strict = toolFor({ proxyUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` });
      });

      afterAll(async () => {
        upstream.closeAllConnections();
        await new Promise<void>((resolve) => upstream.close(() => resolve()));
      });

      it("blocks the page's sub-requests to private addresses (image, fetch, metadata), requests none of them, and reports them", async () => {
        const before = site.requests.length;
        const result = await strict.execute({ url: 'http://public.test/', mode: 'extract', wait_seconds: 0.5 }, context());
        expect(result.status).toBe('success');
        expect(text(result)).toContain('Public page.');
        expect(text(result)).toContain(`Blocked by the network policy (non-public or not allowed addresses): `);
        // Images hold back the load event, so both refusals are in by the time the page is read.
        expect(text(result)).toContain(`http://127.0.0.1:${site.port}`);
        expect(text(result)).toContain('http://169.254.169.254');
        expect(site.requests.length).toBe(before);
      });

      it('forbidden_url: a redirect of the page itself to a private address is not followed', async () => {
        const before = site.requests.length;
        const result = await strict.execute({ url: 'http://public.test/to-private', mode: 'extract', wait_seconds: 0 }, context());
        expect(result).toMatchObject({ status: 'error', errorType: 'forbidden_url', message: expect.stringContaining('127.0.0.1') });
        expect(site.requests.length).toBe(before);
      });
    });
  });
});

describe('browser without a usable Chromium', () => {
  const policy = resolveFetchPolicy({ allowPrivateNetwork: true });
  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-browser-none-'));
  afterAll(() => fs.rmSync(files, { recursive: true, force: true }));

  it('browser_not_installed: ONECLAW_BROWSER_PATH names a file that does not exist (says what to install or set)', async () => {
    const service = new BrowserService({ executablePath: '/nonexistent/chromium' });
    const tool = createBrowserTool({ browser: service, policy, filesRoot: files });
    const result = await tool.execute({ url: 'http://127.0.0.1:9/', mode: 'extract' }, context());
    expect(result).toMatchObject({ status: 'error', errorType: 'browser_not_installed', message: expect.stringContaining('ONECLAW_BROWSER_PATH=/nonexistent/chromium') });
    expect(service.running).toBe(false);
  });

  it('browser_not_installed: none of the default locations exists', async () => {
    const service = new BrowserService({ candidates: ['/nonexistent/a', '/nonexistent/b'] });
    const result = await createBrowserTool({ browser: service, policy, filesRoot: files }).execute({ url: 'http://127.0.0.1:9/', mode: 'screenshot' }, context());
    expect(result).toMatchObject({ status: 'error', errorType: 'browser_not_installed', message: expect.stringContaining('apt-get install chromium') });
  });

  it('browser_launch_failed: the configured file exists but is not a browser', async () => {
    const service = new BrowserService({ executablePath: '/bin/false' });
    const result = await createBrowserTool({ browser: service, policy, filesRoot: files }).execute({ url: 'http://127.0.0.1:9/', mode: 'extract' }, context());
    expect(result).toMatchObject({ status: 'error', errorType: 'browser_launch_failed', message: expect.stringContaining('/bin/false') });
    expect(service.running).toBe(false);
  });
});

(chromiumAvailable ? describe : describe.skip)(chromiumAvailable ? 'BrowserService lifecycle' : `BrowserService lifecycle: ${CHROMIUM_SKIP_REASON}`, () => {
  it('closes an idle Chromium after idleCloseMs and launches it again on the next call', async () => {
    const site = await startLoopbackSite({ '/': serve('text/html', '<p>hi</p>') });
    const files = fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-browser-idle-'));
    const service = new BrowserService({ executablePath: CHROMIUM, idleCloseMs: 1 });
    const tool = createBrowserTool({ browser: service, policy: resolveFetchPolicy({ allowPrivateNetwork: true }), filesRoot: files });
    try {
      expect(await tool.execute({ url: `${site.origin}/`, mode: 'extract', wait_seconds: 0 }, context())).toMatchObject({ status: 'success' });
      while (service.running) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await tool.execute({ url: `${site.origin}/`, mode: 'extract', wait_seconds: 0 }, context())).toMatchObject({
        status: 'success',
        result: expect.stringContaining('hi'),
      });
      await service.close();
      expect(service.running).toBe(false);
      expect(await tool.execute({ url: `${site.origin}/`, mode: 'extract' }, context())).toMatchObject({ status: 'error', errorType: 'browser_unavailable' });
    } finally {
      await service.close();
      await site.close();
      fs.rmSync(files, { recursive: true, force: true });
    }
  });
});
