/**
 * Entry point of the PDF worker thread (see PdfWorkerPool). pdfjs parses untrusted bytes here, off
 * the server's main thread; a job that runs too long is ended by terminating this thread. One job
 * at a time.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { createCanvas } from '@napi-rs/canvas';
import { OneClawError } from '@oneclaw/core';
import type * as Pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs' with { 'resolution-mode': 'import' };
import { selectPages } from './page-ranges';
import type { FromPdfWorker, PdfDocumentInfo, PdfJob, PdfPageText, PdfRenderResult, PdfTextResult, ToPdfWorker } from './pdf-worker-protocol';
import { planRender } from './render-plan';

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
  const canvas = createCanvas(plan.width, plan.height);
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
  const encoded = await canvas.encode('png');
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
  const detail = error instanceof Error && error.message ? ` (${error.message.replace(/\.$/, '')})` : '';
  return new OneClawError(
    'invalid_pdf',
    `${quoted(fileName)} could not be read as a PDF${detail}: the file is damaged or not a PDF. Check the file, or ask the user for another copy.`,
  );
}

function describeError(error: unknown, fileName: string): { code: string; message: string } {
  if (error instanceof OneClawError) return { code: error.code, message: error.message };
  // Anything pdfjs throws after the document opened means a part of it could not be parsed.
  const { code, message } = invalidPdf(error, fileName);
  return { code, message };
}

function quoted(fileName: string): string {
  return `'${fileName}'`;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
