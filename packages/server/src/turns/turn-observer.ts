import type { TurnUpdate } from '@oneclaw/api-contract';

/**
 * Hears what a turn reports while it runs (the contract's TurnUpdate: the SSE stream of
 * SendMessage, docs/api.md lists each event). Every field is already redacted and safe to show.
 */
export type TurnObserver = (update: TurnUpdate) => void;

export const ignoreUpdates: TurnObserver = () => {};
