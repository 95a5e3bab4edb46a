import type { RecordedEvent } from '../events/event-envelope';
import { sessionStreamId, type SessionEvent } from '../events/session-events';
import { recordCommand, type StreamSnapshot } from '../aggregate/record-command';
import type { EventStore } from '../event-store/event-store';
import { deterministicIds } from '../ids';
import { decide, type DecideContext } from './decide';
import { replay } from './evolve';
import type { SessionCommand } from './session-commands';
import type { SessionState } from './session-state';

export interface ExecuteOptions {
  /** Attempts when another writer got there first; each attempt re-reads and decides again (EST-21). Default 5, as every command path. */
  readonly maxAttempts?: number;
}

type SessionSnapshotOfStream = StreamSnapshot<SessionState>;

export interface ExecutedCommand {
  /** The events this command recorded; empty when it was already so (e.g. a loaded group). */
  readonly events: readonly SessionEvent[];
  readonly state: SessionState;
  /** The stream's revision after the command: 'no_stream' only if nothing was ever written. */
  readonly revision: number | 'no_stream';
  /** Global position of the last event written, for read-your-writes; null when nothing was written. */
  readonly position: number | null;
}

export type ExecuteContext = Omit<DecideContext, 'newId'> & {
  /** Unique per command; event ids derive from it, so re-running the same command is idempotent. */
  readonly commandId: string;
};

/**
 * Read the session, decide, append with the revision that was read. On a revision conflict the
 * decision is made again from fresh state, up to `maxAttempts`; then the conflict is thrown for
 * the API to answer 409. Rule errors (`SessionRuleError`) are thrown at once: nothing is written.
 */
export async function executeSessionCommand(
  store: EventStore,
  sessionId: string,
  command: SessionCommand,
  ctx: ExecuteContext,
  options: ExecuteOptions = {},
): Promise<ExecutedCommand> {
  const streamId = sessionStreamId(sessionId);
  // Stateless: every attempt reads and replays the whole stream.
  const read = async (): Promise<SessionSnapshotOfStream> => {
    const history = await store.readStream(streamId);
    return { state: replay(history), revision: history.length === 0 ? 'no_stream' : (history[history.length - 1] as RecordedEvent).revision };
  };
  const { events, state, revision, position } = await recordCommand<SessionSnapshotOfStream, SessionEvent>({
    store,
    streamId,
    ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
    current: read,
    decide: (current) => decide(command, current.state, { ...ctx, newId: deterministicIds(ctx.commandId) }),
    appended: (current, appended, next) => ({ state: replay(appended, current.state), revision: next }),
    reload: read,
  });
  return { events, state, revision, position };
}
