import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api-error';
import { useApi } from './api-context';
import type { ApiClient } from './client';

/**
 * Loads again (after a change); the old data stays shown meanwhile. Resolves once the new answer
 * (or the error) is in the state, so a caller can say "done" only when the screen shows it.
 */
export type Reload = () => Promise<void>;

export interface Resource<T> {
  readonly data: T | undefined;
  readonly error: ApiError | undefined;
  readonly loading: boolean;
  readonly reload: Reload;
}

/**
 * Loads something from the API when `deps` change, and again on `reload()`. A load that is
 * overtaken by a newer one is aborted and its answer dropped, so a slow answer never
 * overwrites a fresh one.
 */
export function useResource<T>(load: (api: ApiClient, signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): Resource<T> {
  const api = useApi();
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  // reload() callers waiting for a load to settle. A load overtaken by a newer one leaves them for
  // the newer one: only an answer that reaches the state counts.
  const waiting = useRef<Array<() => void>>([]);
  const settle = () => {
    for (const resolve of waiting.current.splice(0)) resolve();
  };

  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    loadRef.current(api, controller.signal).then(
      (data) => {
        if (controller.signal.aborted) return;
        setState({ data, loading: false });
        settle();
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const apiError = error instanceof ApiError ? error : new ApiError(0, 'client_error', String((error as Error)?.message ?? error));
        setState((s) => ({ ...s, error: apiError, loading: false }));
        settle();
      },
    );
    return () => controller.abort();
  }, [api, generation, ...deps]);

  // Unmounted: no load will settle any more, so nobody may be left waiting.
  useEffect(() => settle, []);

  const reload = useCallback<Reload>(
    () =>
      new Promise<void>((resolve) => {
        waiting.current.push(resolve);
        setGeneration((g) => g + 1);
      }),
    [],
  );
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
