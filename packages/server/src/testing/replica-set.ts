import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RecordedEvent } from '@oneclaw/core';
import { REPLICA_MODEL_KEY, startReplicaModel, type ReplicaModel } from './replica-model';
import { ServerProcess, serverProcessEnv, ServerProcessGroup } from './server-process';

export const REPLICA_TOKEN = 'replica-e2e-token-0123456789abcdef';

/** An HTTP answer: status and parsed JSON body (undefined when there is none). */
export interface Answer {
  readonly status: number;
  readonly body: any;
}

/**
 * Several real server processes (replicas) on one PostgreSQL database, each with its own data
 * directory and replica id, all talking to one loopback FAKE model (startReplicaModel).
 * `restart(i)` starts replica i again under the same replica id (a new process), as a
 * supervisor would after a crash.
 */
export interface ReplicaSet {
  readonly model: ReplicaModel;
  readonly databaseUrl: string;
  readonly servers: ServerProcess[];
  readonly urls: string[];
  /** One HTTP call to replica `i`; a refused connection (replica down) throws. */
  call(i: number, method: string, route: string, body?: unknown): Promise<Answer>;
  /** A session's events as replica `i` reads them from the store. */
  events(i: number, sessionId: string): Promise<RecordedEvent[]>;
  restart(i: number): Promise<void>;
  /** Kills every process, closes the model, removes the data directories. */
  close(): Promise<void>;
}

export async function startReplicaSet(databaseUrl: string, count: number, extraEnv: Record<string, string> = {}): Promise<ReplicaSet> {
  const group = new ServerProcessGroup();
  const model = await startReplicaModel();
  group.also(() => model.close());
  const dataDirs: string[] = [];
  const servers: ServerProcess[] = [];
  const urls: string[] = [];
  const start = async (i: number) => {
    dataDirs[i] ??= mkdtempSync(path.join(os.tmpdir(), `oneclaw-replica-${i}-`));
    const server = group.start({
      ...serverProcessEnv({ dataDir: dataDirs[i] as string, token: REPLICA_TOKEN }),
      ONECLAW_PROVIDER: 'openai',
      OPENAI_API_KEY: REPLICA_MODEL_KEY,
      OPENAI_BASE_URL: model.url,
      ONECLAW_PROVIDER_MAX_RETRIES: '0',
      ONECLAW_RATE_LIMIT_PER_MINUTE: '1000000',
      ONECLAW_REPLICA_ID: `replica-${i}`,
      ONECLAW_POSTGRES_URL: databaseUrl,
      ONECLAW_POSTGRES_POOL_SIZE: '8',
      ...extraEnv,
    });
    servers[i] = server;
    urls[i] = await server.url();
  };
  group.also(() => {
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });
  try {
    await Promise.all(Array.from({ length: count }, (_, i) => start(i)));
  } catch (error) {
    await group.killAll();
    throw error;
  }
  const call = async (i: number, method: string, route: string, body?: unknown): Promise<Answer> => {
    const response = await fetch((urls[i] as string) + route, {
      method,
      headers: { authorization: `Bearer ${REPLICA_TOKEN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    model,
    databaseUrl,
    servers,
    urls,
    call,
    async events(i, sessionId) {
      const answer = await call(i, 'GET', `/api/sessions/${sessionId}/events`);
      if (answer.status !== 200) throw new Error(`GET events of ${sessionId} on replica ${i}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body.events as RecordedEvent[];
    },
    restart: (i) => start(i),
    close: () => group.killAll(),
  };
}

/** What one turn request got: the HTTP status and code, or `network` when the connection failed. */
export interface TurnOutcome {
  readonly sessionId: string;
  readonly replica: number;
  readonly status: number | 'network';
  readonly code?: string;
  readonly turnId?: string;
  readonly reason?: string;
}

/** Sends one message to replica `i` and says how it went, never throwing. */
export async function sendTurn(set: ReplicaSet, i: number, sessionId: string, text: string): Promise<TurnOutcome> {
  try {
    const { status, body } = await set.call(i, 'POST', `/api/sessions/${sessionId}/messages`, { text });
    return { sessionId, replica: i, status, code: body?.code, turnId: body?.turnId, reason: body?.reason };
  } catch {
    return { sessionId, replica: i, status: 'network' };
  }
}

/**
 * Runs `turns` turns in each session, all sessions at once, each session's turns one after the
 * other; turn t of session s goes to replica `pick(s, t)`. Resolves with every outcome.
 */
export async function runLoad(
  set: ReplicaSet,
  sessionIds: readonly string[],
  turns: number,
  pick: (session: number, turn: number) => number,
  afterTurn?: (outcome: TurnOutcome) => Promise<void> | void,
): Promise<TurnOutcome[]> {
  const outcomes: TurnOutcome[] = [];
  await Promise.all(
    sessionIds.map(async (sessionId, s) => {
      for (let t = 0; t < turns; t++) {
        const outcome = await sendTurn(set, pick(s, t), sessionId, `turn ${t} of ${sessionId}: what time is it?`);
        outcomes.push(outcome);
        await afterTurn?.(outcome);
      }
    }),
  );
  return outcomes;
}

/**
 * Checks a session's stream as read back: revisions 0..n-1 without a gap, every event id once,
 * and every acknowledged turn (answered 200) finished exactly once; every turn in the stream is
 * closed (no open turn left). Returns the problems found, empty when all is well.
 */
export function streamProblems(sessionId: string, events: readonly RecordedEvent[], acknowledgedTurnIds: readonly string[]): string[] {
  const problems: string[] = [];
  events.forEach((e, i) => {
    if (e.revision !== i) problems.push(`${sessionId}: event ${i} has revision ${e.revision}`);
  });
  const ids = new Set(events.map((e) => e.metadata.eventId));
  if (ids.size !== events.length) problems.push(`${sessionId}: ${events.length - ids.size} duplicated event id(s)`);
  const finished = events.filter((e) => e.type === 'TurnFinished');
  for (const turnId of acknowledgedTurnIds) {
    const n = finished.filter((e) => e.metadata.correlationId === turnId).length;
    if (n !== 1) problems.push(`${sessionId}: acknowledged turn ${turnId} finished ${n} times in the stream`);
  }
  const opened = new Set(events.filter((e) => e.type === 'MessageSent' && (e.data as { role?: string }).role === 'user').map((e) => e.metadata.correlationId));
  for (const turnId of opened) {
    if (!finished.some((e) => e.metadata.correlationId === turnId)) problems.push(`${sessionId}: turn ${turnId} is still open`);
  }
  return problems;
}
