import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PdfService, PdfWorkerPool } from '@oneclaw/tools-pdf';
import { writeTestPdf } from '@oneclaw/tools-pdf/testing';
import { AttachmentStore } from '../../attachments/attachment-store';

// Real PDF, real attachment store on disk, real pdfjs worker: an attached PDF read by `attachment:<hash>`.
let dir: string;
let files: string;
let pool: PdfWorkerPool;
let service: PdfService;
let hash: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-pdf-attach-'));
  files = path.join(dir, 'files');
  mkdirSync(files);
  await writeTestPdf(path.join(dir, 'upload.pdf'), { pages: ['Attached page one'], fontSize: 40 });
  const store = new AttachmentStore(path.join(dir, 'attachments'));
  hash = store.put(readFileSync(path.join(dir, 'upload.pdf')), 'application/pdf', 'upload.pdf').hash;
  pool = new PdfWorkerPool({ maxWorkers: 1 });
  service = new PdfService({ filesRoot: files, pool, attachments: store });
});

afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const signal = new AbortController().signal;

describe('pdf tools on attached PDFs (issue 15)', () => {
  it('reads the text of attachment:<hash> from the attachment store', async () => {
    const text = await service.extractText(`attachment:${hash}`, undefined, 1000, signal);
    expect(text.path).toBe(`attachment:${hash}`);
    expect(JSON.stringify(text.texts)).toContain('Attached page one');
  });

  it('renders it into the files folder under a name made from the hash', async () => {
    const render = await service.renderPage(`attachment:${hash}`, 1, 72, undefined, signal);
    expect(render.outputPath).toBe(`pdf-renders/attachment-${hash.slice(0, 12)}-page-1.png`);
    expect(existsSync(path.join(files, render.outputPath))).toBe(true);
  });

  it('an unknown hash is not_found with what to do; a malformed one is an ordinary (missing) path in the files folder', async () => {
    await expect(service.info(`attachment:${'0'.repeat(64)}`, signal)).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('attach the PDF again') });
    await expect(service.info('attachment:nothex', signal)).rejects.toMatchObject({ code: 'not_found' });
  });
});
