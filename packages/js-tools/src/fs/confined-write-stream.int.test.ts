import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { codeOf, SECRET, tempFiles, tree, type TempFiles } from './confined-fs.fixture';

let t: TempFiles;
beforeEach(() => {
  t = tempFiles({ maxWriteBytes: 64 });
});
afterEach(() => t.cleanup());

async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as { code?: string }).code ?? 'untyped';
  }
  throw new Error('expected a rejection');
}

describe('ConfinedFs.createWriteStream', () => {
  it('writes to a temp file and renames it into place on commit', async () => {
    const download = t.files.createWriteStream('downloads/report.bin');
    download.stream.write(Buffer.from([0, 1, 2]));
    download.stream.write('abc');
    // Nothing appears under the real name before commit.
    expect(fs.existsSync(t.at('downloads', 'report.bin'))).toBe(false);

    await expect(download.commit()).resolves.toEqual({ path: 'downloads/report.bin', bytes: 6 });

    expect(fs.readFileSync(t.at('downloads', 'report.bin'))).toEqual(Buffer.from([0, 1, 2, 0x61, 0x62, 0x63]));
    expect(tree(t.root)).toEqual(['downloads', 'downloads/report.bin']);
    await download.abort(); // no-op once committed
    expect(fs.existsSync(t.at('downloads', 'report.bin'))).toBe(true);
  });

  it('commits a stream a pipeline already ended, replacing the old file', async () => {
    t.files.writeFile('page.html', 'old');
    const download = t.files.createWriteStream('page.html');
    await pipeline(Readable.from([Buffer.from('<html>'), Buffer.from('</html>')]), download.stream);
    await expect(download.commit()).resolves.toEqual({ path: 'page.html', bytes: 13 });
    expect(t.files.readFile('page.html')).toBe('<html></html>');
    expect(tree(t.root)).toEqual(['page.html']);
  });

  it('abort leaves no temp file and the old content in place; commit afterwards is refused', async () => {
    t.files.writeFile('keep.txt', 'original');
    const download = t.files.createWriteStream('keep.txt');
    download.stream.write('partial');
    await download.abort();
    expect(tree(t.root)).toEqual(['keep.txt']);
    expect(t.files.readFile('keep.txt')).toBe('original');
    expect(await rejection(download.commit())).toBe('io_error');
  });

  it('fails the stream past the write limit; commit rejects too_large and removes the temp file', async () => {
    const download = t.files.createWriteStream('big.bin');
    const failed = new Promise<unknown>((resolve) => download.stream.once('error', resolve));
    download.stream.write(Buffer.alloc(40));
    download.stream.write(Buffer.alloc(25));
    expect((await failed) as { code?: string }).toMatchObject({ code: 'too_large' });
    expect(await rejection(download.commit())).toBe('too_large');
    expect(tree(t.root)).toEqual([]);
  });

  it('a stream given its own limit may pass the write limit, up to that limit', async () => {
    const larger = t.files.createWriteStream('larger.bin', { maxBytes: 100 });
    larger.stream.end(Buffer.alloc(100, 7));
    await expect(larger.commit()).resolves.toEqual({ path: 'larger.bin', bytes: 100 });
    const over = t.files.createWriteStream('over.bin', { maxBytes: 100 });
    over.stream.end(Buffer.alloc(101));
    expect(await rejection(over.commit())).toBe('too_large');
  });

  it('accepts exactly the write limit', async () => {
    const download = t.files.createWriteStream('exact.bin');
    download.stream.end(Buffer.alloc(64, 7));
    await expect(download.commit()).resolves.toEqual({ path: 'exact.bin', bytes: 64 });
  });

  it('refuses to commit over a link swapped in at the target name, and cleans up', async () => {
    const download = t.files.createWriteStream('target.txt');
    download.stream.write('pwned');
    fs.symlinkSync(path.join(t.outside, 'secret.txt'), t.at('target.txt'));
    expect(await rejection(download.commit())).toBe('forbidden');
    expect(fs.readFileSync(path.join(t.outside, 'secret.txt'), 'utf8')).toBe(SECRET);
    expect(tree(t.root)).toEqual(['target.txt']);
    expect(fs.lstatSync(t.at('target.txt')).isSymbolicLink()).toBe(true);
  });

  it('refuses targets that are links or folders before creating anything', () => {
    fs.symlinkSync(path.join(t.outside, 'secret.txt'), t.at('link'));
    t.files.writeFile('dir/x', '');
    expect(codeOf(() => t.files.createWriteStream('link'))).toBe('forbidden');
    expect(codeOf(() => t.files.createWriteStream('dir'))).toBe('not_a_file');
    expect(tree(t.root)).toEqual(['dir', 'dir/x', 'link']);
  });
});
