import { OneClawError } from '@oneclaw/core';
import { FetchError, type HttpResponse, type SafeFetch } from '@oneclaw/js-tools';
import { builtinTool, MAX_ANSWER_CHARS, type Tool } from '@oneclaw/tool-registry';
import { CappedSink } from './capped-sink';
import { cutAtParagraph, type TextWindow } from './cut-at-paragraph';
import { htmlToMarkdown } from './html-to-markdown';
import { bodyKind, decodeContentEncoding, decodeText, parseContentType, unsupportedContentMessage } from './response-body';
import { MOBILE_CHROME_USER_AGENT } from './user-agents';
import { parseWebUrl } from './web-url';

/** The most webfetch downloads (and, for a compressed body, decompresses) per call. */
export const WEBFETCH_MAX_BYTES = 5 * 1024 * 1024;
export const WEBFETCH_DEFAULT_MAX_LENGTH = 50_000;
/** How much of an error page the model sees with `http_error`. */
const ERROR_BODY_CHARS = 1000;

interface WebfetchParams {
  readonly url: string;
  readonly max_length?: number;
  readonly start_index?: number;
}

/**
 * `webfetch`: one GET through the tools' SafeFetch (http/https only, SSRF policy with every
 * redirect hop checked, the operator's proxy and CAs), a page converted to Markdown.
 */
export function createWebfetchTool(http: SafeFetch): Tool {
  return builtinTool<WebfetchParams>(
    {
      name: 'webfetch',
      description: 'Fetch a URL as Markdown (HTML converted). For JavaScript pages or screenshots use browser.',
      parameters: {
        type: 'object',
        properties: {
          url: { type: 'string' },
          max_length: {
            type: 'integer',
            minimum: 100,
            maximum: 1_000_000,
            description: `max ${MAX_ANSWER_CHARS} per call`,
          },
          start_index: { type: 'integer', minimum: 0, description: 'offset to read on' },
        },
        required: ['url'],
      },
      timeoutMs: 30_000,
    },
    async (params, context) => {
      const url = parseWebUrl(params.url);
      const response = await fetchPage(http, url, context.signal);
      const window = { start: params.start_index ?? 0, maxLength: params.max_length ?? WEBFETCH_DEFAULT_MAX_LENGTH, tool: 'webfetch' };
      return describePage(response, window, context.redact ?? ((text) => text));
    },
  );
}

interface FetchedPage {
  readonly response: HttpResponse;
  readonly body: Buffer;
}

async function fetchPage(http: SafeFetch, url: URL, signal: AbortSignal): Promise<FetchedPage> {
  const tooLarge =
    `The page at ${url.origin} is larger than ${WEBFETCH_MAX_BYTES / (1024 * 1024)} MB; webfetch reads at most that much. ` +
    'Use the browser tool with mode "extract" for very large pages.';
  const sink = new CappedSink(WEBFETCH_MAX_BYTES, tooLarge);
  let response: HttpResponse;
  try {
    response = await http.request(
      {
        url: url.href,
        method: 'GET',
        headers: {
          'user-agent': MOBILE_CHROME_USER_AGENT,
          accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5',
          'accept-language': 'en-US,en;q=0.9',
        },
      },
      { signal, destination: sink },
    );
  } catch (error) {
    throw fromFetchError(error, tooLarge);
  }
  const origin = new URL(response.url).origin;
  return { response, body: decodeContentEncoding(sink.body(), response.headers['content-encoding'], WEBFETCH_MAX_BYTES, origin) };
}

/** SafeFetch's codes, narrowed to the ones webfetch documents. */
function fromFetchError(error: unknown, tooLarge: string): unknown {
  if (!(error instanceof OneClawError)) return error;
  switch (error.code) {
    case 'invalid_request':
      return new OneClawError('invalid_url', error.message);
    case 'egress_denied':
      return new OneClawError('forbidden_url', error.message);
    case 'too_many_redirects':
      return new OneClawError('network_error', error.message);
    case 'response_too_large':
      // SafeFetch's own check (a declared length past its download limit) names that limit, not ours.
      return error instanceof FetchError ? new OneClawError('response_too_large', tooLarge) : error;
    default:
      return error;
  }
}

/** `redact` runs before every cut (ToolContext.redact): the body's excerpt, the page's window. */
function describePage({ response, body }: FetchedPage, window: TextWindow, redact: (text: string) => string): string {
  const { mediaType, charset } = parseContentType(response.headers['content-type']);
  const kind = bodyKind(mediaType, body);
  if (response.status < 200 || response.status >= 300) {
    const text = kind === undefined ? '' : readable(body, charset, kind, response.url).markdown;
    const excerpt = text.trim() === '' ? '(empty body)' : redact(text).slice(0, ERROR_BODY_CHARS);
    throw new OneClawError(
      'http_error',
      `${response.url} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}. ` + `Start of the body:\n${excerpt}`,
    );
  }
  if (kind === undefined) throw new OneClawError('unsupported_content_type', unsupportedContentMessage(mediaType, response.url));
  const page = readable(body, charset, kind, response.url);
  if (page.markdown.trim() === '') {
    throw new OneClawError(
      'empty_response',
      kind === 'html'
        ? `${response.url} returned a page with no readable text; it may build its content with JavaScript. Try the browser tool with mode "extract".`
        : `${response.url} returned an empty body.`,
    );
  }
  const header = [`URL: ${response.url}`, ...(page.title ? [`Title: ${page.title}`] : [])].join('\n');
  return `${header}\n\n${cutAtParagraph(redact(page.markdown), window)}`;
}

function readable(body: Buffer, charset: string | undefined, kind: 'html' | 'text', url: string): { title?: string; markdown: string } {
  const text = decodeText(body, charset, kind);
  if (kind === 'text') return { markdown: text };
  const page = htmlToMarkdown(text, url);
  return page.title === undefined ? { markdown: page.markdown } : { title: page.title, markdown: page.markdown };
}
