import fs from 'node:fs';
import { Writable } from 'node:stream';
import { FsError, fromSystemError, isSymlink, notAFile, quotePath } from './fs-error';
import type { FolderHandle } from './folder-handle';

export interface ConfinedWriteStream {
  /** Bytes written here go to a temp file next to the target; more than the write limit fails the stream. */
  readonly stream: NodeJS.WritableStream;
  /** Ends the stream if needed, then renames the temp file into place. Rejects (and removes the temp file) if the stream failed. */
  commit(): Promise<{ path: string; bytes: number }>;
  /** Drops the temp file; the target is untouched. A no-op once committed or aborted. */
  abort(): Promise<void>;
}

export interface PendingFile {
  /** The target's folder, held open until commit or abort so the rename lands where the checks were made. */
  readonly folder: FolderHandle;
  readonly tempName: string;
  readonly targetName: string;
  readonly fd: number;
  readonly display: string;
  readonly maxBytes: number;
  readonly onTooLarge: (bytes: number) => FsError;
}

/** Owns the temp file's descriptor: closed only after the write in flight settled, so it is never reused under us. */
class LimitedFileSink extends Writable {
  bytes = 0;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(private readonly file: PendingFile) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const total = this.bytes + chunk.length;
    if (total > this.file.maxBytes) {
      callback(this.file.onTooLarge(total));
      return;
    }
    this.inFlight = writeFully(this.file.fd, chunk).then(() => {
      this.bytes = total;
    });
    this.inFlight.then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    // Durable before the rename makes it visible under its real name.
    fs.fsync(this.file.fd, (error) => callback(error));
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const close = (): void => fs.close(this.file.fd, () => callback(error));
    this.inFlight.then(close, close);
  }
}

async function writeFully(fd: number, chunk: Buffer): Promise<void> {
  let done = 0;
  while (done < chunk.length) {
    done += await new Promise<number>((resolve, reject) => {
      fs.write(fd, chunk, done, chunk.length - done, null, (error, written) => (error ? reject(error) : resolve(written)));
    });
  }
}

export function pendingWrite(file: PendingFile): ConfinedWriteStream {
  const sink = new LimitedFileSink(file);
  let failure: unknown;
  // A listener must exist: an unhandled 'error' event would crash the host process.
  sink.on('error', (error) => {
    failure ??= error;
  });
  const closed = new Promise<void>((resolve) => sink.once('close', resolve));
  let state: 'open' | 'committing' | 'done' = 'open';
  let result: Promise<{ path: string; bytes: number }> | undefined;

  const removeTemp = (): void => {
    try {
      fs.unlinkSync(file.folder.entry(file.tempName));
    } catch {
      // Already gone; nothing else to clean up.
    }
  };
  const finish = (): void => {
    state = 'done';
    removeTemp();
    file.folder.close();
  };

  const commit = async (): Promise<{ path: string; bytes: number }> => {
    if (!sink.destroyed && !sink.writableEnded) sink.end();
    await closed;
    if (failure !== undefined || !sink.writableFinished) {
      finish();
      throw failure === undefined ? aborted(file.display) : fromSystemError(failure, 'write', file.display);
    }
    try {
      const target = file.folder.entry(file.targetName);
      const existing = fs.lstatSync(target, { throwIfNoEntry: false });
      // rename(2) would replace a link rather than follow it, but the rule is the same as for writeFile.
      if (existing?.isSymbolicLink()) throw isSymlink(file.display);
      if (existing?.isDirectory()) throw notAFile(file.display);
      fs.renameSync(file.folder.entry(file.tempName), target);
    } catch (error) {
      finish();
      throw fromSystemError(error, 'save', file.display);
    }
    state = 'done';
    file.folder.close();
    return { path: file.display, bytes: sink.bytes };
  };

  return {
    stream: sink,
    commit: () => {
      if (result === undefined) {
        if (state !== 'open') return Promise.reject(aborted(file.display));
        state = 'committing';
        result = commit();
      }
      return result;
    },
    abort: async () => {
      if (state !== 'open') return;
      state = 'done';
      sink.destroy();
      await closed;
      finish();
    },
  };
}

function aborted(display: string): FsError {
  return new FsError('io_error', `The write to ${quotePath(display)} was aborted before it was saved. Start it again.`, { path: display });
}
