import { builtinTool, MAX_ANSWER_CHARS, type Tool, type ToolGroupDefinition } from '@oneclaw/tool-registry';
import { formatPdfInfo, formatPdfRender, formatPdfText } from './pdf-answers';
import type { PdfService } from './pdf-service';
import { DEFAULT_DPI, MAX_DPI, MIN_DPI } from './render-plan';

/** The group the model loads with load_tool_group("pdf"); the server lists it among its built-in groups. */
export const PDF_TOOL_GROUP = {
  name: 'pdf',
  displayName: 'PDF Tools',
  description: 'Read PDF text and metadata; render pages.',
} as const satisfies ToolGroupDefinition;

export const DEFAULT_MAX_CHARS = 50_000;
/** One answer holds at most this much text (the engine's cut would drop the "read on" note). */
export const MAX_TEXT_CHARS = MAX_ANSWER_CHARS;

const pathParameter = {
  type: 'string',
  minLength: 1,
  description: 'Path of the PDF file, relative to the files folder, e.g. "docs/report.pdf".',
} as const;

interface InfoParams {
  readonly path: string;
}

interface TextParams {
  readonly path: string;
  readonly pages?: string;
  readonly max_chars?: number;
}

interface RenderParams {
  readonly path: string;
  readonly page: number;
  readonly dpi?: number;
  readonly output_path?: string;
}

/** The pdf group (CATALOGUE.md section 8): pdf_info, pdf_extract_text, pdf_render_page. */
export function createPdfTools(service: PdfService): Tool[] {
  return [
    builtinTool<InfoParams>(
      {
        name: 'pdf_info',
        description:
          'Facts about a PDF file in the files folder: page count, title, author and other document info, creation and modification dates, first page size, whether it is encrypted, file size.',
        parameters: { type: 'object', properties: { path: pathParameter }, required: ['path'] },
        timeoutMs: 15_000,
      },
      async (params, context) => formatPdfInfo(await service.info(params.path, context.signal)),
    ),
    builtinTool<TextParams>(
      {
        name: 'pdf_extract_text',
        description: `The text of a PDF file in the files folder, page by page under a header per page. Long text is cut at max_chars with a note saying which pages to ask for next.`,
        parameters: {
          type: 'object',
          properties: {
            path: pathParameter,
            pages: { type: 'string', maxLength: 1000, description: 'Pages to read, such as "1-5,7" or "3-" (page 3 to the end). Default: all pages.' },
            max_chars: {
              type: 'integer',
              minimum: 1,
              description: `Most characters to return (default ${DEFAULT_MAX_CHARS}; one result holds at most ${MAX_TEXT_CHARS}).`,
            },
          },
          required: ['path'],
        },
        timeoutMs: 30_000,
      },
      async (params, context) => {
        const maxChars = Math.min(params.max_chars ?? DEFAULT_MAX_CHARS, MAX_TEXT_CHARS);
        return formatPdfText(await service.extractText(params.path, params.pages, maxChars, context.signal), maxChars);
      },
    ),
    builtinTool<RenderParams>(
      {
        name: 'pdf_render_page',
        description: 'Renders one page of a PDF file in the files folder to a PNG image in the files folder, and answers with its path and size in pixels.',
        parameters: {
          type: 'object',
          properties: {
            path: pathParameter,
            page: { type: 'integer', minimum: 1, description: 'The page to render; the first page is 1.' },
            dpi: { type: 'number', description: `Resolution in dots per inch (default ${DEFAULT_DPI}; clamped to ${MIN_DPI}..${MAX_DPI}).` },
            output_path: {
              type: 'string',
              minLength: 1,
              description: 'Where to write the PNG, relative to the files folder (default "pdf-renders/<file name>-page-<page>.png"). An existing file there is replaced.',
            },
          },
          required: ['path', 'page'],
        },
        timeoutMs: 30_000,
      },
      async (params, context) => {
        const dpi = params.dpi ?? DEFAULT_DPI;
        const render = await service.renderPage(params.path, params.page, dpi, params.output_path, context.signal);
        return formatPdfRender(render, dpi, service.limits);
      },
    ),
  ];
}
