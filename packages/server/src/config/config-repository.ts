import { randomUUID } from 'node:crypto';
import {
  CONFIG_STREAM_ID,
  configAggregate,
  type ConfigCommand,
  type ConfigRequester,
  type ConfigEvent,
  type ConfigState,
  type EventEnvelope,
  type EventStore,
  type RecordedEvent,
} from '@oneclaw/core';
import { AggregateRepository, type AggregateRecorded } from '../persistence/aggregate-repository';

/** Who asked for a change, for the audit trail of the `config` stream. */
export interface ChangeOrigin {
  /** Unique per change; event ids derive from it (`<commandId>:0`). Random when absent. */
  readonly commandId?: string;
  /** A tool call's `<sessionId>/<callId>`, or the HTTP request's id. */
  readonly correlationId?: string;
  /**
   * `user` for the HTTP API, `model` for the chat's config tools. Where a rule tells them apart
   * (moving a keyed provider), an origin that does not say counts as the model's.
   */
  readonly requestedBy?: ConfigRequester;
}

export type ConfigListener = (events: readonly EventEnvelope[]) => void;

/**
 * The configuration stream, through the shared `AggregateRepository`: cached, brought up to date
 * with other replicas' appends on `load`, conflicts retried. Listeners see every event folded in,
 * this server's and other replicas' alike (the tool registry and the redactor follow them).
 */
export class ConfigRepository {
  private readonly repository: AggregateRepository<ConfigState, ConfigCommand, ConfigEvent>;
  private readonly listeners = new Set<ConfigListener>();

  constructor(
    private readonly store: EventStore,
    options: { readonly now?: () => Date; readonly onListenerError?: (error: unknown) => void } = {},
  ) {
    this.repository = new AggregateRepository(store, configAggregate, {
      ...(options.now ? { now: options.now } : {}),
      onEvents: (events) => {
        for (const listener of [...this.listeners]) {
          try {
            listener(events);
          } catch (error) {
            // The events are recorded whatever a listener does; it must not look half-applied.
            options.onListenerError?.(error);
          }
        }
      },
    });
  }

  /** The state as last read or written here, without I/O (may lag other replicas). */
  get cached(): ConfigState {
    return this.repository.cached.state;
  }

  /** The state now, caught up with every replica's appends. */
  async load(): Promise<ConfigState> {
    return (await this.repository.load()).state;
  }

  /** The id the first event of a change gets: secrets are stored with it before the event is appended. */
  static firstEventId(commandId: string): string {
    return `${commandId}:0`;
  }

  async record(command: ConfigCommand, origin: ChangeOrigin = {}): Promise<AggregateRecorded<ConfigState, ConfigEvent>> {
    return this.repository.record(command, {
      commandId: origin.commandId ?? randomUUID(),
      ...(origin.correlationId ? { correlationId: origin.correlationId } : {}),
    });
  }

  /** Called with every event folded in from now on; returns the unsubscribe function. */
  onEvents(listener: ConfigListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The stream as stored, from a revision on (audit). */
  history(fromRevision = 0): Promise<readonly RecordedEvent[]> {
    return this.store.readStream(CONFIG_STREAM_ID, { fromRevision });
  }
}
