import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A confirm step as a modal `<dialog>`, not `window.confirm` (an Android WebView may not show it,
 * and it cannot be styled or named):
 * `showModal()` gives the dialog role, focus inside, Escape to cancel and an inert page behind.
 * Focus starts on Cancel, so a slip of the thumb does not do the irreversible thing.
 */
export function ConfirmDialog(props: {
  id: string;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    cancel.current?.focus();
    return () => element.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      class="dialog"
      aria-labelledby={`${props.id}-title`}
      aria-describedby={`${props.id}-text`}
      onCancel={(e) => {
        e.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id={`${props.id}-title`} class="dialog__title">
        {props.title}
      </h2>
      <div id={`${props.id}-text`}>{props.children}</div>
      <div class="dialog__actions">
        <button ref={cancel} type="button" class="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" class="button button--danger" disabled={props.busy} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
