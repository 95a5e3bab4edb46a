import { useRef, useState } from 'preact/hooks';
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
  onSend: (text: string) => Promise<SendOutcome>;
  onCancel: () => void;
}) {
  const { turn, disabled, busyElsewhere } = props;
  const [text, setText] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const running = turn !== 'none';
  const canSend = !running && !busyElsewhere && !disabled && text.trim() !== '';

  async function send() {
    if (!canSend) return;
    const sent = text;
    setText('');
    const outcome = await props.onSend(sent);
    // Nothing was recorded: give the text back rather than lose it (unless a new one was typed).
    // A message that did not reach the server stays in the transcript instead, marked not sent
    // with Retry: in both places it could be sent twice.
    if (outcome === 'refused') setText((current) => (current === '' ? sent : current));
    box.current?.focus();
  }

  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <label class="visually-hidden" for="composer-text">
        Message
      </label>
      <textarea
        ref={box}
        id="composer-text"
        class="composer__text"
        rows={1}
        value={text}
        placeholder={running || busyElsewhere ? 'Replying… type your next message' : 'Message (/clear starts over)'}
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
        Enter sends, Shift+Enter adds a line. Type /clear to clear the conversation.{running || busyElsewhere ? ' A reply is running: wait for it or cancel it.' : ''}
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
