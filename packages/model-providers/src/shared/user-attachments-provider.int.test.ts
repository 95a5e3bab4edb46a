import { afterEach, describe, expect, it } from '@jest/globals';
import type { ToolPayload } from '@oneclaw/tool-registry';
import { fakeReply } from '../testing/fake-model/fake-reply';
import { startFakeModelServer, type FakeModelKind, type FakeModelServer } from '../testing/fake-model-server';
import { AnthropicProvider } from '../anthropic/anthropic-provider';
import { GeminiProvider } from '../gemini/gemini-provider';
import type { ChatAttachment, ChatMessage, ModelProvider, ModelRequest } from '../model-provider';
import { OpenAiCompatibleProvider } from '../openai-compatible/openai-compatible-provider';

/**
 * Issue 15, attachments: the wire format each provider sends for attached images and PDFs, as a
 * loopback FAKE provider server receives it, and the note a missing file becomes.
 */
const FAST = { maxRetries: 0, retryDelayCapMs: 1, retryBaseDelayMs: 1 };
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');
const PDF = Buffer.from('%PDF-1.4\n% test\n%%EOF\n');
const IMAGE: ChatAttachment = { hash: 'a'.repeat(64), name: 'cat.png', mediaType: 'image/png', bytes: PNG.byteLength, data: PNG.toString('base64') };
const DOC: ChatAttachment = { hash: 'b'.repeat(64), name: 'report.pdf', mediaType: 'application/pdf', bytes: PDF.byteLength, data: PDF.toString('base64') };
const GONE: ChatAttachment = { hash: 'c'.repeat(64), name: 'old.png', mediaType: 'image/png', bytes: 10, missing: true };

const MESSAGES: ChatMessage[] = [{ role: 'user', text: 'What is in these?', attachments: [IMAGE, DOC, GONE] }];

function request(provider: FakeModelKind): ModelRequest {
  return { model: 'test-model', system: 'You are terse.', messages: MESSAGES, tools: { provider, tools: [] } as unknown as ToolPayload };
}

const PDF_NOTE = `[Attached PDF "report.pdf" (application/pdf, ${PDF.byteLength} B); the pdf tools (group "pdf") read it with path "attachment:${'b'.repeat(64)}"]`;
const IMAGE_NOTE = `[Attached image "cat.png" (image/png, ${PNG.byteLength} B)]`;
const missingNote = expect.stringContaining('[Attached image "old.png" (image/png, 10 B): the file is missing from the server\'s attachment store');

describe('attachments on the wire, against loopback FAKE provider servers (issue 15, S2)', () => {
  let fake: FakeModelServer;
  afterEach(() => fake.close());

  async function send(kind: FakeModelKind, provider: (url: string) => ModelProvider): Promise<Record<string, any>> {
    fake = await startFakeModelServer(kind);
    fake.enqueue(fakeReply.text('A cat and a report.'));
    const reply = await provider(fake.url).complete(request(kind));
    expect(reply.text).toBe('A cat and a report.');
    return fake.requests[0]!.body as Record<string, any>;
  }

  it('Anthropic: a base64 image block, a base64 document block titled with the file name, then the text with a note per file', async () => {
    const body = await send('anthropic', (baseUrl) => new AnthropicProvider({ baseUrl, ...FAST }));
    const [image, document, text] = body.messages[0].content;
    expect(body.messages).toHaveLength(1);
    expect(image).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.toString('base64') } });
    expect(document).toEqual({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF.toString('base64') }, title: 'report.pdf' });
    expect(text.type).toBe('text');
    expect(text.text.split('\n\n')).toEqual(['What is in these?', IMAGE_NOTE, PDF_NOTE, missingNote]);
  });

  it('OpenAI: image_url with a data URL, the PDF as a file part with file_data (where the API takes files), then the text', async () => {
    const body = await send('openai', (baseUrl) => new OpenAiCompatibleProvider({ baseUrl, pdfFileParts: true, ...FAST }));
    const user = body.messages[1];
    expect(user.role).toBe('user');
    expect(user.content.slice(0, 2)).toEqual([
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } },
      { type: 'file', file: { filename: 'report.pdf', file_data: `data:application/pdf;base64,${PDF.toString('base64')}` } },
    ]);
    expect(user.content[2].type).toBe('text');
    expect(user.content[2].text.split('\n\n')).toEqual(['What is in these?', IMAGE_NOTE, PDF_NOTE, missingNote]);
  });

  it('OpenAI-compatible local server (default for a non-OpenAI base URL): the image goes, the PDF becomes a note that points to the pdf tools', async () => {
    const body = await send('openai', (baseUrl) => new OpenAiCompatibleProvider({ baseUrl, ...FAST }));
    const parts = body.messages[1].content as Record<string, any>[];
    expect(parts.map((p) => p.type)).toEqual(['image_url', 'text']);
    expect(parts[1]!.text).toContain(
      `[Attached PDF "report.pdf" (application/pdf, ${PDF.byteLength} B). This model API is not sent PDF documents; the pdf tools (group "pdf") read it with path "attachment:${'b'.repeat(64)}".]`,
    );
  });

  it('OpenAI: a message without attachments keeps its plain string content', async () => {
    fake = await startFakeModelServer('openai');
    fake.enqueue(fakeReply.text('hi'));
    await new OpenAiCompatibleProvider({ baseUrl: fake.url, ...FAST }).complete({ ...request('openai'), messages: [{ role: 'user', text: 'Hello' }] });
    expect((fake.requests[0]!.body as Record<string, any>).messages[1]).toEqual({ role: 'user', content: 'Hello' });
  });

  it('Gemini: inlineData parts with the media type and base64 bytes, then the text', async () => {
    const body = await send('gemini', (baseUrl) => new GeminiProvider({ baseUrl, ...FAST }));
    const [image, document, text] = body.contents[0].parts;
    expect(body.contents[0].role).toBe('user');
    expect(image).toEqual({ inlineData: { mimeType: 'image/png', data: PNG.toString('base64') } });
    expect(document).toEqual({ inlineData: { mimeType: 'application/pdf', data: PDF.toString('base64') } });
    expect(text.text.split('\n\n')).toEqual(['What is in these?', IMAGE_NOTE, PDF_NOTE, missingNote]);
  });
});
