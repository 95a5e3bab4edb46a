import { useEffect, useRef, useState } from 'preact/hooks';
import type { RefObject } from 'preact';
import { PaperclipIcon, WarningIcon } from '../icons/icons';
import type { AttachmentRef } from '@oneclaw/api-contract';
import { ATTACHMENT_TYPES, attachmentProblem, MAX_ATTACHMENTS } from './attachment-files';
import { AttachmentChips, type PendingFile } from './attachment-views';
import type { SendOutcome } from './chat-store';
import type { TurnPhase } from './transcript';

/**
 * The message box. Enter sends and Shift+Enter starts a new line (not while an input method is
 * composing, so Enter can confirm a candidate). While a turn runs Send is disabled and a Cancel
 * button appears beside it; the box stays editable so the next message can be drafted.
 */
export function Composer(props: {
  turn: TurnPhase;
  /** The session is not read yet: nothing to type into. */
  disabled: boolean;
  /** A turn runs that this page did not start: typing is fine, sending would be refused. */
  busyElsewhere: boolean;
  onSend: (text: string, attachments: readonly AttachmentRef[]) => Promise<SendOutcome>;
  onCancel: () => void;
  /** Uploads one chosen file (POST /api/attachments); rejects with the server's problem. */
  upload: (file: File) => Promise<AttachmentRef>;
  /** The box's placeholder when no turn runs; the default advertises /clear. */
  placeholder?: string;
  /** Read to screen readers with the box; the default explains Enter and /clear. */
  help?: string;
  /**
   * A note to show instead of sending, for a command that cannot run here (the draft: /clear
   * with no session yet). The command leaves the box; the chosen files stay.
   */
  commandNote?: (text: string) => string | undefined;
  /** Focus the box once it can be typed in (the page opened from a keyboard send in the draft). */
  autoFocus?: boolean;
  /** The message box, for a page that moves focus to it (after Clear). */
  boxRef?: RefObject<HTMLTextAreaElement | null>;
}) {
  const { turn, disabled, busyElsewhere } = props;
  const [text, setText] = useState('');
  const [files, setFiles] = useState<readonly PendingFile[]>([]);
  const [attachError, setAttachError] = useState<string | undefined>();
  const [uploading, setUploading] = useState(false);
  const [note, setNote] = useState<string | undefined>();
  const ownBox = useRef<HTMLTextAreaElement>(null);
  const box = props.boxRef ?? ownBox;
  const autoFocused = useRef(false);
  const picker = useRef<HTMLInputElement>(null);
  const nextId = useRef(0);
  const running = turn !== 'none';
  // Files alone make a message (the server gives the model a note naming them).
  const canSend = !running && !busyElsewhere && !disabled && !uploading && (text.trim() !== '' || files.length > 0);

  useEffect(() => {
    if (!props.autoFocus || disabled || autoFocused.current) return;
    autoFocused.current = true;
    if (focusIsFree(box.current)) box.current?.focus();
  }, [props.autoFocus, disabled, box]);

  /** Chosen files join the chips; one that cannot be sent is named in the error instead. */
  function choose(list: FileList | null) {
    const chosen = [...(list ?? [])];
    const problems: string[] = [];
    const accepted: PendingFile[] = [];
    for (const file of chosen) {
      const problem = attachmentProblem(file);
      if (problem) problems.push(problem);
      else if (files.length + accepted.length >= MAX_ATTACHMENTS) problems.push(`"${file.name}" was not added: a message carries at most ${MAX_ATTACHMENTS} files.`);
      else accepted.push({ id: nextId.current++, file });
    }
    setAttachError(problems.length > 0 ? problems.join(' ') : undefined);
    if (accepted.length > 0) setFiles((current) => [...current, ...accepted]);
  }

  async function send() {
    if (!canSend) return;
    const refusal = props.commandNote?.(text);
    setNote(refusal);
    if (refusal !== undefined) {
      setText('');
      return;
    }
    const sent = text;
    const attached = files;
    const refs: AttachmentRef[] = [];
    // Uploaded on send; a refused file keeps the text and the chips, and says why.
    setUploading(attached.length > 0);
    setAttachError(undefined);
    for (const { file } of attached) {
      try {
        refs.push(await props.upload(file));
      } catch (error) {
        setAttachError(`"${file.name}" was not sent: ${(error as Error).message}`);
        setUploading(false);
        return;
      }
    }
    setUploading(false);
    setText('');
    setFiles([]);
    // Send is disabled while the turn runs: a mouse send would leave focus on nothing. The box is
    // where the next message is typed, so focus goes there now, not when the turn ends.
    box.current?.focus();
    const outcome = await props.onSend(sent, refs);
    // Nothing was recorded: give the text back rather than lose it (unless a new one was typed).
    // A message that did not reach the server stays in the transcript instead, marked not sent
    // with Retry: in both places it could be sent twice.
    if (outcome === 'refused') {
      setText((current) => (current === '' ? sent : current));
      setFiles((current) => (current.length === 0 ? attached : current));
    }
    // The turn may have run for minutes: take focus back only if it is nowhere (the box was
    // disabled meanwhile) or still in the composer, never from what the user went on to type in.
    if (focusIsFree(box.current)) box.current?.focus();
  }

  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <div class="composer__extras">
        <AttachmentChips files={files} disabled={uploading} onRemove={(id) => setFiles((current) => current.filter((f) => f.id !== id))} />
        {attachError && (
          <p class="error composer__attach-error" role="alert">
            <WarningIcon />
            <span>{attachError}</span>
            <button type="button" class="button button--small button--quiet" onClick={() => setAttachError(undefined)}>
              Dismiss
            </button>
          </p>
        )}
        {note && (
          <p class="muted composer__note" role="status">
            {note}
          </p>
        )}
        {uploading && (
          <p class="muted composer__uploading" role="status">
            Uploading {files.length === 1 ? 'the file' : `${files.length} files`}…
          </p>
        )}
      </div>
      <input
        ref={picker}
        id="composer-files"
        class="composer__file-input"
        type="file"
        multiple
        accept={ATTACHMENT_TYPES.join(',')}
        tabIndex={-1}
        aria-label="Attach files"
        disabled={disabled}
        onChange={(e) => {
          choose(e.currentTarget.files);
          // The same file can be chosen again after its chip was removed.
          e.currentTarget.value = '';
        }}
      />
      <button
        type="button"
        class="button button--quiet composer__attach"
        aria-label="Attach images or PDFs"
        title="Attach images or PDFs"
        disabled={disabled || uploading}
        onClick={() => picker.current?.click()}
      >
        <PaperclipIcon />
      </button>
      <label class="visually-hidden" for="composer-text">
        Message
      </label>
      <textarea
        ref={box}
        id="composer-text"
        class="composer__text"
        rows={1}
        value={text}
        placeholder={running || busyElsewhere ? 'Replying… type your next message' : (props.placeholder ?? 'Message (/clear starts over)')}
        aria-describedby="composer-help"
        disabled={disabled}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            void send();
          }
        }}
      />
      <p id="composer-help" class="visually-hidden">
        {props.help ?? 'Enter sends, Shift+Enter adds a line. Type /clear to clear the conversation.'}
        {running || busyElsewhere ? ' A reply is running: wait for it or cancel it.' : ''}
      </p>
      {running && (
        <button type="button" class="button button--danger composer__cancel" onClick={props.onCancel} disabled={turn === 'cancelling'}>
          {turn === 'cancelling' ? 'Cancelling…' : 'Cancel'}
        </button>
      )}
      <button type="submit" class="button button--primary composer__send" disabled={!canSend}>
        Send
      </button>
    </form>
  );
}

/** Focus is on nothing (the body) or already inside the composer of `box`. */
function focusIsFree(box: HTMLTextAreaElement | null): boolean {
  const active = document.activeElement;
  if (!active || active === document.body) return true;
  const form = box?.closest('form');
  return form ? form.contains(active) : false;
}
