import path from 'node:path';
import { byteSize, OneClawError } from '@oneclaw/core';
import { ConfinedFs, FsError } from '@oneclaw/js-tools';
import { parsePageRanges } from './page-ranges';
import { PdfWorkerPool } from './pdf-worker-pool';
import type { PdfDocumentInfo, PdfRenderResult, PdfTextResult } from './pdf-worker-protocol';
import { DEFAULT_RENDER_LIMITS, type RenderLimits } from './render-plan';
import type { AttachmentReader } from '../../../turns/load-attachments';

/** PDFs above this are refused: the whole file is read into memory and parsed there. */
export const DEFAULT_MAX_PDF_BYTES = 50 * 1024 * 1024;
/** Where pdf_render_page writes when no output_path is given, inside the files folder. */
export const RENDER_FOLDER = 'pdf-renders';
/** A PNG holds at most 4 bytes a pixel plus a little framing: this fits the largest render allowed. */
const MAX_PNG_BYTES = 128 * 1024 * 1024;

export interface PdfServiceOptions {
  /** The files folder; every path is confined to it (ConfinedFs). */
  readonly filesRoot: string;
  readonly maxFileBytes?: number;
  readonly renderLimits?: RenderLimits;
  readonly pool?: PdfWorkerPool;
  /** Attached files, read by the path `attachment:<hash>` (the model is told it with each attached PDF). */
  readonly attachments?: AttachmentReader;
}

export interface PdfFileInfo extends PdfDocumentInfo {
  /** The path as shown to the model: relative to the files folder. */
  readonly path: string;
  readonly fileBytes: number;
}

export interface PdfText extends PdfTextResult {
  readonly path: string;
}

export interface PdfRender extends Omit<PdfRenderResult, 'png'> {
  readonly path: string;
  readonly page: number;
  readonly outputPath: string;
  readonly pngBytes: number;
}

/**
 * The pdf group's work: files are read and written through ConfinedFs on this thread (so every
 * path check is the one all file tools share), and parsed and drawn by pdfjs in worker threads.
 */
export class PdfService {
  private readonly fs: ConfinedFs;
  private readonly pool: PdfWorkerPool;
  private readonly maxFileBytes: number;
  private readonly renderLimits: RenderLimits;
  private readonly attachments: AttachmentReader | undefined;

  constructor(options: PdfServiceOptions) {
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_PDF_BYTES;
    this.renderLimits = options.renderLimits ?? DEFAULT_RENDER_LIMITS;
    this.fs = new ConfinedFs({ root: options.filesRoot, maxReadBytes: this.maxFileBytes, maxWriteBytes: MAX_PNG_BYTES });
    this.pool = options.pool ?? new PdfWorkerPool();
    this.attachments = options.attachments;
  }

  async info(input: string, signal: AbortSignal): Promise<PdfFileInfo> {
    const { bytes, fileName } = this.readPdf(input);
    const fileBytes = bytes.byteLength;
    const info = await this.pool.run({ op: 'info', bytes, fileName }, signal);
    return { ...info, path: fileName, fileBytes };
  }

  /** `maxChars` only bounds how many pages are read; the caller cuts and explains. */
  async extractText(input: string, pages: string | undefined, maxChars: number, signal: AbortSignal): Promise<PdfText> {
    const ranges = parsePageRanges(pages);
    const { bytes, fileName } = this.readPdf(input);
    const result = await this.pool.run({ op: 'text', bytes, fileName, ranges, maxChars }, signal);
    return { ...result, path: fileName };
  }

  async renderPage(input: string, page: number, dpi: number, outputPath: string | undefined, signal: AbortSignal): Promise<PdfRender> {
    const { bytes, fileName } = this.readPdf(input);
    // Checked before the work, so a bad output path does not cost a render.
    const output = this.fs.displayPath(outputPath ?? defaultOutputPath(fileName, page));
    if (!output.toLowerCase().endsWith('.png')) {
      throw new OneClawError('invalid_output_path', `output_path '${output}' must name a .png file, such as 'images/page-${page}.png'.`);
    }
    const { png, ...rendered } = await this.pool.run({ op: 'render', bytes, fileName, page, dpi, limits: this.renderLimits }, signal);
    this.fs.writeBytes(output, png);
    return { ...rendered, path: fileName, page, outputPath: output, pngBytes: png.byteLength };
  }

  private readAttachment(hash: string): Buffer {
    const bytes = this.attachments?.read(hash);
    if (!bytes) {
      throw new OneClawError('not_found', `No attached file has the hash ${hash}: it is missing from the attachment store. Ask the user to attach the PDF again.`);
    }
    if (bytes.byteLength > this.maxFileBytes) throw new FsError('too_large', 'too large', { bytes: bytes.byteLength });
    return bytes;
  }

  get limits(): RenderLimits {
    return this.renderLimits;
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private readPdf(input: string): { bytes: Uint8Array; fileName: string } {
    const attached = ATTACHMENT_PATH.exec(input.trim());
    const fileName = attached ? `attachment:${attached[1]}` : this.fs.displayPath(input);
    let bytes: Buffer;
    try {
      bytes = attached ? this.readAttachment(attached[1]!) : this.fs.readBytes(input);
    } catch (error) {
      if (error instanceof FsError && error.code === 'too_large') {
        const size = typeof error.details.bytes === 'number' ? ` (${byteSize(error.details.bytes)})` : '';
        throw new OneClawError('too_large', `'${fileName}' is too large${size}: PDF tools read files up to ${byteSize(this.maxFileBytes)}. Split the file or use a smaller one.`);
      }
      throw error;
    }
    // pdfjs would hunt for a PDF inside anything; a file that does not even start like one gets a plain answer.
    if (!bytes.subarray(0, 1024).includes('%PDF-')) {
      throw new OneClawError('invalid_pdf', `'${fileName}' is not a PDF file (it does not start with '%PDF-'). Check the path, or use read_file for other files.`);
    }
    return { bytes, fileName };
  }
}

/**
 * An attached PDF, by the path the model was told: read from the attachment store (outside the
 * files folder, which tools can write; the store they can only read).
 */
const ATTACHMENT_PATH = /^attachment:([0-9a-f]{64})$/;

function defaultOutputPath(fileName: string, page: number): string {
  // `attachment:<hash>` renders to `pdf-renders/attachment-<first 12 hex digits>-page-<n>.png`.
  const base = path.posix.basename(fileName.replace(/^attachment:([0-9a-f]{12})[0-9a-f]*$/, 'attachment-$1')).replace(/\.pdf$/i, '');
  return `${RENDER_FOLDER}/${base}-page-${page}.png`;
}
