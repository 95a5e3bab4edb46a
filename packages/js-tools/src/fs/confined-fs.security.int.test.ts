import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { ConfinedFs } from './confined-fs';
import { codeOf, errorOf, EVERY_CALL, SECRET, tempFiles, tree, type TempFiles } from './confined-fs.fixture';
import { isInside } from './confined-path';

// RELIABILITY.md B5.1: one `it` per PATH id, each over every call that takes a path where it applies.

const OUTSIDE_TREE = ['secret.txt', 'sub', 'sub/secret.txt'];
const onLinux = process.platform === 'linux';

let t: TempFiles;
beforeEach(() => {
  t = tempFiles();
});
afterEach(() => {
  jest.restoreAllMocks();
  t.cleanup();
});

/** The refusal every call gives for `input`, checked to leak neither host paths nor outside content. */
function refusals(input: string): Array<[string, string]> {
  return EVERY_CALL.map(([name, call]) => {
    const { code, message } = errorOf(() => call(t.files, input));
    expect(message).not.toContain(t.root);
    expect(message).not.toContain(SECRET);
    return [name, code];
  });
}

function everyCall(code: string): Array<[string, string]> {
  return EVERY_CALL.map(([name]) => [name, code]);
}

describe('ConfinedFs path confinement (B5.1)', () => {
  it.each(['../../etc/passwd', '../outside/secret.txt', 'a/../../outside/secret.txt', '..', './../ws-evil/x'])(
    'PATH-01 refuses %s, which climbs out of the root, for every call',
    (input) => {
      expect(refusals(input)).toEqual(everyCall('forbidden'));
      expect(errorOf(() => t.files.readFile(input)).message).toBe(
        `Path '${input}' is outside the files folder. Use a path relative to the files folder, such as 'notes/today.txt'.`,
      );
      expect(tree(t.outside)).toEqual(OUTSIDE_TREE);
      expect(fs.existsSync(path.join(t.base, 'x'))).toBe(false);
    },
  );

  it('PATH-02 refuses absolute paths outside the root and accepts absolute paths inside it', () => {
    for (const input of ['/etc/passwd', path.join(t.outside, 'secret.txt'), path.join(t.outside, 'new.txt'), '/']) {
      expect(refusals(input)).toEqual(everyCall('forbidden'));
    }
    expect(tree(t.outside)).toEqual(OUTSIDE_TREE);

    expect(t.files.writeFile(t.at('notes', 'a.txt'), 'inside')).toBe(6);
    expect(t.files.readFile('notes/a.txt')).toBe('inside');
    expect(t.files.displayPath(t.at('notes', 'a.txt'))).toBe('notes/a.txt');
    expect(t.files.displayPath(t.root)).toBe('.');
  });

  it.each([
    ['%2e%2e/%2e%2e/etc/passwd', ['%2e%2e', '%2e%2e', 'etc', 'passwd']],
    ['..%2f..%2fetc%2fpasswd', ['..%2f..%2fetc%2fpasswd']],
    ['..%2f', ['..%2f']],
    ['%252e%252e/x', ['%252e%252e', 'x']],
    ['..%c0%af..%c0%afetc', ['..%c0%af..%c0%afetc']],
  ])('PATH-03 never decodes %s: it names a file inside the root', (input, segments) => {
    expect(codeOf(() => t.files.readFile(input))).toBe('not_found');
    expect(t.files.exists(input)).toBe(false);

    expect(t.files.writeFile(input, 'literal')).toBe(7);

    expect(fs.readFileSync(t.at(...segments), 'utf8')).toBe('literal');
    expect(t.files.displayPath(input)).toBe(input);
    expect(t.files.readFile(input)).toBe('literal');
    expect(tree(t.outside)).toEqual(OUTSIDE_TREE);
  });

  it('PATH-04 refuses links that lead out of the root (file, folder, and missing names below them)', () => {
    fs.symlinkSync(path.join(t.outside, 'secret.txt'), t.at('leak'));
    fs.symlinkSync('/etc/passwd', t.at('passwd'));
    fs.symlinkSync(t.outside, t.at('outdir'));
    fs.symlinkSync('../outside/sub', t.at('relative-out'));

    for (const input of ['leak', 'passwd', 'outdir/secret.txt', 'relative-out/secret.txt']) {
      expect([input, codeOf(() => t.files.readFile(input))]).toEqual([input, 'forbidden']);
      expect([input, codeOf(() => t.files.readBytes(input))]).toEqual([input, 'forbidden']);
      expect([input, codeOf(() => t.files.exists(input))]).toEqual([input, 'forbidden']);
    }
    expect(errorOf(() => t.files.readFile('leak')).message).toBe(
      "Path 'leak' leads outside the files folder through a symbolic link. Only files inside the files folder can be used.",
    );
    // A missing name below an escaping link must not say "not found": that would probe the host.
    expect(codeOf(() => t.files.readFile('outdir/missing.txt'))).toBe('forbidden');
    expect(codeOf(() => t.files.exists('outdir/missing/deeper.txt'))).toBe('forbidden');
    expect(codeOf(() => t.files.list('outdir'))).toBe('forbidden');
    expect(codeOf(() => t.files.writeFile('leak', 'overwrite'))).toBe('forbidden');
    expect(codeOf(() => t.files.appendFile('leak', 'more'))).toBe('forbidden');
    expect(fs.readFileSync(path.join(t.outside, 'secret.txt'), 'utf8')).toBe(SECRET);

    // Links that stay inside the root are fine to read through.
    t.files.writeFile('real.txt', 'mine');
    fs.symlinkSync('real.txt', t.at('alias.txt'));
    expect(t.files.readFile('alias.txt')).toBe('mine');
  });

  it('PATH-05 refuses writes through a linked folder, even when the file (and folders below) do not exist yet', () => {
    fs.symlinkSync(t.outside, t.at('out'));
    fs.symlinkSync(path.join(t.base, 'nowhere'), t.at('dangling'));
    const writes: Array<[string, () => unknown]> = [
      ['writeFile', () => t.files.writeFile('out/new.txt', 'x')],
      ['writeBytes', () => t.files.writeBytes('out/new.txt', new Uint8Array([1]))],
      ['appendFile', () => t.files.appendFile('out/new.txt', 'x')],
      ['deep writeFile', () => t.files.writeFile('out/deep/er/new.txt', 'x')],
      ['createWriteStream', () => t.files.createWriteStream('out/new.txt')],
      ['dangling folder', () => t.files.writeFile('dangling/new.txt', 'x')],
      ['dangling deep', () => t.files.writeFile('dangling/a/new.txt', 'x')],
      ['delete', () => t.files.delete('out/secret.txt')],
    ];
    for (const [name, write] of writes) expect([name, codeOf(write)]).toEqual([name, 'forbidden']);
    expect(tree(t.outside)).toEqual(OUTSIDE_TREE);
    expect(fs.existsSync(path.join(t.base, 'nowhere'))).toBe(false);
    expect(tree(t.root)).toEqual(['dangling', 'out']);
  });

  it('PATH-06 tells the sibling folder with the same prefix apart from the root', () => {
    fs.symlinkSync(path.join(t.base, 'ws-evil'), t.at('evil'));
    for (const input of [path.join(t.base, 'ws-evil', 'x'), '../ws-evil/x', 'evil/x']) {
      expect([input, codeOf(() => t.files.readFile(input))]).toEqual([input, 'forbidden']);
      expect([input, codeOf(() => t.files.writeFile(input, 'x'))]).toEqual([input, 'forbidden']);
    }
    expect(fs.readFileSync(path.join(t.base, 'ws-evil', 'x'), 'utf8')).toBe(SECRET);
    expect(isInside('/data/ws', '/data/ws-evil/x')).toBe(false);
    expect(isInside('/data/ws', '/data/ws/..hidden')).toBe(true);
  });

  it.each([
    ['NUL byte', 'a\0b'],
    ['NUL after a good name', 'notes.txt\0.png'],
    ['line break', 'a\nb'],
    ['empty', ''],
    ['over 4096 bytes', 'a/'.repeat(2048) + 'b'],
    ['over 4096 bytes in UTF-8', 'é'.repeat(2049)],
    ['backslash traversal', '..\\..\\etc\\passwd'],
    ['backslash root', '\\..\\'],
    ['backslash name', 'a\\b'],
    ['lone surrogate', 'a\uD800b'],
  ])('PATH-07 refuses %s before any file system call', (_label, input) => {
    const diskCalls = [
      jest.spyOn(fs, 'openSync'),
      jest.spyOn(fs, 'lstatSync'),
      jest.spyOn(fs, 'statSync'),
      jest.spyOn(fs, 'mkdirSync'),
      jest.spyOn(fs, 'readdirSync'),
      jest.spyOn(fs.realpathSync, 'native'),
    ];
    expect(refusals(input)).toEqual(everyCall('invalid_path'));
    for (const spy of diskCalls) expect(spy).not.toHaveBeenCalled();
  });

  it('PATH-07 accepts a path of exactly 4096 bytes (the limit is not off by one)', () => {
    const longest = `${'a'.repeat(199)}/`.repeat(20) + 'b'.repeat(96);
    expect(Buffer.byteLength(longest)).toBe(4096);
    expect(t.files.exists(longest)).toBe(false);
  });

  it.each([undefined, '', '   '])('PATH-08 refuses every call when the root is %p', (root) => {
    const files = new ConfinedFs({ root });
    expect(files.root).toBeUndefined();
    for (const input of ['a.txt', '.', '../x', '']) {
      expect(EVERY_CALL.map(([name, call]) => [name, codeOf(() => call(files, input))])).toEqual(everyCall('root_not_configured'));
    }
    expect(codeOf(() => files.list())).toBe('root_not_configured');
    expect(errorOf(() => files.readFile('a.txt')).message).toMatch(/no files folder is configured.*Ask the operator/);
  });

  interface RaceCase {
    readonly name: string;
    readonly linuxOnly: boolean;
    /** Which open to run the swap before: the folder open (O_DIRECTORY) or the file open. */
    readonly before: 'folder' | 'file';
    setup(): void;
    swap(): void;
    run(): unknown;
    /** What must still hold afterwards. */
    check(): void;
  }

  const secretUnchanged = (): void => expect(fs.readFileSync(path.join(t.outside, 'secret.txt'), 'utf8')).toBe(SECRET);
  /** `name` (a file of ours, or nothing yet) becomes a link to the host secret just before the file is opened. */
  const fileRace = (name: string, file: string, existing: boolean, run: () => unknown): RaceCase => ({
    name,
    linuxOnly: false,
    before: 'file',
    setup: () => (existing ? fs.writeFileSync(t.at(file), 'mine') : undefined),
    swap: () => {
      fs.rmSync(t.at(file), { force: true });
      fs.symlinkSync(path.join(t.outside, 'secret.txt'), t.at(file));
    },
    run,
    check: secretUnchanged,
  });
  /** Folder `a` of `a/b/c.txt` becomes a link to `<outside>/x` (which also has `b/c.txt`) just before the folder is opened. */
  const folderRace = (name: string, run: () => unknown, check: () => void = () => undefined): RaceCase => ({
    name,
    linuxOnly: true,
    before: 'folder',
    setup: () => {
      fs.mkdirSync(path.join(t.outside, 'x', 'b'), { recursive: true });
      fs.writeFileSync(path.join(t.outside, 'x', 'b', 'c.txt'), SECRET);
      fs.mkdirSync(t.at('a', 'b'), { recursive: true });
      fs.writeFileSync(t.at('a', 'b', 'c.txt'), 'mine');
    },
    swap: () => {
      fs.renameSync(t.at('a'), t.at('a-moved'));
      fs.symlinkSync(path.join(t.outside, 'x'), t.at('a'));
    },
    run,
    check,
  });
  const raceCases: RaceCase[] = [
    fileRace('read: the file is swapped for a link to a host file', 'a.txt', true, () => t.files.readFile('a.txt')),
    fileRace('write: a link to a host file is planted at the new name', 'new.txt', false, () => t.files.writeFile('new.txt', 'pwned')),
    fileRace('append: an existing file is swapped for a link', 'log.txt', true, () => t.files.appendFile('log.txt', 'pwned')),
    folderRace('read: a folder on the way is swapped for a link out', () => t.files.readFile('a/b/c.txt')),
    folderRace(
      'write: a folder on the way is swapped for a link out',
      () => t.files.writeFile('a/b/new.txt', 'pwned'),
      () => expect(fs.existsSync(path.join(t.outside, 'x', 'b', 'new.txt'))).toBe(false),
    ),
    folderRace('list: a folder on the way is swapped for a link out', () => t.files.list('a/b')),
  ];

  it.each(raceCases.filter((race) => onLinux || !race.linuxOnly).map((race) => [race.name, race] as const))(
    'PATH-09 fails closed when the path changes between check and open: %s',
    (_name, race) => {
      race.setup();
      const realOpen = fs.openSync;
      let swapped = false;
      jest.spyOn(fs, 'openSync').mockImplementation((...args: Parameters<typeof fs.openSync>) => {
        const flags = typeof args[1] === 'number' ? args[1] : 0;
        const isFolder = (flags & fs.constants.O_DIRECTORY) !== 0;
        if (!swapped && isFolder === (race.before === 'folder')) {
          swapped = true;
          race.swap();
        }
        return realOpen(...args);
      });

      const { code, message } = errorOf(race.run);

      expect(swapped).toBe(true);
      expect(code).toBe('forbidden');
      expect(message).not.toContain(t.base);
      race.check();
    },
  );

  it('PATH-09 O_NOFOLLOW is what refuses a link as the final component of an open', () => {
    fs.symlinkSync(path.join(t.outside, 'secret.txt'), t.at('link'));
    expect(codeOf(() => fs.openSync(t.at('link'), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW))).toBe('ELOOP');
    expect(codeOf(() => t.files.writeFile('link', 'pwned'))).toBe('forbidden');
    expect(fs.readFileSync(path.join(t.outside, 'secret.txt'), 'utf8')).toBe(SECRET);
  });

  it('PATH-10 lists only entries under the root and reports links as links without following them', () => {
    t.files.writeFile('b.txt', 'four');
    t.files.writeFile('dir/inner.txt', 'x');
    fs.symlinkSync(path.join(t.outside, 'secret.txt'), t.at('c-leak'));
    fs.symlinkSync(t.outside, t.at('a-outdir'));
    fs.symlinkSync('b.txt', t.at('d-alias'));

    const expected = [
      { name: 'a-outdir', type: 'symlink', size: 0 },
      { name: 'b.txt', type: 'file', size: 4 },
      { name: 'c-leak', type: 'symlink', size: 0 },
      { name: 'd-alias', type: 'symlink', size: 0 },
      { name: 'dir', type: 'directory', size: 0 },
    ];
    expect(t.files.list()).toEqual(expected);
    expect(t.files.list('.')).toEqual(expected);
    expect(t.files.list(t.root)).toEqual(expected);
    expect(codeOf(() => t.files.list('/'))).toBe('forbidden');
    expect(codeOf(() => t.files.list('a-outdir'))).toBe('forbidden');
    expect(codeOf(() => t.files.list('a-outdir/sub'))).toBe('forbidden');
  });
});
