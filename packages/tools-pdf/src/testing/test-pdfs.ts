import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';

export interface TestPdf {
  /** The text of each page, drawn large in Helvetica (a standard font: no font file embedded). */
  readonly pages: readonly string[];
  readonly info?: PDFKit.DocumentInfo;
  /** [width, height] in points; default US Letter (612 x 792). */
  readonly size?: [number, number];
  readonly userPassword?: string;
  readonly ownerPassword?: string;
  readonly fontSize?: number;
}

/** Writes a real PDF made by pdfkit; folders on the way are created. */
export function writeTestPdf(file: string, spec: TestPdf): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  return new Promise((resolve, reject) => {
    const document = new PDFDocument({
      size: spec.size ?? 'LETTER',
      autoFirstPage: false,
      ...(spec.info ? { info: spec.info } : {}),
      ...(spec.userPassword ? { userPassword: spec.userPassword } : {}),
      ...(spec.ownerPassword ? { ownerPassword: spec.ownerPassword } : {}),
    });
    const out = createWriteStream(file);
    out.on('finish', () => resolve());
    out.on('error', reject);
    document.pipe(out);
    for (const text of spec.pages) {
      document.addPage({ size: spec.size ?? 'LETTER', margin: 72 });
      document
        .font('Helvetica')
        .fontSize(spec.fontSize ?? 24)
        .text(text, 72, 72);
    }
    document.end();
  });
}
