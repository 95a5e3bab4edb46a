// The pdf group: its definition and tools (pdf_info, pdf_extract_text, pdf_render_page)
export { createPdfTools, DEFAULT_MAX_CHARS, MAX_TEXT_CHARS, PDF_TOOL_GROUP } from './pdf-tools';

// The work behind them: files through ConfinedFs, parsing in worker threads
export { DEFAULT_MAX_PDF_BYTES, PdfService, RENDER_FOLDER, type AttachmentReader, type PdfFileInfo, type PdfRender, type PdfServiceOptions, type PdfText } from './pdf-service';
export { PdfWorkerPool, type PdfWorkerPoolOptions } from './pdf-worker-pool';
export { DEFAULT_DPI, DEFAULT_RENDER_LIMITS, MAX_DPI, MIN_DPI, type RenderLimits } from './render-plan';
