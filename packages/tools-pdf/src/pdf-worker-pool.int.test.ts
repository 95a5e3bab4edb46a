import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OneClawError } from '@oneclaw/core';
import { PdfWorkerPool } from './pdf-worker-pool';
import { writeTestPdf } from './testing/test-pdfs';

let dir: string;
let pdf: Buffer;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-pdf-pool-'));
  await writeTestPdf(path.join(dir, 'two.pdf'), { pages: ['One', 'Two'] });
  pdf = readFileSync(path.join(dir, 'two.pdf'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const infoJob = () => ({ op: 'info' as const, bytes: new Uint8Array(pdf), fileName: 'two.pdf' });
const live = () => new AbortController().signal;

async function rejection(promise: Promise<unknown>): Promise<OneClawError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OneClawError);
  return error as OneClawError;
}

describe('PdfWorkerPool', () => {
  it('runs a job in a worker thread and reuses the worker for the next', async () => {
    const pool = new PdfWorkerPool({ maxWorkers: 1 });
    try {
      expect((await pool.run(infoJob(), live())).pageCount).toBe(2);
      expect((await pool.run(infoJob(), live())).pageCount).toBe(2);
      expect(pool.workerCount).toBe(1);
      expect(pool.restarts).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('leaves the caller its bytes when they are a view into a larger buffer (copied before transfer)', async () => {
    const pool = new PdfWorkerPool({ maxWorkers: 1 });
    try {
      const backing = new Uint8Array(pdf.byteLength + 10);
      backing.set(pdf, 5);
      const view = backing.subarray(5, 5 + pdf.byteLength);
      expect((await pool.run({ op: 'info', bytes: view, fileName: 'two.pdf' }, live())).pageCount).toBe(2);
      expect(backing.byteLength).toBe(pdf.byteLength + 10); // not detached
    } finally {
      await pool.close();
    }
  });

  it('drops a queued job whose call timed out while it waited, and still runs the job ahead of it', async () => {
    const pool = new PdfWorkerPool({ maxWorkers: 1 });
    try {
      const first = pool.run(infoJob(), live());
      const controller = new AbortController();
      const second = pool.run(infoJob(), controller.signal);
      controller.abort(new DOMException('timed out', 'TimeoutError'));
      expect((await rejection(second)).code).toBe('timeout');
      expect((await first).pageCount).toBe(2);
      expect(pool.restarts).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('refuses a job whose signal is already aborted without starting a worker', async () => {
    const pool = new PdfWorkerPool();
    try {
      const controller = new AbortController();
      controller.abort(new Error('stopped'));
      expect((await rejection(pool.run(infoJob(), controller.signal))).code).toBe('cancelled');
      expect(pool.workerCount).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('fails the job with pdf_engine_failed when its worker dies (here: out of memory at once), never the server', async () => {
    const starved = new PdfWorkerPool({ maxWorkers: 1, maxHeapMb: 2 });
    try {
      const error = await rejection(starved.run(infoJob(), live()));
      expect(error.code).toBe('pdf_engine_failed');
      expect(starved.restarts).toBe(1);
    } finally {
      await starved.close();
    }
  });

  it('ends running and queued jobs as cancelled on close', async () => {
    const pool = new PdfWorkerPool({ maxWorkers: 1 });
    const running = rejection(pool.run(infoJob(), live()));
    const queued = rejection(pool.run(infoJob(), live()));
    await pool.close();
    expect((await running).code).toBe('cancelled');
    expect((await queued).code).toBe('cancelled');
    expect(pool.workerCount).toBe(0);
    expect((await rejection(pool.run(infoJob(), live()))).code).toBe('cancelled');
  });
});
