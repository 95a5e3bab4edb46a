import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { SendOutcome } from './chat-store';
import './redo-controls.css';

/**
 * Retry and edit of the last turn (docs/web-ui.md, "Retry and edit"). Both are commands the
 * server records (TurnRetried, UserMessageEdited); what they supersede leaves the transcript,
 * the audit keeps it.
 */

/** What the transcript needs to offer them; absent while they cannot be used. */
export interface RedoActions {
  /** A turn runs (here or elsewhere): the server would refuse. */
  readonly disabled: boolean;
  readonly onRetry: (messageId: string) => void;
  readonly onEdit: (messageId: string, text: string) => Promise<SendOutcome>;
}

/** Under the last reply or stop notice: asks for another answer to the last message. */
export function RetryTurnButton({ messageId, actions }: { messageId: string; actions: RedoActions }) {
  return (
    <div class="msg__actions">
      <button
        type="button"
        class="button button--small button--quiet redo__button"
        disabled={actions.disabled}
        title="Get another answer to your last message"
        onClick={() => actions.onRetry(messageId)}
      >
        Retry
      </button>
    </div>
  );
}

/** `focus`: the editor was just closed without saving; keyboard focus comes back here, not to the page. */
export function EditMessageButton({ onClick, disabled, focus }: { onClick: () => void; disabled: boolean; focus?: boolean }) {
  const button = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (focus) button.current?.focus();
  }, [focus]);
  return (
    <div class="msg__actions">
      <button
        ref={button}
        type="button"
        class="button button--small button--quiet redo__button"
        disabled={disabled}
        title="Edit your last message and get a new answer"
        onClick={onClick}
      >
        Edit
      </button>
    </div>
  );
}

/**
 * The last user message, editable in place. Save sends the new text; Cancel or Escape leaves the
 * message as it was. The draft is the caller's, so a refused edit (the message is shown again
 * from the server) reopens with what was typed.
 */
export function MessageEditor(props: { messageId: string; draft: string; onDraft: (text: string) => void; actions: RedoActions; onClose: () => void }) {
  const { messageId, draft, onDraft, actions, onClose } = props;
  const [saving, setSaving] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  // Before the first paint: a caret moved later would land in the middle of what is being typed.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const canSave = !saving && !actions.disabled && draft.trim() !== '';
  const fieldId = `edit-${messageId.replace(/[^a-zA-Z0-9_-]/g, '_')}`;

  async function save() {
    if (!canSave) return;
    setSaving(true);
    const outcome = await actions.onEdit(messageId, draft);
    setSaving(false);
    if (outcome !== 'refused') onClose();
  }

  return (
    <form
      class="redo__editor"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <label class="visually-hidden" for={fieldId}>
        Edit your message
      </label>
      <textarea
        ref={box}
        id={fieldId}
        class="redo__text"
        rows={3}
        value={draft}
        onInput={(e) => onDraft(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            void save();
          }
        }}
      />
      <div class="redo__editor-actions">
        <button type="button" class="button button--small" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" class="button button--small button--primary" disabled={!canSave}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}
