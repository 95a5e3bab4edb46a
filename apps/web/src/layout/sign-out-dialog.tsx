import { ConfirmDialog } from './confirm-dialog';

/**
 * The confirm step of Sign out: a modal `<dialog>` in the page, not `window.confirm` (which an
 * Android WebView may not show, and which cannot be styled or named). Focus starts on Cancel:
 * a slip of the thumb must not sign the user out.
 */
export function SignOutDialog({ onConfirm, onCancel }: { onConfirm: () => void; onCancel: () => void }) {
  return (
    <ConfirmDialog id="sign-out" title="Sign out?" confirmLabel="Sign out" onConfirm={onConfirm} onCancel={onCancel}>
      <p>This browser forgets the API token. You will need it, or the link the server printed, to sign in again.</p>
    </ConfirmDialog>
  );
}
