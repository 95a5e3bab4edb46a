import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { ToolExecutionEngine, ToolRegistry, type ToolResult } from '@oneclaw/tool-registry';
import { MAX_TEXT_CHARS, createPdfTools, PDF_TOOL_GROUP } from './pdf-tools';
import { PdfService, RENDER_FOLDER } from './pdf-service';
import { PdfWorkerPool } from './pdf-worker-pool';
import { writeBoxPdf, writeTestPdf } from './testing/test-pdfs';

// Real PDFs (pdfkit), real pdfjs in a real worker thread, real PNGs (@napi-rs/canvas), real files.
let dir: string;
let files: string;
let pool: PdfWorkerPool;
let service: PdfService;
let registry: ToolRegistry;
let engine: ToolExecutionEngine;
let calls = 0;

const REPORT_INFO = {
  Title: 'Quarterly Report',
  Author: 'Ada Lovelace',
  Subject: 'Numbers',
  Keywords: 'q3, finance',
  Creator: 'Test Suite',
  Producer: 'pdfkit',
  CreationDate: new Date('2024-03-05T10:20:30Z'),
  ModDate: new Date('2024-04-01T08:00:00Z'),
};
const sentence = (n: number) => `This is sentence number ${n} of the long document. `;
const longPage = (page: number, chars: number) => {
  let text = `Start of page ${page}. `;
  for (let n = 1; text.length < chars; n += 1) text += sentence(n);
  return text;
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-pdf-'));
  files = path.join(dir, 'files');
  mkdirSync(files);
  await writeTestPdf(path.join(files, 'docs/report.pdf'), {
    pages: ['Alpha page one', 'Bravo page two', 'Charlie page three'],
    info: REPORT_INFO,
    fontSize: 40,
  });
  await writeTestPdf(path.join(files, 'five.pdf'), { pages: [1, 2, 3, 4, 5].map((p) => longPage(p, 300)), fontSize: 10 });
  await writeTestPdf(path.join(files, 'huge-text.pdf'), { pages: [1, 2, 3, 4, 5, 6].map((p) => longPage(p, 6_000)), fontSize: 7 });
  await writeTestPdf(path.join(files, 'blank.pdf'), { pages: [''] });
  await writeTestPdf(path.join(files, 'locked.pdf'), { pages: ['Secret'], userPassword: 'secret', ownerPassword: 'owner' });
  await writeTestPdf(path.join(files, 'owner-only.pdf'), { pages: ['Readable'], ownerPassword: 'owner' });
  await writeTestPdf(path.join(dir, 'outside.pdf'), { pages: ['Outside the root'] });
  writeFileSync(path.join(files, 'notes.txt'), 'just some notes, not a PDF');
  writeFileSync(path.join(files, 'damaged.pdf'), `%PDF-1.7\n${'garbage '.repeat(200)}`);
  mkdirSync(path.join(files, 'folder.pdf'));
  // Tiny files with huge pages, the left half of each painted black.
  writeBoxPdf(path.join(files, 'huge-page.pdf'), '0 0 1200000 1200000', '0 g 0 0 600000 1200000 re f');
  writeBoxPdf(path.join(files, 'ten-million.pdf'), '0 0 1e7 1e7', '0 g 0 0 5000000 10000000 re f');
  writeBoxPdf(path.join(files, 'beyond.pdf'), '0 0 2000000000 2000000000', '0 g 0 0 1000000000 2000000000 re f');
  writeBoxPdf(path.join(files, 'infinite.pdf'), '0 0 1e400 1e400');
  symlinkSync(path.join(dir, 'outside.pdf'), path.join(files, 'escape.pdf'));

  pool = new PdfWorkerPool({ maxWorkers: 1 });
  service = new PdfService({ filesRoot: files, pool });
  registry = new ToolRegistry();
  registry.registerGroup(PDF_TOOL_GROUP, { kind: 'built-in', fileName: 'pdf-tools.ts' });
  for (const tool of createPdfTools(service)) registry.register(tool, { kind: 'built-in', fileName: 'pdf-tools.ts', group: 'pdf' });
  engine = new ToolExecutionEngine(registry);
});

afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(toolName: string, args: Record<string, unknown>): Promise<ToolResult> {
  calls += 1;
  const outcome = await engine.execute({ callId: `c${calls}`, toolName, arguments: args }, { sessionId: 's', activeToolNames: registry.toolNames() });
  return outcome.result;
}

async function text(toolName: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(toolName, args);
  if (result.status !== 'success') throw new Error(`expected success, got ${result.errorType}: ${result.message}`);
  return result.result;
}

async function expectError(toolName: string, args: Record<string, unknown>, errorType: string, needle?: string): Promise<string> {
  const result = await call(toolName, args);
  expect(result).toMatchObject({ status: 'error', errorType });
  const message = result.status === 'error' ? result.message : '';
  if (needle) expect(message).toContain(needle);
  return message;
}

function toolOf(pdf: PdfService, name: string) {
  const tool = createPdfTools(pdf).find((t) => t.definition.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

function context(signal: AbortSignal = new AbortController().signal) {
  return { signal, sessionId: 's', callId: 'c', env: {} };
}

const filesIn = (folder: string): string[] => (existsSync(folder) ? readdirSync(folder, { recursive: true }).map(String).sort() : []);

describe('pdf group registration (issue 6, G8)', () => {
  it('registers the three pdf tools in the pdf group with the catalogue timeouts', () => {
    expect(registry.groupToolNames('pdf')).toEqual(['pdf_info', 'pdf_extract_text', 'pdf_render_page']);
    expect(registry.definition('pdf_info')?.timeoutMs).toBe(15_000);
    expect(registry.definition('pdf_extract_text')?.timeoutMs).toBe(30_000);
    expect(registry.definition('pdf_render_page')?.timeoutMs).toBe(30_000);
  });
});

describe('pdf_info', () => {
  it('answers page count, document info, dates, first page size, encryption and file size', async () => {
    const answer = await text('pdf_info', { path: 'docs/report.pdf' });
    const size = readFileSync(path.join(files, 'docs/report.pdf')).byteLength;
    expect(answer).toContain('PDF: docs/report.pdf');
    expect(answer).toContain('Pages: 3');
    expect(answer).toContain(`File size: ${size} bytes`);
    expect(answer).toContain('Encrypted: no');
    expect(answer).toContain('First page size: 612 x 792 pt (8.5 x 11 in, 215.9 x 279.4 mm)');
    expect(answer).toContain('Title: Quarterly Report');
    expect(answer).toContain('Author: Ada Lovelace');
    expect(answer).toContain('Subject: Numbers');
    expect(answer).toContain('Keywords: q3, finance');
    expect(answer).toContain('Creator: Test Suite');
    expect(answer).toContain('Producer: pdfkit');
    expect(answer).toContain('Created: 2024-03-05T10:20:30.000Z');
    expect(answer).toContain('Modified: 2024-04-01T08:00:00.000Z');
  });

  it('reports a PDF that is encrypted but opens without a password (owner password only)', async () => {
    const answer = await text('pdf_info', { path: 'owner-only.pdf' });
    expect(answer).toContain('Encrypted: yes (Standard security handler; it opens without a password)');
    expect(answer).toContain('Pages: 1');
  });

  it('refuses a password-protected PDF with pdf_encrypted', async () => {
    await expectError('pdf_info', { path: 'locked.pdf' }, 'pdf_encrypted', "'locked.pdf' is protected by a password");
  });

  it('refuses a file that is not a PDF, and a damaged one, with invalid_pdf', async () => {
    await expectError('pdf_info', { path: 'notes.txt' }, 'invalid_pdf', "'notes.txt' is not a PDF file");
    await expectError('pdf_info', { path: 'damaged.pdf' }, 'invalid_pdf', "'damaged.pdf' could not be read as a PDF");
  });

  it('answers not_found for a missing file and not_a_file for a folder', async () => {
    await expectError('pdf_info', { path: 'docs/missing.pdf' }, 'not_found');
    await expectError('pdf_info', { path: 'folder.pdf' }, 'not_a_file');
  });

  it('refuses paths outside the files folder: "..", absolute, and a symlink that escapes (PATH-01, PATH-02, PATH-04)', async () => {
    await expectError('pdf_info', { path: '../outside.pdf' }, 'forbidden', 'outside the files folder');
    await expectError('pdf_info', { path: path.join(dir, 'outside.pdf') }, 'forbidden');
    await expectError('pdf_info', { path: 'escape.pdf' }, 'forbidden', 'symbolic link');
  });

  it('refuses a file over the size cap with too_large, naming the cap', async () => {
    const small = new PdfService({ filesRoot: files, pool, maxFileBytes: 1024 });
    const result = await toolOf(small, 'pdf_info').execute({ path: 'docs/report.pdf' }, context());
    expect(result).toMatchObject({ status: 'error', errorType: 'too_large' });
    expect(result.status === 'error' && result.message).toContain("'docs/report.pdf' is too large");
    expect(result.status === 'error' && result.message).toContain('PDF tools read files up to 1 KB');
  });

  it('refuses bad input through the engine: no path is a validation_error', async () => {
    await expectError('pdf_info', {}, 'validation_error');
    await expectError('pdf_info', { path: '' }, 'validation_error');
  });
});

describe('pdf_extract_text', () => {
  it('answers the text of every page under a header per page', async () => {
    const answer = await text('pdf_extract_text', { path: 'docs/report.pdf' });
    expect(answer).toBe('--- Page 1 of 3 ---\nAlpha page one\n\n--- Page 2 of 3 ---\nBravo page two\n\n--- Page 3 of 3 ---\nCharlie page three');
  });

  it('answers only the chosen pages ("1,3", "2-", "all")', async () => {
    expect(await text('pdf_extract_text', { path: 'docs/report.pdf', pages: '3, 1' })).toBe('--- Page 1 of 3 ---\nAlpha page one\n\n--- Page 3 of 3 ---\nCharlie page three');
    expect(await text('pdf_extract_text', { path: 'docs/report.pdf', pages: '2-' })).toBe('--- Page 2 of 3 ---\nBravo page two\n\n--- Page 3 of 3 ---\nCharlie page three');
    expect(await text('pdf_extract_text', { path: 'docs/report.pdf', pages: 'all' })).toContain('--- Page 3 of 3 ---');
  });

  it('says so when a page has no text (a scanned page, say)', async () => {
    expect(await text('pdf_extract_text', { path: 'blank.pdf' })).toBe('--- Page 1 of 1 ---\n(no text on this page: it may be a scanned image, which pdf_render_page can show)');
  });

  it('cuts the text at max_chars with a note naming the pages to ask for next', async () => {
    const answer = await text('pdf_extract_text', { path: 'five.pdf', max_chars: 500 });
    const [body, note] = answer.split('\n\n[Text cut');
    expect(body?.length).toBe(500);
    expect(body).toContain('--- Page 1 of 5 ---\nStart of page 1.');
    expect(body).toContain('--- Page 2 of 5 ---');
    expect(body).not.toContain('--- Page 3 of 5 ---');
    expect(note).toBe(' at 500 characters; page 2 is incomplete. Page 1 is complete. To read on, call pdf_extract_text with pages "2-5".]');
  });

  it('names the remaining pages of a selection with gaps', async () => {
    const answer = await text('pdf_extract_text', { path: 'five.pdf', pages: '1,3-5', max_chars: 400 });
    expect(answer).toContain('To read on, call pdf_extract_text with pages "3-5".');
  });

  it('stops reading pages once max_chars is reached (the worker does not extract the rest)', async () => {
    const result = await service.extractText('five.pdf', undefined, 10, new AbortController().signal);
    expect(result.selected).toEqual([1, 2, 3, 4, 5]);
    expect(result.texts.map((t) => t.page)).toEqual([1]);
  });

  it(`keeps the note when the text is longer than one tool result can hold (default max_chars 50000 is cut at ${MAX_TEXT_CHARS})`, async () => {
    const answer = await text('pdf_extract_text', { path: 'huge-text.pdf' });
    expect(answer).not.toContain('[truncated:'); // the engine's own cut, which would drop the note
    expect(answer).toMatch(
      new RegExp(`\\n\\n\\[Text cut at ${MAX_TEXT_CHARS} characters; page \\d is incomplete\\..* To read on, call pdf_extract_text with pages "\\d-6"\\.\\]$`),
    );
    expect(answer.indexOf('\n\n[Text cut')).toBe(MAX_TEXT_CHARS);
  });

  it('refuses page selections with a syntax error, page 0, a backwards range, or pages beyond the end (invalid_pages)', async () => {
    await expectError('pdf_extract_text', { path: 'docs/report.pdf', pages: 'first' }, 'invalid_pages', 'such as "1-5,7"');
    await expectError('pdf_extract_text', { path: 'docs/report.pdf', pages: '0-2' }, 'invalid_pages', 'names page 0');
    await expectError('pdf_extract_text', { path: 'docs/report.pdf', pages: '3-1' }, 'invalid_pages', 'backwards');
    await expectError('pdf_extract_text', { path: 'docs/report.pdf', pages: '2,7' }, 'invalid_pages', "Page 7 does not exist: 'docs/report.pdf' has 3 pages. Ask for pages 1-3.");
  });

  it('refuses an encrypted PDF, a non-PDF and a path outside the root', async () => {
    await expectError('pdf_extract_text', { path: 'locked.pdf' }, 'pdf_encrypted');
    await expectError('pdf_extract_text', { path: 'notes.txt' }, 'invalid_pdf');
    await expectError('pdf_extract_text', { path: 'escape.pdf' }, 'forbidden');
  });

  it('refuses a max_chars below 1 or not a whole number (validation_error)', async () => {
    await expectError('pdf_extract_text', { path: 'docs/report.pdf', max_chars: 0 }, 'validation_error');
    await expectError('pdf_extract_text', { path: 'docs/report.pdf', max_chars: 2.5 }, 'validation_error');
  });
});

/** Width and height from the PNG's IHDR chunk, after checking the signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Decodes the PNG and counts dark pixels (text is black on white). */
async function darkPixels(bytes: Buffer): Promise<{ dark: number; total: number }> {
  const image = await loadImage(bytes);
  const canvas = createCanvas(image.width, image.height);
  const context2d = canvas.getContext('2d');
  context2d.drawImage(image, 0, 0);
  const data = context2d.getImageData(0, 0, image.width, image.height).data;
  let dark = 0;
  for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 255) < 96 && (data[i + 1] ?? 255) < 96 && (data[i + 2] ?? 255) < 96) dark += 1;
  return { dark, total: image.width * image.height };
}

/** The grey level (0 black, 255 white) at a point given as fractions of the width and height. */
async function greyAt(bytes: Buffer, x: number, y: number): Promise<number> {
  const image = await loadImage(bytes);
  const canvas = createCanvas(20, 20);
  const context2d = canvas.getContext('2d');
  context2d.drawImage(image, 0, 0, 20, 20);
  return context2d.getImageData(Math.floor(x * 20), Math.floor(y * 20), 1, 1).data[0] ?? -1;
}

describe('pdf_render_page', () => {
  it('renders a page to a PNG in pdf-renders/ at 150 dpi by default: real PNG, right size, text on it', async () => {
    const answer = await text('pdf_render_page', { path: 'docs/report.pdf', page: 2 });
    expect(answer).toMatch(/^Rendered page 2 of 3 of 'docs\/report.pdf' to 'pdf-renders\/report-page-2.png': 1275 x 1650 pixels at 150 dpi \(PNG, [\d.]+ KB\)\.$/);
    const png = readFileSync(path.join(files, RENDER_FOLDER, 'report-page-2.png'));
    expect(pngSize(png)).toEqual({ width: 1275, height: 1650 });
    const { dark, total } = await darkPixels(png);
    expect(dark).toBeGreaterThan(500); // "Bravo page two" at 40 pt
    expect(dark).toBeLessThan(total / 10); // a white page with one line of text, not a black box
  });

  it('writes to output_path, creating its folders, at the dpi asked for', async () => {
    const answer = await text('pdf_render_page', { path: 'docs/report.pdf', page: 1, dpi: 72, output_path: 'images/cover.png' });
    expect(answer).toContain("to 'images/cover.png': 612 x 792 pixels at 72 dpi");
    expect(pngSize(readFileSync(path.join(files, 'images/cover.png')))).toEqual({ width: 612, height: 792 });
  });

  it('clamps the dpi to 72..300 and says so', async () => {
    const answer = await text('pdf_render_page', { path: 'docs/report.pdf', page: 3, dpi: 10, output_path: 'low.png' });
    expect(answer).toContain('612 x 792 pixels at 72 dpi');
    expect(answer).toContain('The dpi asked for (10) is outside 72..300, so 72 was used.');
  });

  it('lowers the dpi of a page too large for the pixel cap, and says so', async () => {
    const capped = new PdfService({ filesRoot: files, pool, renderLimits: { maxPixels: 1_000_000, maxSide: 16_384 } });
    const result = await toolOf(capped, 'pdf_render_page').execute({ path: 'docs/report.pdf', page: 1, dpi: 300, output_path: 'capped.png' }, context());
    // sqrt(1e6 / (8.5 in x 11 in)) = 103.2 dpi: 103 dpi gives 876 x 1133 = 992 508 pixels.
    expect(result).toEqual({
      status: 'success',
      result:
        "Rendered page 1 of 3 of 'docs/report.pdf' to 'capped.png': 876 x 1133 pixels at 103 dpi (PNG, " +
        `${(readFileSync(path.join(files, 'capped.png')).byteLength / 1024).toFixed(1).replace(/\.0$/, '')} KB).\n` +
        'The page is too large to render at 300 dpi within the limit of 1 megapixels (16384 pixels a side), so 103 dpi was used.',
    });
    expect(pngSize(readFileSync(path.join(files, 'capped.png')))).toEqual({ width: 876, height: 1133 });
  });

  it('draws a page too large for the cap even at 1 dpi below 1 dpi, within the cap (a 600-byte PDF with a 1 200 000 pt page)', async () => {
    // At 1 dpi it would be 16667 x 16667 pixels: 278 megapixels, over 1 GB of canvas outside the worker's heap limit.
    const answer = await text('pdf_render_page', { path: 'huge-page.pdf', page: 1 });
    expect(answer).toContain("to 'pdf-renders/huge-page-page-1.png': 5000 x 5000 pixels at 0.3 dpi");
    expect(answer).toContain('The page is too large to render at 150 dpi within the limit of 25 megapixels (16384 pixels a side), so 0.3 dpi was used.');
    const png = readFileSync(path.join(files, RENDER_FOLDER, 'huge-page-page-1.png'));
    expect(pngSize(png)).toEqual({ width: 5000, height: 5000 });
    // The whole page, scaled: its black left half and white right half.
    expect(await greyAt(png, 0.25, 0.5)).toBeLessThan(32);
    expect(await greyAt(png, 0.75, 0.5)).toBeGreaterThan(224);
  });

  it('draws a 10 000 000 pt page (no canvas surface at 1 dpi) instead of calling the PDF damaged', async () => {
    const capped = new PdfService({ filesRoot: files, pool, renderLimits: { maxPixels: 1_000_000, maxSide: 16_384 } });
    const result = await toolOf(capped, 'pdf_render_page').execute({ path: 'ten-million.pdf', page: 1, output_path: 'ten-million.png' }, context());
    expect(result).toMatchObject({ status: 'success', result: expect.stringContaining("to 'ten-million.png': 1000 x 1000 pixels at 0.0072 dpi") });
    const png = readFileSync(path.join(files, 'ten-million.png'));
    expect(pngSize(png)).toEqual({ width: 1000, height: 1000 });
    expect(await greyAt(png, 0.25, 0.5)).toBeLessThan(32);
    expect(await greyAt(png, 0.75, 0.5)).toBeGreaterThan(224);
  });

  it('refuses a page larger than a PDF page can be with page_too_large, naming its size and the cap, and writes nothing', async () => {
    const message = await expectError('pdf_render_page', { path: 'beyond.pdf', page: 1 }, 'page_too_large');
    expect(message).toBe(
      "Page 1 of 'beyond.pdf' measures 2000000000 x 2000000000 pt, larger than a PDF page can be (at most 1080000000 pt, 15 million inches, a side), " +
        'so no image of it can be drawn within the limit of 25 megapixels (16384 pixels a side). The file is probably damaged; read its text with pdf_extract_text instead.',
    );
    await expectError('pdf_render_page', { path: 'infinite.pdf', page: 1 }, 'page_too_large', "Page 1 of 'infinite.pdf' measures Infinity x Infinity pt");
    expect(filesIn(path.join(files, RENDER_FOLDER)).filter((name) => /beyond|infinite/.test(name))).toEqual([]);
    // The file itself is readable.
    expect(await text('pdf_info', { path: 'beyond.pdf' })).toContain('First page size: 2000000000 x 2000000000 pt');
  });

  it('refuses a page beyond the last with invalid_page, and writes nothing', async () => {
    await expectError('pdf_render_page', { path: 'docs/report.pdf', page: 4 }, 'invalid_page', "Page 4 does not exist: 'docs/report.pdf' has 3 pages. Ask for a page from 1 to 3.");
    expect(filesIn(path.join(files, RENDER_FOLDER))).not.toContain('report-page-4.png');
  });

  it('refuses an output_path that is not a .png or is outside the files folder, before rendering', async () => {
    await expectError('pdf_render_page', { path: 'docs/report.pdf', page: 1, output_path: 'page.jpg' }, 'invalid_output_path', 'must name a .png file');
    await expectError('pdf_render_page', { path: 'docs/report.pdf', page: 1, output_path: '../page.png' }, 'forbidden');
    expect(existsSync(path.join(files, 'page.jpg'))).toBe(false);
    expect(existsSync(path.join(dir, 'page.png'))).toBe(false);
  });

  it('refuses an encrypted PDF, a non-PDF, a missing file and a symlink escaping the root', async () => {
    await expectError('pdf_render_page', { path: 'locked.pdf', page: 1 }, 'pdf_encrypted');
    await expectError('pdf_render_page', { path: 'damaged.pdf', page: 1 }, 'invalid_pdf');
    await expectError('pdf_render_page', { path: 'nope.pdf', page: 1 }, 'not_found');
    await expectError('pdf_render_page', { path: 'escape.pdf', page: 1 }, 'forbidden');
  });

  it('refuses a missing or non-positive page (validation_error)', async () => {
    await expectError('pdf_render_page', { path: 'docs/report.pdf' }, 'validation_error');
    await expectError('pdf_render_page', { path: 'docs/report.pdf', page: 0 }, 'validation_error');
    await expectError('pdf_render_page', { path: 'docs/report.pdf', page: 'two' }, 'validation_error');
  });
});

describe('pdf work that outlives its timeout (T3: timeout error returned, work aborted)', () => {
  it('terminates the worker when the call times out, answers timeout, and a fresh worker serves the next call', async () => {
    const restarts = pool.restarts;
    const controller = new AbortController();
    const pending = toolOf(service, 'pdf_render_page').execute({ path: 'docs/report.pdf', page: 1, output_path: 'timed-out.png' }, context(controller.signal));
    // As the engine does on timeout: the job is already in the worker, which is killed.
    controller.abort(new DOMException('timed out', 'TimeoutError'));
    expect(await pending).toMatchObject({ status: 'error', errorType: 'timeout' });
    expect(pool.restarts).toBe(restarts + 1);
    expect(pool.workerCount).toBe(0);
    expect(existsSync(path.join(files, 'timed-out.png'))).toBe(false);
    expect(await text('pdf_info', { path: 'docs/report.pdf' })).toContain('Pages: 3');
    expect(pool.workerCount).toBe(1);
  });

  it('answers cancelled when the turn is stopped', async () => {
    const controller = new AbortController();
    const pending = toolOf(service, 'pdf_info').execute({ path: 'docs/report.pdf' }, context(controller.signal));
    controller.abort(new Error('turn stopped'));
    expect(await pending).toMatchObject({ status: 'error', errorType: 'cancelled' });
  });
});
