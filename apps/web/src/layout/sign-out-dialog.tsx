import { useEffect, useRef } from 'preact/hooks';

/**
 * The confirm step of Sign out: a modal `<dialog>` in the page, not `window.confirm` (which an
 * Android WebView may not show, and which cannot be styled or named). `showModal()` gives the
 * dialog role, focus inside it, Escape to cancel and an inert page behind it. Focus starts on
 * Cancel: a slip of the thumb must not sign the user out.
 */
export function SignOutDialog({ onConfirm, onCancel }: { onConfirm: () => void; onCancel: () => void }) {
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
      aria-labelledby="sign-out-title"
      aria-describedby="sign-out-text"
      // Escape closes a modal dialog by itself; let the parent's state follow.
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id="sign-out-title" class="dialog__title">
        Sign out?
      </h2>
      <p id="sign-out-text">This browser forgets the API token. You will need it, or the link the server printed, to sign in again.</p>
      <div class="dialog__actions">
        <button ref={cancel} type="button" class="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" class="button button--danger" onClick={onConfirm}>
          Sign out
        </button>
      </div>
    </dialog>
  );
}
