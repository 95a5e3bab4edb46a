import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SafeFetch } from '@oneclaw/js-tools';
import { ToolExecutionEngine, ToolRegistry, type ToolResult } from '@oneclaw/tool-registry';
import { serve, startLoopbackSite, type LoopbackSite } from './testing/loopback-site';
import { MOBILE_CHROME_USER_AGENT } from './user-agents';
import { createWebfetchTool, WEBFETCH_MAX_BYTES } from './webfetch-tool';

const context = () => ({ signal: new AbortController().signal, sessionId: 's', callId: 'c', env: {} });

const ARTICLE = `<!doctype html><html><head><title>Tide &amp; Time</title>
<style>body { color: red }</style><script>var hidden = "SCRIPT-TEXT";</script></head>
<body><nav><a href="/">Home</a> <a href="/about">NAV-LINK</a></nav>
<main><h1>Tides</h1><p>The moon pulls the <a href="/sea/water.html">water</a>.</p>
<h2>Spring tides</h2><p>They come twice a month.</p>
<noscript>NOSCRIPT-TEXT</noscript><iframe src="/ad">IFRAME-TEXT</iframe>
<table><tr><th>Day</th><th>Height</th></tr><tr><td>Mon</td><td>2.1 m</td></tr></table></main>
<footer>FOOTER-TEXT</footer></body></html>`;

const LEAKED = 'sk-deployment-secret-0123456789';

const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} ${'lorem ipsum '.repeat(8)}`.trim()).join('\n\n');

describe('webfetch (real HTTP on loopback)', () => {
  let site: LoopbackSite;
  let http: SafeFetch;
  let fetchTool: ReturnType<typeof createWebfetchTool>;
  const webfetch = (params: Record<string, unknown>): Promise<ToolResult> => fetchTool.execute(params, context());

  beforeAll(async () => {
    site = await startLoopbackSite({
      '/article': serve('text/html; charset=utf-8', ARTICLE),
      '/plain': serve('text/plain', 'just *text*, kept as it is'),
      '/data.json': serve('application/json', '{"tide":"high","metres":2.1}'),
      '/feed.xml': serve('application/rss+xml', '<rss><channel><title>Feed</title></channel></rss>'),
      '/moved': (_req, res) => res.writeHead(302, { location: '/article' }).end(),
      '/long': serve('text/plain', paragraphs),
      '/missing': serve('text/html', `<html><body><h1>Not here</h1><p>${'x'.repeat(3000)}</p></body></html>`, 404),
      '/image.png': serve('image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
      '/doc.pdf': serve('application/pdf', '%PDF-1.4\n'),
      '/blob': serve('application/octet-stream', Buffer.from([0, 1, 2, 3])),
      '/empty': serve('text/plain', ''),
      '/app': serve('text/html', '<html><head><script src="/app.js"></script></head><body><div id="root"></div></body></html>'),
      '/latin1': serve('text/plain; charset=iso-8859-1', Buffer.from([0x63, 0x61, 0x66, 0xe9])),
      '/gzipped': serve('text/plain', gzipSync('unasked gzip, decoded anyway'), 200, { 'content-encoding': 'gzip' }),
      '/huge': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        let sent = 0;
        const pump = (): void => {
          while (sent <= WEBFETCH_MAX_BYTES + chunk.length) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      },
      '/hang': () => undefined,
      '/to-localhost': (_req, res) => res.writeHead(302, { location: `http://localhost:${site.port}/secret` }).end(),
      '/secret': serve('text/plain', 'SECRET'),
      '/leaky': serve('text/plain', `${'x'.repeat(500)}${LEAKED}${'x'.repeat(500)}`),
      '/leaky-missing': serve('text/plain', `${'x'.repeat(980)}${LEAKED}`, 500),
    });
    http = new SafeFetch({ allowPrivateNetwork: true });
    fetchTool = createWebfetchTool(http);
  });

  afterAll(async () => {
    await http.close();
    await site.close();
  });

  it('converts HTML to Markdown: title, headings, absolute links and a table; drops script, style, noscript, iframes, nav and the site footer', async () => {
    const result = await webfetch({ url: `${site.origin}/article` });
    expect(result.status).toBe('success');
    const text = result.status === 'success' ? result.result : '';
    expect(text).toContain(`URL: ${site.origin}/article`);
    expect(text).toContain('Title: Tide & Time');
    expect(text).toContain('# Tides');
    expect(text).toContain('## Spring tides');
    expect(text).toContain(`[water](${site.origin}/sea/water.html)`);
    expect(text).toContain('| Day | Height |\n| --- | --- |\n| Mon | 2.1 m |');
    for (const dropped of ['SCRIPT-TEXT', 'color: red', 'NOSCRIPT-TEXT', 'IFRAME-TEXT', 'NAV-LINK', 'FOOTER-TEXT']) expect(text).not.toContain(dropped);
  });

  it('sends a mobile Chrome User-Agent', async () => {
    await webfetch({ url: `${site.origin}/plain` });
    expect(site.requests.at(-1)?.headers['user-agent']).toBe(MOBILE_CHROME_USER_AGENT);
  });

  it('passes text/plain, JSON and XML through unchanged', async () => {
    expect(await webfetch({ url: `${site.origin}/plain` })).toEqual({ status: 'success', result: `URL: ${site.origin}/plain\n\njust *text*, kept as it is` });
    expect(await webfetch({ url: `${site.origin}/data.json` })).toEqual({ status: 'success', result: `URL: ${site.origin}/data.json\n\n{"tide":"high","metres":2.1}` });
    expect(await webfetch({ url: `${site.origin}/feed.xml` })).toMatchObject({ status: 'success', result: expect.stringContaining('<rss><channel><title>Feed</title>') });
  });

  it('decodes the declared charset and an unasked gzip encoding', async () => {
    expect(await webfetch({ url: `${site.origin}/latin1` })).toMatchObject({ result: expect.stringContaining('café') });
    expect(await webfetch({ url: `${site.origin}/gzipped` })).toMatchObject({ result: expect.stringContaining('unasked gzip, decoded anyway') });
  });

  it('follows redirects and shows the final URL', async () => {
    const result = await webfetch({ url: `${site.origin}/moved` });
    expect(result).toMatchObject({ status: 'success', result: expect.stringContaining(`URL: ${site.origin}/article`) });
  });

  it('cuts at max_length on a paragraph boundary with a note saying how to read on, and start_index reads the rest', async () => {
    const result = await webfetch({ url: `${site.origin}/long`, max_length: 500 });
    const text = result.status === 'success' ? result.result : '';
    const body = text.split('\n\n').slice(1).join('\n\n');
    const [content = '', note = ''] = body.split('\n\n[Showing characters ');
    expect(paragraphs.startsWith(content)).toBe(true);
    expect(content.length).toBeLessThanOrEqual(500);
    expect(paragraphs.slice(content.length, content.length + 2)).toBe('\n\n');
    const next = content.length + 2;
    expect(note).toBe(`0-${content.length} of ${paragraphs.length}. To read on, call webfetch again with start_index ${next}.]`);

    const rest = await webfetch({ url: `${site.origin}/long`, start_index: next, max_length: 1_000_000 });
    const restBody = (rest.status === 'success' ? rest.result : '').split('\n\n').slice(1).join('\n\n');
    expect(restBody).toBe(`${paragraphs.slice(next)}\n\n[Showing characters ${next}-${paragraphs.length} of ${paragraphs.length}.]`);
  });

  it('redacts the page and an error body with context.redact before cutting them, so a secret across the cut leaves no start', async () => {
    const redact = (text: string) => text.replaceAll(LEAKED, '[Redacted]');
    const run = (params: Record<string, unknown>) => fetchTool.execute(params, { ...context(), redact });
    // With no break to cut at, the window ends at character 510, inside the secret (from 500).
    const page = await run({ url: `${site.origin}/leaky`, max_length: 510 });
    const shown = page.status === 'success' ? page.result : '';
    expect(shown).toContain('[Showing characters 0-');
    expect(shown).not.toContain('sk-');
    const failed = await run({ url: `${site.origin}/leaky-missing` });
    expect(failed).toMatchObject({ status: 'error', errorType: 'http_error' });
    expect(failed.status === 'error' ? failed.message : '').not.toContain('sk-');
  });

  it('http_error: gives the status and the first 1000 characters of the body', async () => {
    const result = await webfetch({ url: `${site.origin}/missing` });
    expect(result).toMatchObject({ status: 'error', errorType: 'http_error' });
    const message = result.status === 'error' ? result.message : '';
    expect(message).toContain('HTTP 404 Not Found');
    const excerpt = message.split('Start of the body:\n')[1] ?? '';
    expect(excerpt.startsWith('# Not here')).toBe(true);
    expect(excerpt).toHaveLength(1000);
  });

  it('refuses images, PDFs and binaries (unsupported_content_type) and says what to use instead', async () => {
    const image = await webfetch({ url: `${site.origin}/image.png` });
    expect(image).toMatchObject({ status: 'error', errorType: 'unsupported_content_type', message: expect.stringContaining('browser tool with mode "screenshot"') });
    const pdf = await webfetch({ url: `${site.origin}/doc.pdf` });
    expect(pdf).toMatchObject({ status: 'error', errorType: 'unsupported_content_type', message: expect.stringContaining('pdf_extract_text') });
    const blob = await webfetch({ url: `${site.origin}/blob` });
    expect(blob).toMatchObject({ status: 'error', errorType: 'unsupported_content_type', message: expect.stringContaining('"application/octet-stream"') });
  });

  it('empty_response: an empty body, and a JavaScript-only page (pointing at the browser tool)', async () => {
    expect(await webfetch({ url: `${site.origin}/empty` })).toMatchObject({ status: 'error', errorType: 'empty_response' });
    expect(await webfetch({ url: `${site.origin}/app` })).toMatchObject({
      status: 'error',
      errorType: 'empty_response',
      message: expect.stringContaining('browser tool with mode "extract"'),
    });
  });

  it('response_too_large: stops reading past 5 MB', async () => {
    const result = await webfetch({ url: `${site.origin}/huge` });
    expect(result).toMatchObject({ status: 'error', errorType: 'response_too_large', message: expect.stringContaining('larger than 5 MB') });
  });

  it('timeout: a server that never answers', async () => {
    const impatient = new SafeFetch({ allowPrivateNetwork: true, timeoutMs: 300 });
    try {
      expect(await createWebfetchTool(impatient).execute({ url: `${site.origin}/hang` }, context())).toMatchObject({ status: 'error', errorType: 'timeout' });
    } finally {
      await impatient.close();
    }
  });

  it('network_error: nothing listens on the port', async () => {
    const closed = await startLoopbackSite({});
    await closed.close();
    expect(await webfetch({ url: `${closed.origin}/` })).toMatchObject({ status: 'error', errorType: 'network_error' });
  });

  it('invalid_url: not a URL, a missing scheme (with a suggestion), file: and ftp: schemes, credentials in the URL', async () => {
    expect(await webfetch({ url: 'not a url' })).toMatchObject({ status: 'error', errorType: 'invalid_url' });
    expect(await webfetch({ url: 'example.com/page' })).toMatchObject({ status: 'error', errorType: 'invalid_url', message: expect.stringContaining('https://example.com/page') });
    expect(await webfetch({ url: 'nas:5000' })).toMatchObject({ status: 'error', errorType: 'invalid_url', message: expect.stringContaining('https://nas:5000') });
    expect(await webfetch({ url: 'file:///etc/passwd' })).toMatchObject({ status: 'error', errorType: 'invalid_url', message: expect.stringContaining('"file:"') });
    expect(await webfetch({ url: 'ftp://example.com/x' })).toMatchObject({ status: 'error', errorType: 'invalid_url' });
    expect(await webfetch({ url: `http://user:pw@127.0.0.1:${site.port}/plain` })).toMatchObject({ status: 'error', errorType: 'invalid_url' });
  });

  it('bad input is a validation_error from the engine (missing url, max_length too small, a string max_length); the timeout is 30 s', async () => {
    const registry = new ToolRegistry();
    registry.register(fetchTool, { kind: 'built-in' });
    const calls = [{}, { url: `${site.origin}/plain`, max_length: 5 }, { url: `${site.origin}/plain`, max_length: 'lots' }];
    const before = site.requests.length;
    const outcomes = await new ToolExecutionEngine(registry).executeAll(
      calls.map((args, i) => ({ callId: `c${i}`, toolName: 'webfetch', arguments: args })),
      { sessionId: 's', activeToolNames: ['webfetch'] },
    );
    expect(outcomes.map((o) => o.result.status === 'error' && o.result.errorType)).toEqual(['validation_error', 'validation_error', 'validation_error']);
    expect(site.requests.length).toBe(before);
    expect(registry.get('webfetch')?.definition.timeoutMs).toBe(30_000);
  });

  it('a redirect hop is checked against the policy: an allow-list refusal becomes forbidden_url and the target is never requested', async () => {
    const listed = new SafeFetch({ allowPrivateNetwork: true, allowedHosts: ['127.0.0.1'] });
    try {
      const result = await createWebfetchTool(listed).execute({ url: `${site.origin}/to-localhost` }, context());
      expect(result).toMatchObject({ status: 'error', errorType: 'forbidden_url' });
      expect(site.paths()).not.toContain('/secret');
    } finally {
      await listed.close();
    }
  });
});

describe('webfetch SSRF policy (the default: public addresses only)', () => {
  it('refuses loopback and the cloud metadata address with forbidden_url, and requests nothing', async () => {
    const site = await startLoopbackSite({ '/': serve('text/plain', 'LOCAL') });
    const http = new SafeFetch();
    try {
      const tool = createWebfetchTool(http);
      for (const url of [`${site.origin}/`, `http://localhost:${site.port}/`, `http://[::1]:${site.port}/`, 'http://169.254.169.254/latest/meta-data/']) {
        const result = await tool.execute({ url }, context());
        expect(result).toMatchObject({ status: 'error', errorType: 'forbidden_url', message: expect.stringContaining('not reachable from tools') });
      }
      expect(site.requests).toEqual([]);
    } finally {
      await http.close();
      await site.close();
    }
  });

  it('refuses a host name that resolves to a private address (checked after DNS), requesting nothing', async () => {
    const site = await startLoopbackSite({ '/': serve('text/plain', 'LOCAL') });
    const http = new SafeFetch({ resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    try {
      const result = await createWebfetchTool(http).execute({ url: `http://intranet.example.com:${site.port}/` }, context());
      expect(result).toMatchObject({ status: 'error', errorType: 'forbidden_url', message: expect.stringContaining('non-public address') });
      expect(site.requests).toEqual([]);
    } finally {
      await http.close();
      await site.close();
    }
  });
});
