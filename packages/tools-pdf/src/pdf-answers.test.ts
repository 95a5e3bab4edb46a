import { describe, expect, it } from '@jest/globals';
import { formatPdfInfo, formatPdfText } from './pdf-answers';

describe('formatPdfText', () => {
  const base = { path: 'a.pdf', pageCount: 3, selected: [1, 2, 3] };

  it('never cuts a character in half (a surrogate pair at the cut)', () => {
    const header = '--- Page 1 of 3 ---\n';
    const answer = formatPdfText({ ...base, texts: [{ page: 1, text: 'ab😀cd' }] }, header.length + 3);
    expect(answer.startsWith(`${header}ab\n\n[Text cut at`)).toBe(true);
  });

  it('names the pages not read when the cut falls between pages', () => {
    const answer = formatPdfText({ ...base, texts: [{ page: 1, text: 'one' }] }, 100);
    expect(answer).toBe('--- Page 1 of 3 ---\none\n\n[Text cut at 100 characters. Page 1 is complete. To read on, call pdf_extract_text with pages "2-3".]');
  });

  it('cuts inside the first page with no page complete', () => {
    const answer = formatPdfText({ ...base, selected: [2], texts: [{ page: 2, text: 'x'.repeat(50) }] }, 30);
    expect(answer).toBe(`--- Page 2 of 3 ---\n${'x'.repeat(10)}\n\n[Text cut at 30 characters; page 2 is incomplete. To read on, call pdf_extract_text with pages "2".]`);
  });
});

describe('formatPdfInfo', () => {
  it('leaves out what the PDF does not have', () => {
    expect(formatPdfInfo({ path: 'bare.pdf', fileBytes: 900, pageCount: 0, pdfVersion: undefined, encryption: undefined, firstPage: undefined })).toBe(
      'PDF: bare.pdf\nPages: 0\nFile size: 900 bytes (900 B)\nEncrypted: no',
    );
  });
});
