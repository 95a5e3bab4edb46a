import { mkdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { resolve } from 'node:path';
import type { FileReport, JsToolCatalogue, JsToolFolder } from './js-tool-catalogue';
import { listManifestBaseNames, readToolFilePair } from './tool-file-pair';

export interface UserToolsWatcherOptions {
  readonly catalogue: JsToolCatalogue;
  /** The user tools folder; created when missing. */
  readonly folder: string;
  /** Quiet time after the last file event before the folder is scanned (an editor saves in several steps). */
  readonly debounceMs?: number;
  /** While the folder is missing, how often to look for it again. */
  readonly pollMs?: number;
  /** Called after a rescan that changed something. */
  readonly onChange?: (report: RescanReport) => void;
  /** Called when the folder cannot be watched or read; watching goes on. */
  readonly onError?: (error: Error) => void;
}

export interface RescanReport {
  /** Files loaded or reloaded, with their problems (a bad manifest shows up here, not in onError). */
  readonly changed: readonly FileReport[];
  /** Base names of files whose tools were removed. */
  readonly removed: readonly string[];
}

export const DEFAULT_WATCH_DEBOUNCE_MS = 150;
export const DEFAULT_FOLDER_POLL_MS = 1000;

/**
 * Keeps the user tools folder and the registry in step (J7): dropping a `.json` + `.js` pair in
 * makes its tools appear, editing either file reloads them, removing the manifest removes them.
 * fs.watch only says that something happened, so every burst of events ends in a rescan that
 * compares each pair's content hash with the catalogue's, and reloads what differs. The two files
 * of a pair may arrive in either order: the first rescan reports the missing half, the next loads.
 *
 * Never throws. If the folder is deleted its tools go, and the watcher polls until it is back.
 */
export class UserToolsWatcher {
  private readonly folder: JsToolFolder;
  private readonly debounceMs: number;
  private readonly pollMs: number;
  private fsWatcher: FSWatcher | undefined;
  /** The watched folder's inode: a folder deleted and recreated between two scans needs a new watch. */
  private watchedInode: number | undefined;
  private debounceTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: UserToolsWatcherOptions) {
    this.folder = { path: resolve(options.folder), kind: 'js-user' };
    this.debounceMs = options.debounceMs ?? DEFAULT_WATCH_DEBOUNCE_MS;
    this.pollMs = options.pollMs ?? DEFAULT_FOLDER_POLL_MS;
  }

  /** Creates the folder if needed, starts watching, and scans once (a no-op after catalogue.loadAll). */
  start(): this {
    try {
      mkdirSync(this.folder.path, { recursive: true });
    } catch (error) {
      this.report(error, `The user tools folder '${this.folder.path}' could not be created`);
    }
    this.ensureWatching();
    this.schedule();
    return this;
  }

  /** Scans now; scans never overlap. Resolves with what changed (nothing after close). */
  rescan(): Promise<RescanReport> {
    const run = this.queue.then(() => this.scan());
    this.queue = run.catch(() => undefined);
    return run;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.debounceTimer);
    clearInterval(this.pollTimer);
    this.debounceTimer = undefined;
    this.pollTimer = undefined;
    this.unwatch();
  }

  private scan(): RescanReport {
    const changed: FileReport[] = [];
    const removed: string[] = [];
    if (this.closed) return { changed, removed };
    const { catalogue } = this.options;
    let present: string[];
    let known: Map<string, FileReport>;
    try {
      this.ensureWatching();
      present = listManifestBaseNames(this.folder.path);
      known = new Map(
        catalogue
          .files()
          .filter((f) => f.folder === this.folder.path)
          .map((f) => [f.baseName, f]),
      );
    } catch (error) {
      this.report(error, `The user tools folder '${this.folder.path}' could not be scanned`);
      return { changed, removed };
    }
    // One try per file: a file that throws is reported under its own name, and every other
    // reload and removal of the pass still happens.
    for (const baseName of present) {
      try {
        if (known.get(baseName)?.version === readToolFilePair(this.folder.path, baseName).version) continue;
        changed.push(catalogue.reloadFile(this.folder, baseName));
      } catch (error) {
        this.report(error, `The user tool file '${baseName}.json' could not be loaded`);
      }
    }
    const still = new Set(present);
    for (const baseName of known.keys()) {
      if (still.has(baseName)) continue;
      try {
        if (catalogue.removeFile(this.folder, baseName)) removed.push(baseName);
      } catch (error) {
        this.report(error, `The tools of the removed user tool file '${baseName}.json' could not be removed`);
      }
    }
    return this.finish(changed, removed);
  }

  /** Tells the onChange listener about a scan that changed something. */
  private finish(changed: FileReport[], removed: string[]): RescanReport {
    const report = { changed, removed };
    if (changed.length > 0 || removed.length > 0) {
      try {
        this.options.onChange?.(report);
      } catch (error) {
        this.report(error, 'The onChange listener failed');
      }
    }
    return report;
  }

  private schedule(): void {
    if (this.closed) return;
    clearTimeout(this.debounceTimer);
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = undefined;
      void this.rescan();
    }, this.debounceMs);
    this.debounceTimer.unref();
  }

  /** Watches the folder if it exists (again, if it was replaced); polls for it while it does not. */
  private ensureWatching(): void {
    if (this.closed) return;
    const inode = this.inode();
    if (inode !== undefined && this.fsWatcher && inode === this.watchedInode) return;
    this.unwatch();
    if (inode === undefined) {
      this.startPolling();
      return;
    }
    try {
      const watcher = watch(this.folder.path, { persistent: false }, () => this.schedule());
      watcher.on('error', (error) => {
        // Typically the folder was deleted: drop the watch, and let the scan (and the poll) sort it out.
        if (this.fsWatcher === watcher) this.unwatch();
        this.report(error, `Watching '${this.folder.path}' failed`);
        this.schedule();
      });
      this.fsWatcher = watcher;
      this.watchedInode = inode;
      clearInterval(this.pollTimer);
      this.pollTimer = undefined;
    } catch (error) {
      this.report(error, `The user tools folder '${this.folder.path}' could not be watched`);
      this.startPolling();
    }
  }

  private startPolling(): void {
    if (this.pollTimer || this.closed) return;
    this.pollTimer = setInterval(() => {
      if (this.inode() !== undefined) this.schedule();
    }, this.pollMs);
    this.pollTimer.unref();
  }

  private unwatch(): void {
    const watcher = this.fsWatcher;
    this.fsWatcher = undefined;
    this.watchedInode = undefined;
    try {
      watcher?.close();
    } catch {
      // Already closed by the platform.
    }
  }

  private inode(): number | undefined {
    try {
      const stat = statSync(this.folder.path);
      return stat.isDirectory() ? stat.ino : undefined;
    } catch {
      return undefined;
    }
  }

  private report(error: unknown, context: string): void {
    const cause = error instanceof Error ? error.message : String(error);
    try {
      this.options.onError?.(new Error(`${context}: ${cause}`, { cause: error }));
    } catch {
      // A failing error listener must not stop the watcher.
    }
  }
}
