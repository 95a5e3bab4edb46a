import type { ApiError } from '../api/api-error';
import type { Reload } from '../api/use-resource';

/** What a settings tab shows before its data is there: loading, or the error with a retry. */
export function LoadState({ what, error, loaded, reload }: { what: string; error: ApiError | undefined; loaded: boolean; reload: Reload }) {
  if (error) {
    return (
      <div class="error" role="alert">
        <p>
          Could not load {what}: {error.detail}
        </p>
        <button type="button" class="button button--small" onClick={reload}>
          Try again
        </button>
      </div>
    );
  }
  return loaded ? null : <p role="status">Loading {what}…</p>;
}
