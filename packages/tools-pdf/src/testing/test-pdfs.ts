import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
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

/**
 * A one-page PDF written by hand, for page boxes pdfkit will not write (`0 0 1e400 1e400`, which
 * pdfjs reads as Infinity): `mediaBox` and the page's drawing `content` go into the file as given.
 */
export function writeBoxPdf(file: string, mediaBox: string, content = ''): void {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [${mediaBox}] /Contents 4 0 R /Resources << >> >>`,
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(pdf));
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf);
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, pdf);
}
