/**
 * A module loaded on first need (a dynamic `import()`), remembered once it is there: `current()`
 * answers at once for every later caller, so only the very first use waits. Concurrent callers
 * share one load; a failed load (a network blip, a chunk gone after a redeploy) is forgotten so
 * the next caller tries again instead of failing forever.
 */
export interface LazyModule<T> {
  /** The loaded value, or undefined while it has not been loaded yet. */
  current(): T | undefined;
  /** Starts the load if it has not started, and resolves with the value. */
  load(): Promise<T>;
}

export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let value: T | undefined;
  let pending: Promise<T> | undefined;
  return {
    current: () => value,
    load() {
      pending ??= importer().then(
        (loaded) => (value = loaded),
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      );
      return pending;
    },
  };
}
