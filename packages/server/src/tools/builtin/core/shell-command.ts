import { spawn } from 'node:child_process';
import { constants } from 'node:os';

export interface ShellCommand {
  readonly command: string;
  /** Host path of an existing folder (already checked to be inside the files root). */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Aborted when the turn is cancelled or the tool call times out in the engine. */
  readonly signal?: AbortSignal;
  /** Bytes kept per stream; more is read and dropped, so the child never blocks on a full pipe. */
  readonly maxCaptureBytes: number;
}

export interface ShellOutcome {
  /** The shell's exit code; 128 + N when a signal N ended it; -1 when we killed it (timeout, cancel). */
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  /** True when a stream wrote more than maxCaptureBytes. */
  readonly outputCut: boolean;
}

/**
 * Runs `sh -c <command>` as the leader of a new process group, so that a timeout or a cancel can
 * kill everything it started (`sleep 100 &` included), not only the shell. When the shell exits,
 * whatever it left running in its group is killed as well: the command's lifetime is the call's,
 * and a background child holding the output pipes open would otherwise keep the call waiting.
 */
export function runShellCommand(options: ShellCommand): Promise<ShellOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', options.command], {
      cwd: options.cwd,
      env: { ...options.env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = new Capture(options.maxCaptureBytes);
    const stderr = new Capture(options.maxCaptureBytes);
    child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));

    let timedOut = false;
    let cancelled = false;
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      killGroup();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanUp = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };

    child.on('exit', killGroup);
    child.on('error', (error) => {
      cleanUp();
      killGroup();
      reject(error);
    });
    child.on('close', (code, signal) => {
      cleanUp();
      const killedByUs = timedOut || cancelled;
      resolve({
        exitCode: killedByUs ? -1 : (code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)),
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut,
        cancelled,
        outputCut: stdout.cut || stderr.cut,
      });
    });
    if (options.signal?.aborted) onAbort();
  });
}

class Capture {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  cut = false;

  constructor(private readonly max: number) {}

  add(chunk: Buffer): void {
    const room = this.max - this.bytes;
    if (room <= 0) {
      this.cut = true;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept !== chunk) this.cut = true;
    this.chunks.push(kept);
    this.bytes += kept.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
