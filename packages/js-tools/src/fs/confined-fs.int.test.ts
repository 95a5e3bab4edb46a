import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ConfinedFs, DEFAULT_MAX_FS_BYTES } from './confined-fs';
import { FsError } from './fs-error';
import { codeOf, errorOf, SECRET, tempFiles, tree, type TempFiles } from './confined-fs.fixture';

const cleanups: TempFiles[] = [];
function setup(options: { maxReadBytes?: number; maxWriteBytes?: number } = {}): TempFiles {
  const t = tempFiles(options);
  cleanups.push(t);
  return t;
}
afterEach(() => {
  for (const t of cleanups.splice(0)) t.cleanup();
});

/** Every byte value, so encodings are shown to round-trip binary data, not just text. */
const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

describe('ConfinedFs', () => {
  describe('root', () => {
    it('creates a missing root and exposes its realpath', () => {
      const t = setup();
      const nested = path.join(t.base, 'a', 'b', 'files');
      fs.mkdirSync(path.join(t.base, 'a'));
      fs.symlinkSync(path.join(t.base, 'a'), path.join(t.base, 'alias'));
      const files = new ConfinedFs({ root: path.join(t.base, 'alias', 'b', 'files') });
      expect(fs.statSync(nested).isDirectory()).toBe(true);
      expect(files.root).toBe(nested);
      // Absolute input may use the configured spelling of the root as well as the real one.
      expect(files.writeFile(path.join(t.base, 'alias', 'b', 'files', 'x.txt'), 'x')).toBe(1);
      expect(files.readFile(path.join(nested, 'x.txt'))).toBe('x');
    });

    it('refuses a root that is a file, and limits that are not byte counts', () => {
      const t = setup();
      expect(codeOf(() => new ConfinedFs({ root: path.join(t.outside, 'secret.txt') }))).toBe('io_error');
      expect(codeOf(() => new ConfinedFs({ root: t.root, maxReadBytes: -1 }))).toBe('invalid_argument');
      expect(codeOf(() => new ConfinedFs({ root: t.root, maxWriteBytes: 1.5 }))).toBe('invalid_argument');
      expect(DEFAULT_MAX_FS_BYTES).toBe(10 * 1024 * 1024);
    });
  });

  describe('read and write', () => {
    it('writes and reads UTF-8 text, counting bytes, creating missing folders', () => {
      const t = setup();
      expect(t.files.writeFile('notes/2024/today.txt', 'héllo ✓')).toBe(Buffer.byteLength('héllo ✓'));
      expect(t.files.readFile('notes/2024/today.txt')).toBe('héllo ✓');
      expect(t.files.readFile('notes/2024/today.txt', 'utf8')).toBe('héllo ✓');
      expect(fs.readFileSync(t.at('notes', '2024', 'today.txt'), 'utf8')).toBe('héllo ✓');
      expect(tree(t.root)).toEqual(['notes', 'notes/2024', 'notes/2024/today.txt']);
    });

    it('replaces the whole content on write, including with less and with nothing', () => {
      const t = setup();
      t.files.writeFile('a.txt', 'a long first version');
      expect(t.files.writeFile('a.txt', 'short')).toBe(5);
      expect(t.files.readFile('a.txt')).toBe('short');
      expect(t.files.writeFile('a.txt', '')).toBe(0);
      expect(fs.statSync(t.at('a.txt')).size).toBe(0);
    });

    it('appends, creating the file when missing', () => {
      const t = setup();
      expect(t.files.appendFile('logs/run.log', 'one\n')).toBe(4);
      expect(t.files.appendFile('logs/run.log', 'two\n')).toBe(4);
      expect(t.files.readFile('logs/run.log')).toBe('one\ntwo\n');
    });

    it('round-trips every byte value through writeBytes and readBytes', () => {
      const t = setup();
      expect(t.files.writeBytes('bin/all.bin', ALL_BYTES)).toBe(256);
      expect(Buffer.compare(t.files.readBytes('bin/all.bin'), ALL_BYTES)).toBe(0);
      expect(Buffer.compare(fs.readFileSync(t.at('bin', 'all.bin')), ALL_BYTES)).toBe(0);
    });

    it.each(['base64', 'base64url'] as const)('round-trips every byte value as %s', (encoding) => {
      const t = setup();
      const encoded = ALL_BYTES.toString(encoding);
      expect(t.files.writeFile('all.bin', encoded, encoding)).toBe(256);
      expect(Buffer.compare(fs.readFileSync(t.at('all.bin')), ALL_BYTES)).toBe(0);
      expect(t.files.readFile('all.bin', encoding)).toBe(encoded);
      expect(t.files.appendFile('all.bin', Buffer.from([0xfb, 0xff]).toString(encoding), encoding)).toBe(2);
      expect(fs.readFileSync(t.at('all.bin')).subarray(256)).toEqual(Buffer.from([0xfb, 0xff]));
    });

    it('accepts line-wrapped base64 and refuses malformed base64 instead of writing something else', () => {
      const t = setup();
      const wrapped = ALL_BYTES.toString('base64').replace(/(.{76})/g, '$1\r\n');
      expect(t.files.writeFile('wrapped.bin', wrapped, 'base64')).toBe(256);
      for (const [content, encoding] of [
        ['not base64!', 'base64'],
        ['ab-_', 'base64'],
        ['ab+/', 'base64url'],
        ['abcde', 'base64'],
        ['ab=c', 'base64'],
      ] as const) {
        expect([content, codeOf(() => t.files.writeFile('bad.bin', content, encoding))]).toEqual([content, 'invalid_argument']);
      }
      expect(t.files.exists('bad.bin')).toBe(false);
    });

    it('refuses unknown encodings and content that is not text or bytes', () => {
      const t = setup();
      t.files.writeFile('a.txt', 'x');
      expect(codeOf(() => t.files.readFile('a.txt', 'latin1' as never))).toBe('invalid_argument');
      expect(codeOf(() => t.files.writeFile('b.txt', 'x', 'hex' as never))).toBe('invalid_argument');
      expect(codeOf(() => t.files.writeFile('b.txt', 42 as never))).toBe('invalid_argument');
      expect(codeOf(() => t.files.writeBytes('b.txt', 'x' as never))).toBe('invalid_argument');
      expect(codeOf(() => t.files.readFile(42 as never))).toBe('invalid_path');
      expect(t.files.exists('b.txt')).toBe(false);
    });

    it('tells a missing file, a folder and a file used as a folder apart', () => {
      const t = setup();
      t.files.writeFile('dir/a.txt', 'x');
      expect(errorOf(() => t.files.readFile('dir/missing.txt'))).toEqual({
        code: 'not_found',
        message: "Nothing exists at 'dir/missing.txt'. List its folder to check the name.",
      });
      expect(codeOf(() => t.files.readFile('dir'))).toBe('not_a_file');
      expect(codeOf(() => t.files.readFile('.'))).toBe('not_a_file');
      expect(codeOf(() => t.files.writeFile('dir', 'x'))).toBe('not_a_file');
      expect(codeOf(() => t.files.writeFile('.', 'x'))).toBe('not_a_file');
      expect(codeOf(() => t.files.writeFile('dir/a.txt/b.txt', 'x'))).toBe('not_a_directory');
      expect(codeOf(() => t.files.writeFile('dir/new/', 'x'))).toBe('invalid_path');
      expect(t.files.readFile('dir/a.txt')).toBe('x');
    });

    it('refuses special files without blocking on them', () => {
      const t = setup();
      try {
        execFileSync('mkfifo', [t.at('pipe')]);
      } catch {
        return; // no mkfifo on this platform
      }
      expect(codeOf(() => t.files.readFile('pipe'))).toBe('not_a_file');
      expect(codeOf(() => t.files.writeFile('pipe', 'x'))).toBe('not_a_file');
      expect(t.files.list()).toEqual([{ name: 'pipe', type: 'other', size: 0 }]);
    });
  });

  it('refuses a loop of links instead of following it', () => {
    const t = setup();
    fs.symlinkSync('b', t.at('a'));
    fs.symlinkSync('a', t.at('b'));
    expect(errorOf(() => t.files.readFile('a'))).toEqual({
      code: 'forbidden',
      message: "Path 'a' goes through too many symbolic links (probably a loop), so it cannot be used. Use another path.",
    });
    expect(codeOf(() => t.files.exists('a/x'))).toBe('forbidden');
    expect(codeOf(() => t.files.writeFile('a', 'x'))).toBe('forbidden');
    expect(t.files.list().map((entry) => entry.type)).toEqual(['symlink', 'symlink']);
  });

  describe('size limits', () => {
    it('reads a file at the read limit and refuses one byte more', () => {
      const t = setup({ maxReadBytes: 16 });
      fs.mkdirSync(t.root, { recursive: true });
      fs.writeFileSync(t.at('ok.bin'), Buffer.alloc(16, 1));
      fs.writeFileSync(t.at('big.bin'), Buffer.alloc(17, 1));
      expect(t.files.readBytes('ok.bin')).toHaveLength(16);
      expect(errorOf(() => t.files.readFile('big.bin'))).toEqual({
        code: 'too_large',
        message: "File 'big.bin' is 17 bytes, over the 16-byte read limit. Only smaller files can be read.",
      });
      expect(codeOf(() => t.files.readBytes('big.bin'))).toBe('too_large');
    });

    it('writes at the write limit and refuses one byte more, leaving the file as it was', () => {
      const t = setup({ maxWriteBytes: 16 });
      expect(t.files.writeFile('a.txt', 'x'.repeat(16))).toBe(16);
      expect(codeOf(() => t.files.writeFile('a.txt', 'y'.repeat(17)))).toBe('too_large');
      expect(codeOf(() => t.files.writeBytes('a.txt', new Uint8Array(17)))).toBe('too_large');
      expect(codeOf(() => t.files.writeFile('a.txt', Buffer.alloc(17).toString('base64'), 'base64'))).toBe('too_large');
      expect(codeOf(() => t.files.writeFile('new/b.txt', 'é'.repeat(9)))).toBe('too_large');
      expect(t.files.readFile('a.txt')).toBe('x'.repeat(16));
      expect(tree(t.root)).toEqual(['a.txt']);
    });

    it('refuses an append that would grow the file past the write limit', () => {
      const t = setup({ maxWriteBytes: 16 });
      t.files.writeFile('log.txt', 'x'.repeat(10));
      expect(errorOf(() => t.files.appendFile('log.txt', 'y'.repeat(7)))).toEqual({
        code: 'too_large',
        message: "Writing to 'log.txt' would make it 17 bytes, over the 16-byte write limit. Write less, or split the content over several files.",
      });
      expect(t.files.readFile('log.txt')).toBe('x'.repeat(10));
      expect(t.files.appendFile('log.txt', 'y'.repeat(6))).toBe(6);
      expect(t.files.readFile('log.txt')).toBe(`${'x'.repeat(10)}${'y'.repeat(6)}`);
    });
  });

  describe('exists, list, delete', () => {
    it('exists answers true for files, folders and the root, false for anything missing', () => {
      const t = setup();
      t.files.writeFile('dir/a.txt', 'x');
      expect(['dir/a.txt', 'dir', '.', t.root].map((p) => t.files.exists(p))).toEqual([true, true, true, true]);
      expect(['missing.txt', 'no/such/dir/x', 'dir/a.txt/below'].map((p) => t.files.exists(p))).toEqual([false, false, false]);
    });

    it('lists a folder sorted by name with sizes of files', () => {
      const t = setup();
      t.files.writeFile('docs/b.md', 'bb');
      t.files.writeFile('docs/a.md', 'a');
      t.files.writeFile('docs/Z.md', 'zzz');
      t.files.writeFile('docs/sub/x', 'x');
      expect(t.files.list('docs')).toEqual([
        { name: 'Z.md', type: 'file', size: 3 },
        { name: 'a.md', type: 'file', size: 1 },
        { name: 'b.md', type: 'file', size: 2 },
        { name: 'sub', type: 'directory', size: 0 },
      ]);
      expect(t.files.list('docs/sub/')).toEqual([{ name: 'x', type: 'file', size: 1 }]);
      expect(codeOf(() => t.files.list('nowhere'))).toBe('not_found');
      expect(codeOf(() => t.files.list('docs/a.md'))).toBe('not_a_directory');
    });

    it('deletes files, links (not their targets) and empty folders; refuses full folders and the root', () => {
      const t = setup();
      t.files.writeFile('dir/a.txt', 'x');
      t.files.writeFile('empty/.keep', '');
      fs.symlinkSync(path.join(t.outside, 'secret.txt'), t.at('leak'));

      expect(codeOf(() => t.files.delete('dir'))).toBe('directory_not_empty');
      expect(t.files.delete('dir/a.txt')).toBe(true);
      expect(t.files.delete('dir/a.txt')).toBe(false);
      expect(t.files.delete('dir')).toBe(true);
      expect(t.files.delete('empty/.keep')).toBe(true);
      expect(t.files.delete('empty')).toBe(true);
      expect(t.files.delete('leak')).toBe(true);
      expect(fs.readFileSync(path.join(t.outside, 'secret.txt'), 'utf8')).toBe(SECRET);
      expect(t.files.delete('never/was/here.txt')).toBe(false);
      for (const root of ['.', './', t.root, 'dir/..']) expect([root, codeOf(() => t.files.delete(root))]).toEqual([root, 'forbidden']);
      expect(tree(t.root)).toEqual([]);
      expect(fs.existsSync(t.root)).toBe(true);
    });
  });

  describe('directory', () => {
    it('answers the realpath of a folder inside the root, the root by default', () => {
      const t = setup();
      t.files.writeFile('projects/app/readme.md', 'x');
      fs.symlinkSync(t.at('projects'), t.at('p'));
      expect(t.files.directory()).toBe(t.root);
      expect(t.files.directory('projects/app')).toBe(t.at('projects', 'app'));
      expect(t.files.directory('p/app/')).toBe(t.at('projects', 'app'));
      expect(t.files.directory(t.at('projects'))).toBe(t.at('projects'));
    });

    it('refuses a missing folder, a file, and anything outside the root, through a link too', () => {
      const t = setup();
      t.files.writeFile('a.txt', 'x');
      fs.symlinkSync(t.outside, t.at('out'));
      expect(codeOf(() => t.files.directory('missing'))).toBe('not_found');
      expect(codeOf(() => t.files.directory('a.txt'))).toBe('not_a_directory');
      for (const escape of ['..', '../outside', t.outside, 'out', 'out/sub', 'out/missing']) {
        expect([escape, codeOf(() => t.files.directory(escape))]).toEqual([escape, 'forbidden']);
      }
    });
  });

  it('never names the host location of the root in an error', () => {
    const t = setup({ maxReadBytes: 1, maxWriteBytes: 1 });
    fs.symlinkSync(t.outside, t.at('out'));
    t.files.writeFile('a', 'x');
    t.files.writeFile('d/b', 'x');
    const failures = [
      () => t.files.readFile('missing'),
      () => t.files.readFile('out/secret.txt'),
      () => t.files.writeFile('out/x', 'x'),
      () => t.files.writeFile('a', 'xx'),
      () => t.files.appendFile('a', 'x'),
      () => t.files.list('a'),
      () => t.files.delete('d'),
      () => t.files.readFile('d'),
      () => t.files.readFile('../x'),
      () => t.files.readFile('a\0'),
    ];
    for (const failure of failures) {
      let thrown: unknown;
      try {
        failure();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(FsError);
      const { message, details } = thrown as FsError;
      expect(message).not.toContain(t.base);
      expect(JSON.stringify(details)).not.toContain(t.base);
    }
  });
});
