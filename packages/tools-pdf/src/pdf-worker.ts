/**
 * Entry point of the PDF worker thread (see PdfWorkerPool). pdfjs parses untrusted bytes here, off
 * the server's main thread; a job that runs too long is ended by terminating this thread. One job
 * at a time.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { type Canvas, createCanvas } from '@napi-rs/canvas';
import { OneClawError } from '@oneclaw/core';
import type * as Pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs' with { 'resolution-mode': 'import' };
import { selectPages } from './page-ranges';
import type { FromPdfWorker, PdfDocumentInfo, PdfJob, PdfPageText, PdfRenderResult, PdfTextResult, ToPdfWorker } from './pdf-worker-protocol';
import { describeRenderLimits, fitsRenderLimits, MAX_PAGE_PT, planRender, type RenderPlan } from './render-plan';

type PdfjsModule = typeof Pdfjs;
type PdfDocument = Pdfjs.PDFDocumentProxy;

const port = parentPort;
if (!port) throw new Error('pdf-worker must run in a worker thread');

// pdfjs is ESM-only. `import()` written out would be rewritten into require() by swc and tsc
// (CommonJS output), which cannot load it; a Function body is left alone.
const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;
const pdfjsRoot = path.dirname(require.resolve('pdfjs-dist/package.json'));
const folderUrl = (name: string) => `${path.join(pdfjsRoot, name)}${path.sep}`;
let pdfjs: Promise<PdfjsModule> | undefined;

function loadPdfjs(): Promise<PdfjsModule> {
  pdfjs ??= importModule(pathToFileURL(path.join(pdfjsRoot, 'legacy/build/pdf.mjs')).href) as Promise<PdfjsModule>;
  return pdfjs;
}

port.on('message', ({ id, job }: ToPdfWorker) => {
  void runJob(job).then(
    (result) => port.postMessage({ id, ok: true, result } satisfies FromPdfWorker, 'png' in result ? [result.png.buffer as ArrayBuffer] : []),
    (error: unknown) => port.postMessage({ id, ok: false, ...describeError(error, job.fileName) } satisfies FromPdfWorker),
  );
});

async function runJob(job: PdfJob): Promise<PdfDocumentInfo | PdfTextResult | PdfRenderResult> {
  const lib = await loadPdfjs();
  const document = await open(lib, job);
  try {
    switch (job.op) {
      case 'info':
        return await documentInfo(lib, document);
      case 'text':
        return await documentText(document, job);
      case 'render':
        return await renderPage(document, job);
    }
  } finally {
    await document.destroy();
  }
}

async function open(lib: PdfjsModule, job: PdfJob): Promise<PdfDocument> {
  const task = lib.getDocument({
    data: job.bytes,
    // Fonts a PDF names but does not embed (Helvetica...) come from the package's own files.
    standardFontDataUrl: folderUrl('standard_fonts'),
    cMapUrl: folderUrl('cmaps'),
    cMapPacked: true,
    wasmUrl: folderUrl('wasm'),
    iccUrl: folderUrl('iccs'),
    // Fonts are compiled by interpretation, never by eval of PDF-derived code.
    isEvalSupported: false,
    useSystemFonts: false,
    enableXfa: false,
    // A decoded image above this many pixels is skipped rather than allocated.
    maxImageSize: 50_000_000,
    verbosity: lib.VerbosityLevel.ERRORS,
  });
  try {
    return await task.promise;
  } catch (error) {
    throw openError(error, job.fileName);
  }
}

async function documentInfo(lib: PdfjsModule, document: PdfDocument): Promise<PdfDocumentInfo> {
  const { info } = await document.getMetadata();
  const fields = (info ?? {}) as Record<string, unknown>;
  const text = (key: string): string | undefined => {
    const value = fields[key];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const date = (key: string): string | undefined => {
    const raw = text(key);
    if (raw === undefined) return undefined;
    const parsed = lib.PDFDateString.toDateObject(raw);
    return parsed && !Number.isNaN(parsed.getTime()) ? parsed.toISOString() : raw;
  };
  let firstPage: PdfDocumentInfo['firstPage'];
  if (document.numPages > 0) {
    const viewport = (await document.getPage(1)).getViewport({ scale: 1 });
    firstPage = { widthPt: round2(viewport.width), heightPt: round2(viewport.height) };
  }
  const optional = {
    title: text('Title'),
    author: text('Author'),
    subject: text('Subject'),
    keywords: text('Keywords'),
    creator: text('Creator'),
    producer: text('Producer'),
    created: date('CreationDate'),
    modified: date('ModDate'),
  };
  return {
    pageCount: document.numPages,
    pdfVersion: text('PDFFormatVersion'),
    encryption: text('EncryptFilterName'),
    firstPage,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  };
}

async function documentText(document: PdfDocument, job: Extract<PdfJob, { op: 'text' }>): Promise<PdfTextResult> {
  const selected = selectPages(job.ranges, document.numPages, quoted(job.fileName));
  const texts: PdfPageText[] = [];
  let chars = 0;
  for (const number of selected) {
    if (chars > job.maxChars) break; // the rest would be cut anyway; the answer says how to read on
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    let text = '';
    for (const item of content.items) {
      if (!('str' in item)) continue;
      text += item.str;
      if (item.hasEOL) text += '\n';
    }
    page.cleanup();
    const trimmed = text.replace(/[ \t]+\n/g, '\n').trim();
    texts.push({ page: number, text: trimmed });
    chars += trimmed.length;
  }
  return { pageCount: document.numPages, selected, texts };
}

async function renderPage(document: PdfDocument, job: Extract<PdfJob, { op: 'render' }>): Promise<PdfRenderResult> {
  if (job.page > document.numPages) {
    throw new OneClawError(
      'invalid_page',
      `Page ${job.page} does not exist: ${quoted(job.fileName)} has ${document.numPages} ${document.numPages === 1 ? 'page' : 'pages'}. Ask for a page from 1 to ${document.numPages}.`,
    );
  }
  const page = await document.getPage(job.page);
  const natural = page.getViewport({ scale: 1 });
  const plan = planRender(natural.width, natural.height, job.dpi, job.limits);
  if ('refused' in plan) throw unrenderablePage(plan.refused, natural, job);
  // The canvas is native memory, outside this thread's heap limit: nothing over the cap is ever allocated.
  if (!fitsRenderLimits(plan, job.limits)) {
    throw new OneClawError(
      'page_too_large',
      `Page ${job.page} of ${quoted(job.fileName)} would be ${plan.width} x ${plan.height} pixels, over the limit of ${describeRenderLimits(job.limits)}. Read its text with pdf_extract_text instead.`,
    );
  }
  let canvas: Canvas;
  try {
    canvas = createCanvas(plan.width, plan.height);
  } catch (error) {
    throw canvasFailed(error, plan, job);
  }
  const context = canvas.getContext('2d');
  // The canvas size is rounded to whole pixels; scale each axis so the page fills it exactly.
  const viewport = page.getViewport({ scale: plan.dpi / 72 });
  await page.render({
    canvas: canvas as unknown as Parameters<typeof page.render>[0]['canvas'],
    canvasContext: context as unknown as Parameters<typeof page.render>[0]['canvasContext'],
    viewport,
    transform: [plan.width / viewport.width, 0, 0, plan.height / viewport.height, 0, 0],
    background: 'white',
  }).promise;
  let encoded: Buffer;
  try {
    encoded = await canvas.encode('png');
  } catch (error) {
    throw canvasFailed(error, plan, job);
  }
  page.cleanup();
  // A fresh ArrayBuffer of its own, so it can be transferred without copying again.
  const png = new Uint8Array(encoded.byteLength);
  png.set(encoded);
  return { pageCount: document.numPages, png, width: plan.width, height: plan.height, dpi: plan.dpi, ...(plan.adjusted ? { adjusted: plan.adjusted } : {}) };
}

function openError(error: unknown, fileName: string): OneClawError {
  const name = error instanceof Error ? error.name : '';
  if (name === 'PasswordException') {
    return new OneClawError(
      'pdf_encrypted',
      `${quoted(fileName)} is protected by a password, and PDF tools cannot open password-protected files. Ask the user for a copy without a password.`,
    );
  }
  return invalidPdf(error, fileName);
}

function invalidPdf(error: unknown, fileName: string): OneClawError {
  return new OneClawError(
    'invalid_pdf',
    `${quoted(fileName)} could not be read as a PDF${errorDetail(error)}: the file is damaged or not a PDF. Check the file, or ask the user for another copy.`,
  );
}

function unrenderablePage(reason: 'empty' | 'too_large', natural: { width: number; height: number }, job: Extract<PdfJob, { op: 'render' }>): OneClawError {
  const size = `${round2(natural.width)} x ${round2(natural.height)} pt`;
  if (reason === 'empty') {
    return new OneClawError(
      'invalid_pdf',
      `Page ${job.page} of ${quoted(job.fileName)} has no area (${size}): the file is damaged. Read its text with pdf_extract_text, or ask the user for another copy.`,
    );
  }
  return new OneClawError(
    'page_too_large',
    `Page ${job.page} of ${quoted(job.fileName)} measures ${size}, larger than a PDF page can be (at most ${MAX_PAGE_PT} pt, 15 million inches, a side), so no image of it can be drawn within the limit of ${describeRenderLimits(job.limits)}. The file is probably damaged; read its text with pdf_extract_text instead.`,
  );
}

/** A canvas that fails (no memory for its surface, say) is not the PDF's fault, so it is not invalid_pdf. */
function canvasFailed(error: unknown, plan: RenderPlan, job: Extract<PdfJob, { op: 'render' }>): OneClawError {
  return new OneClawError(
    'pdf_engine_failed',
    `The PDF engine could not draw page ${job.page} of ${quoted(job.fileName)} as a ${plan.width} x ${plan.height} pixel image${errorDetail(error)}. Try again with a lower dpi.`,
  );
}

function describeError(error: unknown, fileName: string): { code: string; message: string } {
  if (error instanceof OneClawError) return { code: error.code, message: error.message };
  // Anything pdfjs throws after the document opened means a part of it could not be parsed.
  const { code, message } = invalidPdf(error, fileName);
  return { code, message };
}

function errorDetail(error: unknown): string {
  return error instanceof Error && error.message ? ` (${error.message.replace(/\.$/, '')})` : '';
}

function quoted(fileName: string): string {
  return `'${fileName}'`;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
