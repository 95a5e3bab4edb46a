import { useEffect, useState } from 'preact/hooks';
import { useApi } from '../api/api-context';
import { CrossIcon, DocumentIcon } from '../icons/icons';
import type { AttachmentRef } from '@oneclaw/api-contract';
import { attachmentPath, fileSize, isImage } from './attachment-files';
import './attachments.css';

/** A file chosen in the composer, not uploaded yet. */
export interface PendingFile {
  readonly id: number;
  readonly file: File;
}

/** The composer's chosen files, each removable, before the message is sent. */
export function AttachmentChips({ files, onRemove, disabled }: { files: readonly PendingFile[]; onRemove: (id: number) => void; disabled: boolean }) {
  if (files.length === 0) return null;
  return (
    <ul class="attach-chips" aria-label="Files to send">
      {files.map(({ id, file }) => (
        <li key={id} class="attach-chip">
          <DocumentIcon class="attach-chip__icon" />
          <span class="attach-chip__name" title={file.name}>
            {file.name}
          </span>
          <span class="attach-chip__size">{fileSize(file.size)}</span>
          <button type="button" class="attach-chip__remove" aria-label={`Remove ${file.name}`} disabled={disabled} onClick={() => onRemove(id)}>
            <CrossIcon />
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A message's attachments in the transcript: images as thumbnails, PDFs as named links. */
export function MessageAttachments({ attachments }: { attachments: readonly AttachmentRef[] }) {
  return (
    <ul class="msg__attachments" aria-label="Attachments">
      {attachments.map((attachment) => (
        <li key={attachment.hash + attachment.name} class="msg__attachment">
          {isImage(attachment.mediaType) ? <AttachmentImage attachment={attachment} /> : <AttachmentLink attachment={attachment} />}
        </li>
      ))}
    </ul>
  );
}

/**
 * The image is read with the token (an <img src> could not send it) and shown as a data: URL,
 * which the CSP's img-src already allows; no blob: or remote source is needed.
 */
function AttachmentImage({ attachment }: { attachment: AttachmentRef }) {
  const api = useApi();
  const [src, setSrc] = useState<string | undefined>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    api
      .getBlob(attachmentPath(attachment.hash), { signal: controller.signal })
      .then(dataUrl)
      .then((url) => {
        if (!controller.signal.aborted) setSrc(url);
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => controller.abort();
  }, [api, attachment.hash]);
  if (failed) return <span class="msg__attachment-missing">{attachment.name} (could not be loaded)</span>;
  if (!src) return <span class="msg__thumb msg__thumb--loading">{attachment.name}</span>;
  return <img class="msg__thumb" src={src} alt={attachment.name} title={attachment.name} />;
}

/** A PDF: a link that downloads it (read with the token, then saved under its name). */
function AttachmentLink({ attachment }: { attachment: AttachmentRef }) {
  const api = useApi();
  const [error, setError] = useState<string | undefined>();
  return (
    <>
      <a
        class="msg__file"
        href={api.url(attachmentPath(attachment.hash))}
        download={attachment.name}
        onClick={(e) => {
          e.preventDefault();
          setError(undefined);
          api
            .getBlob(attachmentPath(attachment.hash))
            .then((blob) => save(blob, attachment.name))
            .catch((problem: Error) => setError(problem.message));
        }}
      >
        <DocumentIcon class="msg__file-icon" />
        <span>{attachment.name}</span>
        <span class="msg__file-size">
          <span class="visually-hidden">, PDF, </span>
          {fileSize(attachment.bytes)}
        </span>
      </a>
      {error && (
        <span class="msg__attachment-missing" role="alert">
          {error}
        </span>
      )}
    </>
  );
}

function dataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(blob);
  });
}

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once started; the URL is only needed for the click.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
