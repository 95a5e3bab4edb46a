import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { AssistantMarkdown } from './assistant-markdown';
import { MessageAttachments } from './attachment-views';
import { CheckIcon, ChevronIcon, CrossIcon, InfoIcon, PendingIcon, WarningIcon } from '../icons/icons';
import { prettyJson, prettyResult, toolCardSummary, type ToolStatusIconName } from './tool-card-summary';
import { Reasoning, AnsweredByLine } from './reply-details';
import { isFailureStop, redoTargets, stopReasonLabel, type CompactedItem, type ErrorItem, type ToolItem, type TranscriptItem, type TurnStopItem } from './transcript';
import { EditMessageButton, MessageEditor, RetryTurnButton, type RedoActions } from './redo-controls';

/**
 * The conversation as an ordered list: messages, tool call cards and turn notices. `onRetry`
 * sends a not-sent message again; `retryDisabled` while a turn runs (the server would refuse).
 */
export function TranscriptView({
  items,
  onRetry,
  retryDisabled,
  redo,
}: {
  items: readonly TranscriptItem[];
  onRetry: (key: string) => void;
  retryDisabled: boolean;
  redo?: RedoActions;
}) {
  // Retry and Edit act on the last turn only; `editing` is the user item being edited in place.
  const targets = redo ? redoTargets(items) : undefined;
  const [editing, setEditing] = useState<{ readonly key: string; readonly draft: string } | undefined>();
  const [closedEditor, setClosedEditor] = useState<string | undefined>();
  const retryOn = (key: string) => (redo && targets && targets.retryKey === key ? <RetryTurnButton messageId={targets.messageId} actions={redo} /> : null);
  return (
    <ol class="transcript" aria-label="Conversation">
      {items.map((item) => {
        switch (item.kind) {
          case 'user':
            if (redo && targets?.editKey === item.key && editing?.key === item.key) {
              return (
                <li key={item.key} class="msg msg--user msg--editing">
                  <MessageEditor
                    messageId={targets.messageId}
                    draft={editing.draft}
                    onDraft={(draft) => setEditing({ key: item.key, draft })}
                    actions={redo}
                    onClose={() => {
                      setEditing(undefined);
                      setClosedEditor(item.key);
                    }}
                  />
                </li>
              );
            }
            return (
              <li key={item.key} class={`msg msg--user${item.pending ? ' msg--pending' : ''}${item.unsent !== undefined ? ' msg--unsent' : ''}`}>
                <span class="visually-hidden">You: </span>
                {/* A message of files only has no words: no empty line above its files. */}
                {item.text !== '' && <div class="msg__text">{item.text}</div>}
                {item.attachments && <MessageAttachments attachments={item.attachments} />}
                {redo && targets?.editKey === item.key && (
                  <EditMessageButton
                    disabled={redo.disabled}
                    focus={closedEditor === item.key}
                    onClick={() => {
                      setClosedEditor(undefined);
                      setEditing({ key: item.key, draft: item.text });
                    }}
                  />
                )}
                {item.unsent !== undefined && (
                  <div class="msg__unsent" role="alert">
                    {/* The icon inside the words, so it stays on their first line when they wrap. */}
                    <span>
                      <WarningIcon class="turn-note__icon" />
                      <strong>Not sent.</strong> {item.unsent}
                    </span>
                    <button type="button" class="button button--small" disabled={retryDisabled} onClick={() => onRetry(item.key)}>
                      Retry
                    </button>
                  </div>
                )}
              </li>
            );
          case 'assistant':
            return (
              <li key={item.key} class="msg msg--assistant">
                <span class="visually-hidden">Assistant: </span>
                {item.reasoning && <Reasoning text={item.reasoning} streaming={item.streaming && item.text === ''} />}
                {(item.text !== '' || !item.reasoning) && (
                  <div class="msg__text msg__text--markdown">
                    <AssistantMarkdown text={item.text} />
                    {item.streaming && <span class="msg__caret" aria-hidden="true" />}
                  </div>
                )}
                {item.answeredBy && <AnsweredByLine answeredBy={item.answeredBy} />}
                {retryOn(item.key)}
              </li>
            );
          case 'tool':
            return <ToolCard key={item.key} item={item} />;
          case 'turn-stop':
            return (
              <TurnStop key={item.key} item={item}>
                {retryOn(item.key)}
              </TurnStop>
            );
          case 'error':
            return <TurnError key={item.key} item={item} />;
          case 'compacted':
            return <Compacted key={item.key} item={item} />;
        }
      })}
    </ol>
  );
}

/**
 * One tool call: compact (name, status, duration) and expandable to its arguments and result.
 * The open state lives here, keyed by the card's key, which is the same while streaming and
 * once stored, so an open card stays open when the turn ends and the session is re-read.
 */
export function ToolCard({ item }: { item: ToolItem }) {
  const [open, setOpen] = useState(false);
  const summary = toolCardSummary(item);
  const bodyId = `tool-card-${item.key.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  return (
    <li class={`tool-card tool-card--${item.status}`}>
      <button type="button" class="tool-card__summary" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
        <span class="tool-card__icon" aria-hidden="true">
          <ToolStatusIcon name={summary.icon} />
        </span>
        <span class="tool-card__main">
          <span class="tool-card__line">
            <span class="visually-hidden">Tool call </span>
            <code class="tool-card__name">{item.toolName}</code>
            <span class="tool-card__status">{summary.statusText}</span>
            {summary.duration && <span class="tool-card__duration">{summary.duration}</span>}
          </span>
          {summary.argumentsHint && <span class="tool-card__hint">{summary.argumentsHint}</span>}
        </span>
        <span class="tool-card__chevron" aria-hidden="true">
          <ChevronIcon open={open} />
        </span>
      </button>
      {item.loadedGroup && <p class="tool-card__loaded">Loaded the tool group {item.loadedGroup}</p>}
      <div id={bodyId} class="tool-card__body" hidden={!open}>
        {open && (
          <>
            <h3 class="tool-card__heading">Arguments</h3>
            <pre class="tool-card__pre" tabIndex={0}>
              {prettyJson(item.arguments)}
            </pre>
            <h3 class="tool-card__heading">{item.status === 'error' ? `Error${item.errorType ? ` (${item.errorType})` : ''}` : 'Result'}</h3>
            {item.status === 'running' && <p class="muted">Running…</p>}
            {item.status === 'no_result' && <p class="muted">This call never got a result (the turn ended first).</p>}
            {item.output !== undefined && (item.status === 'success' || item.status === 'error') && (
              <>
                <pre class={`tool-card__pre${item.status === 'error' ? ' tool-card__pre--error' : ''}`} tabIndex={0}>
                  {item.status === 'success' ? prettyResult(item.output) : item.output}
                </pre>
                {item.outputIsPreview && <p class="muted tool-card__note">The start of the result; all of it shows when the turn is over.</p>}
              </>
            )}
          </>
        )}
      </div>
    </li>
  );
}

function ToolStatusIcon({ name }: { name: ToolStatusIconName }) {
  switch (name) {
    case 'running':
      return <PendingIcon />;
    case 'done':
      return <CheckIcon />;
    case 'error':
      return <CrossIcon />;
    case 'none':
      return null;
  }
}

function TurnStop({ item, children }: { item: TurnStopItem; children?: ComponentChildren }) {
  const failure = isFailureStop(item.reason);
  return (
    <li class={`turn-note${failure ? ' turn-note--error' : ''}`}>
      {failure ? <WarningIcon class="turn-note__icon" /> : <InfoIcon class="turn-note__icon" />}
      <strong>
        {failure ? 'Turn failed' : 'Turn stopped'}: {stopReasonLabel(item.reason)}.
      </strong>{' '}
      {item.detail}
      {children}
    </li>
  );
}

/** Messages above it stay visible; the model reads a summary of them from here on. */
function Compacted({ item }: { item: CompactedItem }) {
  return (
    <li class="turn-note">
      <InfoIcon class="turn-note__icon" />
      <strong>Conversation compacted.</strong> {item.detail}
    </li>
  );
}

function TurnError({ item }: { item: ErrorItem }) {
  return (
    <li class="turn-note turn-note--error" role="alert">
      <WarningIcon class="turn-note__icon" />
      <strong>Error:</strong> {item.detail} {item.code === 'provider_not_configured' && <a href="#/settings/providers">Set up a model provider</a>}
      <span class="turn-note__code muted"> ({item.code})</span>
    </li>
  );
}
