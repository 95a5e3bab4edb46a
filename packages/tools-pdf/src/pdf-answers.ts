import { byteSize } from '@oneclaw/core';
import { formatPageRanges } from './page-ranges';
import type { PdfFileInfo, PdfRender, PdfText } from './pdf-service';
import { describeRenderLimits, MAX_DPI, MIN_DPI, type RenderLimits } from './render-plan';

/** The text pdf_info answers with: one "Label: value" line per known fact. */
export function formatPdfInfo(info: PdfFileInfo): string {
  const lines = [
    `PDF: ${info.path}`,
    `Pages: ${info.pageCount}`,
    `File size: ${info.fileBytes} bytes (${byteSize(info.fileBytes)})`,
    ...(info.pdfVersion ? [`PDF version: ${info.pdfVersion}`] : []),
    `Encrypted: ${info.encryption ? `yes (${info.encryption} security handler; it opens without a password)` : 'no'}`,
  ];
  if (info.firstPage) {
    const { widthPt, heightPt } = info.firstPage;
    lines.push(`First page size: ${widthPt} x ${heightPt} pt (${inches(widthPt)} x ${inches(heightPt)} in, ${mm(widthPt)} x ${mm(heightPt)} mm)`);
  }
  const fields: [string, string | undefined][] = [
    ['Title', info.title],
    ['Author', info.author],
    ['Subject', info.subject],
    ['Keywords', info.keywords],
    ['Creator', info.creator],
    ['Producer', info.producer],
    ['Created', info.created],
    ['Modified', info.modified],
  ];
  for (const [label, value] of fields) if (value !== undefined) lines.push(`${label}: ${value}`);
  return lines.join('\n');
}

const NO_TEXT = '(no text on this page: it may be a scanned image, which pdf_render_page can show)';

/**
 * The pages' text under one header each, cut at `maxChars` with a note naming the pages still to
 * read, so the model can go on where the text stopped.
 */
export function formatPdfText(result: PdfText, maxChars: number): string {
  let out = '';
  const complete: number[] = [];
  let cutPage: number | undefined;
  for (const { page, text } of result.texts) {
    const piece = `${out === '' ? '' : '\n\n'}--- Page ${page} of ${result.pageCount} ---\n${text === '' ? NO_TEXT : text}`;
    if (out.length + piece.length <= maxChars) {
      out += piece;
      complete.push(page);
      continue;
    }
    out += cutBefore(piece, maxChars - out.length);
    cutPage = page;
    break;
  }
  const done = new Set(complete);
  const remaining = result.selected.filter((page) => !done.has(page));
  if (remaining.length === 0) return out;
  const where = cutPage === undefined ? '' : `; page ${cutPage} is incomplete`;
  const finished = complete.length === 0 ? '' : complete.length === 1 ? ` Page ${complete[0]} is complete.` : ` Pages ${formatPageRanges(complete)} are complete.`;
  return `${out}\n\n[Text cut at ${maxChars} characters${where}.${finished} To read on, call pdf_extract_text with pages "${formatPageRanges(remaining)}".]`;
}

export function formatPdfRender(render: PdfRender, requestedDpi: number, limits: RenderLimits): string {
  const lines = [
    `Rendered page ${pageOf(render)} of '${render.path}' to '${render.outputPath}': ${render.width} x ${render.height} pixels at ${render.dpi} dpi (PNG, ${byteSize(render.pngBytes)}).`,
  ];
  if (render.adjusted === 'range') lines.push(`The dpi asked for (${requestedDpi}) is outside ${MIN_DPI}..${MAX_DPI}, so ${render.dpi} was used.`);
  if (render.adjusted === 'size') {
    lines.push(
      `The page is too large to render at ${Math.min(MAX_DPI, Math.max(MIN_DPI, requestedDpi))} dpi within the limit of ${describeRenderLimits(limits)}, so ${render.dpi} dpi was used.`,
    );
  }
  return lines.join('\n');
}

function pageOf(render: PdfRender): string {
  return `${render.page} of ${render.pageCount}`;
}

/** Cuts without splitting a surrogate pair. */
function cutBefore(text: string, keep: number): string {
  let end = Math.max(0, keep);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

const inches = (pt: number) => round(pt / 72, 2);
const mm = (pt: number) => round((pt / 72) * 25.4, 1);

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
