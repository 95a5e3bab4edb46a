import { OneClawError } from '@oneclaw/core';

export type FsErrorCode =
  'root_not_configured' | 'forbidden' | 'invalid_path' | 'invalid_argument' | 'not_found' | 'not_a_file' | 'not_a_directory' | 'too_large' | 'directory_not_empty' | 'io_error';

/**
 * A refused or failed call of the confined filesystem. Messages and details name paths relative to
 * the files folder (or as the tool wrote them) only: tools must never learn where that folder sits on
 * the host, which is also why system error messages (they carry absolute paths) are never passed on.
 */
export class FsError extends OneClawError {
  declare readonly code: FsErrorCode;

  constructor(code: FsErrorCode, message: string, details: Readonly<Record<string, unknown>> = {}) {
    super(code, message, details);
  }
}

const SHOWN_PATH_CHARS = 120;

/** Tool-supplied text for a message: quoted, cut short, control characters made visible. */
export function quotePath(text: string): string {
  const cut = text.length > SHOWN_PATH_CHARS ? `${text.slice(0, SHOWN_PATH_CHARS - 3)}...` : text;
  const visible = cut.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `'${visible}'`;
}

export function rootNotConfigured(): FsError {
  return new FsError(
    'root_not_configured',
    'File access is not set up: no files folder is configured, so every fs call is refused. Ask the operator to configure the files folder.',
  );
}

export function outsideRoot(input: string): FsError {
  return new FsError('forbidden', `Path ${quotePath(input)} is outside the files folder. Use a path relative to the files folder, such as 'notes/today.txt'.`, { path: input });
}

export function leadsOutside(display: string): FsError {
  return new FsError('forbidden', `Path ${quotePath(display)} leads outside the files folder through a symbolic link. Only files inside the files folder can be used.`, {
    path: display,
  });
}

export function isSymlink(display: string): FsError {
  return new FsError('forbidden', `Path ${quotePath(display)} is a symbolic link, and writes never follow links. Write to another name, or delete the link first.`, {
    path: display,
  });
}

export function linkLoop(display: string): FsError {
  return new FsError('forbidden', `Path ${quotePath(display)} goes through too many symbolic links (probably a loop), so it cannot be used. Use another path.`, { path: display });
}

export function changedDuringCall(display: string): FsError {
  return new FsError(
    'forbidden',
    `Path ${quotePath(display)} changed while it was being opened (a folder or file was replaced, possibly by a link), so the call was refused. Try again.`,
    { path: display },
  );
}

export function notFound(display: string): FsError {
  return new FsError('not_found', `Nothing exists at ${quotePath(display)}. List its folder to check the name.`, { path: display });
}

export function notAFile(display: string): FsError {
  return new FsError('not_a_file', `Path ${quotePath(display)} is a folder or a special file, not a regular file. Use a file path, or list the folder.`, { path: display });
}

export function notADirectory(display: string): FsError {
  return new FsError('not_a_directory', `Path ${quotePath(display)} is not a folder. Give the path of a folder.`, { path: display });
}

export function tooLargeToRead(display: string, bytes: number, limit: number): FsError {
  return new FsError('too_large', `File ${quotePath(display)} is ${bytes} bytes, over the ${limit}-byte read limit. Only smaller files can be read.`, {
    path: display,
    bytes,
    limit,
  });
}

export function tooLargeToWrite(display: string, bytes: number, limit: number): FsError {
  return new FsError(
    'too_large',
    `Writing to ${quotePath(display)} would make it ${bytes} bytes, over the ${limit}-byte write limit. Write less, or split the content over several files.`,
    { path: display, bytes, limit },
  );
}

const REASONS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'the files folder is read-only',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
  EBUSY: 'the file is busy',
  EIO: 'input/output error',
  EFBIG: 'the file is too large for the file system',
};

/**
 * Maps a failed system call to an FsError by its errno code only. `EEXIST` and `ENOTEMPTY` are left to
 * the callers that expect them (rmdir); here they are plain I/O errors.
 */
export function fromSystemError(error: unknown, action: string, display: string): FsError {
  if (error instanceof FsError) return error;
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (errno) {
    case 'ENOENT':
      return notFound(display);
    case 'ENOTDIR':
      return new FsError('not_a_directory', `A part of path ${quotePath(display)} is a file, not a folder.`, { path: display });
    case 'EISDIR':
    case 'ENXIO':
      return notAFile(display);
    case 'ELOOP':
    case 'EMLINK':
      return isSymlink(display);
    case 'ENAMETOOLONG':
      return new FsError('invalid_path', `Path ${quotePath(display)} has a name that is too long. Use shorter names.`, { path: display });
    default: {
      const code = typeof errno === 'string' ? errno : 'unknown';
      const reason = REASONS[code] ?? 'unexpected error';
      return new FsError(
        'io_error',
        `Could not ${action} ${quotePath(display)} (${code}: ${reason}). Try again later; if it keeps failing, ask the operator to check the files folder.`,
        { path: display, errno: code },
      );
    }
  }
}
