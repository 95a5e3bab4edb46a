import { readdirSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { OneClawError, type EventStore, type RecordedEvent } from '@oneclaw/core';
import { GlobalFollower } from '../persistence/global-follower';
import { isAttachmentHash } from './attachment-store';

export interface AttachmentGcOptions {
  /** A file younger than this is kept even when nothing refers to it: its message may not be sent yet. */
  readonly minAgeMs: number;
  readonly now: number;
  /** Report what would go, remove nothing. */
  readonly dryRun: boolean;
}

export interface AttachmentGcReport {
  /** Stored files some message refers to (kept). */
  readonly referenced: number;
  /** Files no message refers to, older than the minimum age: removed (or, dry run, to remove). */
  readonly unreferenced: readonly { readonly hash: string; readonly bytes: number }[];
  /** Files no message refers to yet, younger than the minimum age (kept). */
  readonly young: number;
  /** Left by a crash in the middle of an upload: temporary files, and names without their file. */
  readonly leftovers: readonly string[];
  /** Files that could not be removed, with why (permissions, a read-only file system). */
  readonly failed: readonly { readonly name: string; readonly error: string }[];
}

/**
 * Removes attached files that no message refers to: uploads whose message was never sent (the
 * user removed the file from the draft, or left). The references are every user `MessageSent`'s
 * `attachments` in the whole store, archived (deleted) sessions included: their streams stay, and
 * so do their files (docs/decisions/attachment-storage.md, "Garbage collection").
 *
 * An upload is made before its message is sent, so a file is removed only once it is older than
 * `minAgeMs`; uploading the same bytes again makes it young again (AttachmentStore.put). A message
 * that names a removed file is refused before anything is recorded (`attachment_not_found`): the
 * user attaches it again. A store without any event is refused (`store_empty`), removing nothing.
 */
export async function collectAttachments(store: EventStore, dir: string, options: AttachmentGcOptions): Promise<AttachmentGcReport> {
  const referenced = new Set<string>();
  let events = 0;
  await new GlobalFollower(store, (page) => {
    events += page.length;
    for (const event of page) for (const hash of attachmentHashes(event)) referenced.add(hash);
  }).catchUp();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    // No folder: nothing was ever uploaded.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { referenced: 0, unreferenced: [], young: 0, leftovers: [], failed: [] };
    throw error;
  }
  if (events === 0 && names.length > 0) {
    // A store with no event at all is not the one these files were uploaded through (a
    // forgotten ONECLAW_POSTGRES_URL, another data directory): every file would look unreferenced.
    throw new OneClawError(
      'store_empty',
      "The event store holds no events, so it cannot be the one these files were attached through. Nothing was removed: point the command at the server's store (ONECLAW_DATA_DIR, ONECLAW_POSTGRES_URL and ONECLAW_POSTGRES_SCHEMA as the server has them).",
    );
  }
  const present = new Set(names);
  const isOld = (name: string): { old: boolean; bytes: number } | undefined => {
    const stat = statSync(path.join(dir, name), { throwIfNoEntry: false });
    // A file stamped after `now` (the same millisecond, or a clock set back) counts as age 0.
    return stat && { old: Math.max(0, options.now - stat.mtimeMs) >= options.minAgeMs, bytes: stat.size };
  };
  const failed: { name: string; error: string }[] = [];
  /** False when the file could not be removed (gone already counts as removed). */
  const remove = (name: string): boolean => {
    if (options.dryRun) return true;
    try {
      unlinkSync(path.join(dir, name));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return true;
      failed.push({ name, error: code ?? (error as Error).message });
      return false;
    }
    return true;
  };

  let kept = 0;
  let young = 0;
  const unreferenced: { hash: string; bytes: number }[] = [];
  const leftovers: string[] = [];
  for (const name of names.sort()) {
    if (isAttachmentHash(name)) {
      if (referenced.has(name)) {
        kept++;
        continue;
      }
      const file = isOld(name);
      if (!file) continue;
      if (!file.old) {
        young++;
        continue;
      }
      if (!remove(name)) continue;
      unreferenced.push({ hash: name, bytes: file.bytes });
      remove(`${name}.json`);
      continue;
    }
    // A crash between writing the name and the file leaves the name alone; one during a write, its temp file.
    const lone = name.endsWith('.json') && isAttachmentHash(name.slice(0, -5)) && !present.has(name.slice(0, -5));
    if ((lone || name.startsWith('.tmp-')) && isOld(name)?.old && remove(name)) leftovers.push(name);
  }
  return { referenced: kept, unreferenced, young, leftovers, failed };
}

function attachmentHashes(event: RecordedEvent): string[] {
  if (event.type !== 'MessageSent') return [];
  const attachments = (event.data as { attachments?: unknown }).attachments;
  if (!Array.isArray(attachments)) return [];
  return attachments.flatMap((a: { hash?: unknown }) => (typeof a?.hash === 'string' ? [a.hash] : []));
}
