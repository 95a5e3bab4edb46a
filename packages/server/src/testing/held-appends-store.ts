import { InMemoryEventStore, type AppendOptions, type AppendResult, type EventEnvelope } from '@oneclaw/core';

/** An append held by `HeldAppendsStore.holdNext`. */
export interface HeldAppend {
  /** Resolves once the append has begun and is waiting for `release`. */
  readonly reached: Promise<void>;
  /** Lets the append go on (before it is reached too: it then does not wait). */
  release(): void;
}

/**
 * An in-memory store whose next appends can be held, one `holdNext` each in order, so a test
 * puts concurrent writes in the order it wants instead of relying on timing.
 */
export class HeldAppendsStore extends InMemoryEventStore {
  private readonly holds: { readonly reach: () => void; readonly released: Promise<void> }[] = [];

  holdNext(): HeldAppend {
    let reach = (): void => undefined;
    let release = (): void => undefined;
    const reached = new Promise<void>((resolve) => (reach = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.push({ reach, released });
    return { reached, release };
  }

  override async append(streamId: string, events: readonly EventEnvelope[], options: AppendOptions): Promise<AppendResult> {
    const hold = this.holds.shift();
    if (hold) {
      hold.reach();
      await hold.released;
    }
    return super.append(streamId, events, options);
  }
}

/** Lets every promise that can move without I/O or timers move (a macrotask turn). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
