import { ATTACHMENT_MAX_BYTES, attachmentProblem, fileSize } from './attachment-files';

describe('attachment checks before upload (issue 15)', () => {
  it('accepts the image types and PDFs up to the limit', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf']) {
      expect(attachmentProblem({ name: 'f', type, size: 10 })).toBeUndefined();
    }
    expect(attachmentProblem({ name: 'f.pdf', type: 'application/pdf', size: ATTACHMENT_MAX_BYTES })).toBeUndefined();
  });

  it('names the file and says what is allowed when the type or size is wrong', () => {
    expect(attachmentProblem({ name: 'notes.txt', type: 'text/plain', size: 10 })).toBe('"notes.txt" cannot be attached: only PNG, JPEG, GIF and WebP images and PDF files can.');
    expect(attachmentProblem({ name: 'scan.pdf', type: 'application/pdf', size: 25 * 1024 * 1024 })).toBe('"scan.pdf" is too big (25 MB): files up to 20 MB can be attached.');
    expect(attachmentProblem({ name: 'scan.pdf', type: 'application/pdf', size: ATTACHMENT_MAX_BYTES + 1 })).toContain('is too big');
    expect(attachmentProblem({ name: 'e.png', type: 'image/png', size: 0 })).toBe('"e.png" is empty.');
  });

  it('writes sizes as people read them', () => {
    expect([fileSize(812), fileSize(2458), fileSize(21 * 1024 * 1024)]).toEqual(['812 B', '2.4 KB', '21 MB']);
  });
});
