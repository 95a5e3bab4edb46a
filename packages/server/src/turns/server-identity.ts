import { randomUUID } from 'node:crypto';
import type { AskingServer, TurnHost } from '@oneclaw/core';

/**
 * This server process as turns record it: the replica's stable name and an id new at every
 * start. With the silence limit it is what `judgeOpenTurn` needs to tell a turn cut off by an
 * earlier process of this replica from one another replica is still running.
 */
export class ServerIdentity {
  readonly host: TurnHost;

  constructor(
    replicaId: string,
    readonly silenceLimitMs: number,
    processId: string = randomUUID(),
    private readonly now: () => Date = () => new Date(),
  ) {
    this.host = { replicaId, processId };
  }

  asker(): AskingServer {
    return { host: this.host, now: this.now(), silenceLimitMs: this.silenceLimitMs };
  }
}
