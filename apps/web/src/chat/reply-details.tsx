import type { AnsweredBy } from './transcript';
import './reply-details.css';

/**
 * The model's reasoning above its reply: closed by default (it can be long, and most readers
 * want the answer), rendered as plain text: it is model output, never HTML or markdown.
 */
export function Reasoning({ text, streaming }: { text: string; streaming: boolean }) {
  return (
    <details class="msg__reasoning">
      <summary class="msg__reasoning-summary">{streaming ? 'Reasoning…' : 'Reasoning'}</summary>
      <div class="msg__reasoning-text">{text}</div>
    </details>
  );
}

/** Which provider and model wrote the reply: small and muted, read as "Answered by …". */
export function AnsweredByLine({ answeredBy }: { answeredBy: AnsweredBy }) {
  return (
    <p class="msg__model">
      <span class="visually-hidden">Answered by </span>
      <span class="msg__model-name">{answeredBy.model}</span> <span class="msg__model-provider">· {answeredBy.provider}</span>
    </p>
  );
}

/**
 * From the send to the first token, and while the provider is retried: a visible "Thinking…"
 * that a screen reader hears too. The live region is always there (a region added together
 * with its text is often not announced); only its content comes and goes.
 */
export function WaitingIndicator({ notice, answeredBy }: { notice: string | undefined; answeredBy: AnsweredBy | undefined }) {
  return (
    <div class="waiting" role="status" aria-live="polite">
      {notice !== undefined && (
        <>
          <span class="waiting__dots" aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
          <span class="waiting__text">{notice}</span>
          {answeredBy && <span class="waiting__model">{answeredBy.model}</span>}
        </>
      )}
    </div>
  );
}
