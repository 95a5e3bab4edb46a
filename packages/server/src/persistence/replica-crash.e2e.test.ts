import { afterEach, expect, it } from '@jest/globals';
import type { RecordedEvent } from '@oneclaw/core';
import { PostgresEventStore } from '@oneclaw/event-store-postgres';
import { describeWithPostgres } from '@oneclaw/event-store-postgres/testing';
import { sendTurn, startReplicaSet, streamProblems, type ReplicaSet, type TurnOutcome } from '../testing/replica-set';
import { waitFor } from '../testing/server-process';

/**
 * kill -9 under load (issue 18, part 2): three real server processes on one real PostgreSQL,
 * 30 sessions sending turns to any replica, a loopback FAKE OpenAI-compatible model. First a
 * replica is killed, then PostgreSQL itself. What must hold: every turn answered 200 is in the
 * store afterwards, exactly once; nothing answers 500; turns cut off mid-way are closed as
 * `interrupted`; the surviving processes stay up and serve again.
 */
const REPLICAS = 3;
const SESSIONS = 30;
/** Sessions whose turn is held at the model when the kill comes: certainly cut off mid-turn. */
const HELD = 3;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeWithPostgres('kill -9 under load: a replica, then PostgreSQL (FAKE OpenAI model)', (cluster) => {
  let set: ReplicaSet | undefined;
  let store: PostgresEventStore | undefined;
  afterEach(async () => {
    await set?.close();
    await store?.close();
    set = undefined;
    store = undefined;
  }, 60_000);

  async function start(): Promise<{ replicas: ReplicaSet; ids: string[] }> {
    const databaseUrl = await cluster().createDatabase();
    const replicas = await startReplicaSet(databaseUrl, REPLICAS);
    set = replicas;
    const ids = Array.from({ length: SESSIONS }, (_, i) => `crash-${i}`);
    for (const [i, sessionId] of [...ids, ...heldIds()].entries()) expect((await replicas.call(i % REPLICAS, 'POST', '/api/sessions', { sessionId })).status).toBe(201);
    return { replicas, ids };
  }
  const heldIds = () => Array.from({ length: HELD }, (_, i) => `held-${i}`);

  /**
   * Every session sends turns one after the other, turn t of session s to replica (s + t) % 3,
   * skipping replicas marked down (as a load balancer's health check would), until `stop()`.
   * A refused or failed request is followed by a short pause: the client is pacing itself.
   */
  function load(replicas: ReplicaSet, ids: readonly string[], down: Set<number>) {
    const outcomes: TurnOutcome[] = [];
    let stopped = false;
    const done = Promise.all(
      ids.map(async (sessionId, s) => {
        for (let t = 0; !stopped; t++) {
          let replica = (s + t) % REPLICAS;
          while (down.has(replica)) replica = (replica + 1) % REPLICAS;
          const outcome = await sendTurn(replicas, replica, sessionId, `turn ${t}: what time is it?`);
          outcomes.push(outcome);
          if (outcome.status !== 200) await pause(50);
        }
      }),
    );
    return {
      outcomes,
      acknowledged: () => outcomes.filter((o) => o.status === 200).length,
      async stop() {
        stopped = true;
        await done;
      },
    };
  }

  /** Checks every session's stream as replica `i` reads it against the turns answered 200. */
  async function checkStreams(replicas: ReplicaSet, i: number, ids: readonly string[], outcomes: readonly TurnOutcome[]): Promise<Map<string, RecordedEvent[]>> {
    const problems: string[] = [];
    const streams = new Map<string, RecordedEvent[]>();
    for (const sessionId of ids) {
      const events = await replicas.events(i, sessionId);
      streams.set(sessionId, events);
      const acknowledged = outcomes.filter((o) => o.sessionId === sessionId && o.status === 200).map((o) => o.turnId as string);
      problems.push(...streamProblems(sessionId, events, acknowledged));
    }
    expect(problems).toEqual([]);
    const all = await (store as PostgresEventStore).readAll();
    expect(new Set(all.map((e) => e.position)).size).toBe(all.length);
    expect(new Set(all.map((e) => e.metadata.eventId)).size).toBe(all.length);
    return streams;
  }

  /** Waits until no session's stream has an open turn (a user message without its TurnFinished), as replica `i` reads it. */
  async function allTurnsClosed(replicas: ReplicaSet, i: number, ids: readonly string[]): Promise<void> {
    await waitFor(
      `every turn closed (read through replica ${i})`,
      async () => {
        for (const sessionId of ids) {
          const answer = await replicas.call(i, 'GET', `/api/sessions/${sessionId}/events`);
          if (answer.status !== 200 || streamProblems(sessionId, answer.body.events as RecordedEvent[], []).length > 0) return undefined;
        }
        return true;
      },
      4_000,
    );
  }

  it('PG-34 kill -9 of one replica mid-load: no acknowledged turn lost, the others answer no 500 and keep serving; restarted under its replica id it closes its cut-off turns as interrupted', async () => {
    const { replicas, ids } = await start();
    store = await PostgresEventStore.connect(replicas.databaseUrl, { poolSize: 2 });
    const down = new Set<number>();
    const running = load(replicas, ids, down);
    await waitFor('30 acknowledged turns', async () => (running.acknowledged() >= 30 ? true : undefined), 8_000);

    // Turns held at the model on replica 2 when it dies: cut off after their first events.
    const held = heldIds().map((sessionId) => sendTurn(replicas, 2, sessionId, 'HOLD: cut me off'));
    await waitFor('the held turns to reach the model', async () => (replicas.model.heldCount() >= HELD ? true : undefined), 4_000);
    down.add(2);
    await (replicas.servers[2] as { kill(): Promise<void> }).kill();
    for (const outcome of await Promise.all(held)) expect(outcome.status).toBe('network');
    replicas.model.release();

    // The survivors keep serving under load.
    const before = running.acknowledged();
    await waitFor('30 more acknowledged turns on the survivors', async () => (running.acknowledged() >= before + 30 ? true : undefined), 8_000);
    expect(replicas.servers[0]?.child.exitCode).toBeNull();
    expect(replicas.servers[1]?.child.exitCode).toBeNull();

    // Restarted under the same replica id, it closes the turns its killed process left open.
    await replicas.restart(2);
    down.delete(2);
    await waitFor('30 more acknowledged turns with three replicas', async () => (running.acknowledged() >= before + 60 ? true : undefined), 8_000);
    await running.stop();

    const allIds = [...ids, ...heldIds()];
    await allTurnsClosed(replicas, 0, allIds);
    // Nothing but answers, refusals of a session whose turn another replica may still run, or a
    // dropped connection to the killed replica: never a 500.
    const unexpected = running.outcomes.filter((o) => !(o.status === 200 || o.status === 'network' || (o.status === 409 && o.code === 'turn_in_progress')));
    expect(unexpected).toEqual([]);
    expect(running.outcomes.filter((o) => o.status === 'network').every((o) => o.replica === 2)).toBe(true);

    const streams = await checkStreams(replicas, 1, allIds, running.outcomes);
    for (const sessionId of heldIds()) {
      const finished = (streams.get(sessionId) as RecordedEvent[]).filter((e) => e.type === 'TurnFinished');
      expect(finished.map((e) => (e.data as { reason: string }).reason)).toEqual(['interrupted']);
    }
    // Every session serves again, on every replica.
    for (const [s, sessionId] of allIds.entries()) {
      expect(await sendTurn(replicas, s % REPLICAS, sessionId, 'after the crash')).toMatchObject({ status: 200, reason: 'completed' });
    }
  }, 600_000);

  it('PG-35 kill -9 of PostgreSQL mid-load, then restart: requests during the outage answer 503 storage_unavailable (never 500), the processes stay up, no acknowledged turn is lost, cut-off turns are closed as interrupted, every replica serves again', async () => {
    const { replicas, ids } = await start();
    const running = load(replicas, ids, new Set());
    await waitFor('30 acknowledged turns', async () => (running.acknowledged() >= 30 ? true : undefined), 8_000);

    // Turns held at the model when PostgreSQL dies: their next append fails.
    const held = heldIds().map((sessionId, i) => sendTurn(replicas, i % REPLICAS, sessionId, 'HOLD: cut me off'));
    await waitFor('the held turns to reach the model', async () => (replicas.model.heldCount() >= HELD ? true : undefined), 4_000);
    await cluster().kill();
    const atKill = running.outcomes.length;
    replicas.model.release();
    for (const outcome of await Promise.all(held)) expect(outcome).toMatchObject({ status: 503, code: 'storage_unavailable' });
    await waitFor('requests during the outage to be answered', async () => (running.outcomes.slice(atKill).filter((o) => o.status === 503).length >= 30 ? true : undefined), 8_000);
    for (const server of replicas.servers) expect(server.child.exitCode).toBeNull();

    await cluster().restart();
    const before = running.acknowledged();
    await waitFor('60 acknowledged turns after the restart', async () => (running.acknowledged() >= before + 60 ? true : undefined), 8_000);
    await running.stop();

    const allIds = [...ids, ...heldIds()];
    for (let i = 0; i < REPLICAS; i++) await allTurnsClosed(replicas, i, allIds);
    const unexpected = running.outcomes.filter(
      (o) => !(o.status === 200 || (o.status === 503 && o.code === 'storage_unavailable') || (o.status === 409 && o.code === 'turn_in_progress')),
    );
    expect(unexpected).toEqual([]);
    for (const server of replicas.servers) expect(server.child.exitCode).toBeNull();

    store = await PostgresEventStore.connect(replicas.databaseUrl, { poolSize: 2 });
    const streams = await checkStreams(replicas, 2, allIds, running.outcomes);
    for (const sessionId of heldIds()) {
      const finished = (streams.get(sessionId) as RecordedEvent[]).filter((e) => e.type === 'TurnFinished');
      expect(finished.map((e) => (e.data as { reason: string }).reason)).toEqual(['interrupted']);
    }
    for (const [s, sessionId] of allIds.entries()) {
      expect(await sendTurn(replicas, (s + 1) % REPLICAS, sessionId, 'after the outage')).toMatchObject({ status: 200, reason: 'completed' });
    }
    expect(replicas.servers.map((s) => s.logText()).join('\n')).not.toContain(cluster().password);
  }, 600_000);
});
