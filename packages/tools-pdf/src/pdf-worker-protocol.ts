import type { PageRange } from './page-ranges';
import type { RenderLimits } from './render-plan';

/** What the PDF worker thread is asked to do. `bytes` is transferred, not copied. */
export type PdfJob =
  | { readonly op: 'info'; readonly bytes: Uint8Array; readonly fileName: string }
  | {
      readonly op: 'text';
      readonly bytes: Uint8Array;
      readonly fileName: string;
      readonly ranges: readonly PageRange[] | undefined;
      /** The worker stops reading pages once this much text is in hand. */
      readonly maxChars: number;
    }
  | { readonly op: 'render'; readonly bytes: Uint8Array; readonly fileName: string; readonly page: number; readonly dpi: number; readonly limits: RenderLimits };

export interface PdfDocumentInfo {
  readonly pageCount: number;
  readonly pdfVersion: string | undefined;
  /** The encryption filter ("Standard") of a PDF that opens without a password but is encrypted. */
  readonly encryption: string | undefined;
  readonly title?: string;
  readonly author?: string;
  readonly subject?: string;
  readonly keywords?: string;
  readonly creator?: string;
  readonly producer?: string;
  /** ISO 8601 when the PDF date parses, else the raw text. */
  readonly created?: string;
  readonly modified?: string;
  /** The first page as displayed (rotation applied), in points. */
  readonly firstPage: { readonly widthPt: number; readonly heightPt: number } | undefined;
}

export interface PdfPageText {
  readonly page: number;
  readonly text: string;
}

export interface PdfTextResult {
  readonly pageCount: number;
  /** Every page the selection names, ascending. */
  readonly selected: readonly number[];
  /** The text of the first of them; fewer than `selected` when the worker stopped at maxChars. */
  readonly texts: readonly PdfPageText[];
}

export interface PdfRenderResult {
  readonly pageCount: number;
  readonly png: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly dpi: number;
  readonly adjusted?: 'range' | 'size';
}

export interface PdfResults {
  readonly info: PdfDocumentInfo;
  readonly text: PdfTextResult;
  readonly render: PdfRenderResult;
}

export type ToPdfWorker = { readonly id: number; readonly job: PdfJob };

export type FromPdfWorker =
  | { readonly id: number; readonly ok: true; readonly result: PdfResults[PdfJob['op']] }
  | { readonly id: number; readonly ok: false; readonly code: string; readonly message: string };
