import { afterEach, expect, it } from '@jest/globals';
import { SCHEDULED_TASKS_STREAM_ID, type RecordedEvent } from '@oneclaw/core';
import { PostgresEventStore } from '@oneclaw/event-store-postgres';
import { describeWithPostgres } from '@oneclaw/event-store-postgres/testing';
import { runLoad, sendTurn, startReplicaSet, streamProblems, type ReplicaSet, type TurnOutcome } from '../testing/replica-set';
import { waitFor } from '../testing/server-process';

/**
 * Three real server processes (replicas) on one real PostgreSQL database, with a loopback FAKE
 * OpenAI-compatible model that answers every session at once (a tool call, then text), so 30
 * sessions can run concurrently with their turns landing on any replica (issue 18, part 2).
 * Nothing here waits on time except where the server's own minute timer is the subject.
 */
const REPLICAS = 3;
const SESSIONS = 30;
const TURNS = 3;

describeWithPostgres('three replicas on one PostgreSQL database (FAKE OpenAI model)', (cluster) => {
  let set: ReplicaSet | undefined;
  let store: PostgresEventStore | undefined;
  afterEach(async () => {
    await set?.close();
    await store?.close();
    set = undefined;
    store = undefined;
  }, 60_000);

  async function start(env: Record<string, string> = {}): Promise<ReplicaSet> {
    const databaseUrl = await cluster().createDatabase();
    set = await startReplicaSet(databaseUrl, REPLICAS, env);
    store = await PostgresEventStore.connect(databaseUrl, { poolSize: 2 });
    return set;
  }

  const sessionIds = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

  async function createSessions(replicas: ReplicaSet, ids: readonly string[]): Promise<void> {
    for (const [i, sessionId] of ids.entries()) {
      const created = await replicas.call(i % REPLICAS, 'POST', '/api/sessions', { sessionId });
      expect(created.status).toBe(201);
    }
  }

  it('PG-30 30 concurrent sessions, each turn sent to another replica: every acknowledged turn is in the store exactly once, streams replay on every replica with gapless revisions, global positions are unique', async () => {
    const replicas = await start();
    const ids = sessionIds('load', SESSIONS);
    await createSessions(replicas, ids);
    // Round-robin per request, shifted per session: consecutive turns of a session never share a replica.
    const outcomes = await runLoad(replicas, ids, TURNS, (s, t) => (s + t) % REPLICAS);
    const failed = outcomes.filter((o) => o.status !== 200 || o.reason !== 'completed');
    expect(failed).toEqual([]);
    expect(outcomes).toHaveLength(SESSIONS * TURNS);

    const problems: string[] = [];
    for (const [s, sessionId] of ids.entries()) {
      const acknowledged = outcomes.filter((o) => o.sessionId === sessionId).map((o) => o.turnId as string);
      // Each replica reads the same stream from the store, and each replays it into a view.
      const streams = await Promise.all(Array.from({ length: REPLICAS }, (_, i) => replicas.events(i, sessionId)));
      problems.push(...streamProblems(sessionId, streams[s % REPLICAS] as RecordedEvent[], acknowledged));
      for (const stream of streams) expect(stream.map((e) => e.metadata.eventId)).toEqual((streams[0] as RecordedEvent[]).map((e) => e.metadata.eventId));
      expect((streams[0] as RecordedEvent[]).filter((e) => e.type === 'TurnFinished')).toHaveLength(TURNS);
      const view = await replicas.call((s + 1) % REPLICAS, 'GET', `/api/sessions/${sessionId}`);
      expect(view.body).toMatchObject({ sessionId, turnInProgress: false });
      expect((view.body.messages as { role: string }[]).filter((m) => m.role === 'user')).toHaveLength(TURNS);
    }
    expect(problems).toEqual([]);

    // The global order, read straight from PostgreSQL: unique, increasing positions, every event once.
    const all = await (store as PostgresEventStore).readAll();
    const positions = all.map((e) => e.position);
    expect(new Set(positions).size).toBe(all.length);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(new Set(all.map((e) => e.metadata.eventId)).size).toBe(all.length);
    const sessionEvents = all.filter((e) => e.streamId.startsWith('session-load-'));
    expect(sessionEvents.filter((e) => e.type === 'TurnFinished')).toHaveLength(SESSIONS * TURNS);
    // Every replica's session list follows the store and shows all 30 sessions.
    for (let i = 0; i < REPLICAS; i++) {
      await waitFor(
        `replica ${i} to list every session`,
        async () => {
          const listed = (await replicas.call(i, 'GET', '/api/sessions')).body.sessions as { sessionId: string }[];
          return ids.every((id) => listed.some((s) => s.sessionId === id)) ? true : undefined;
        },
        4_000,
      );
    }
  }, 300_000);

  it('PG-31 the same session sent a message on two replicas at once: one turn runs, the other answers 409 turn_in_progress, never both and never a 500', async () => {
    const replicas = await start();
    const ids = sessionIds('contended', 10);
    await createSessions(replicas, ids);
    // The FAKE model holds every "HOLD" message, so the first turn stays open while the second arrives.
    const answered = new Set<string>();
    const pairs = ids.map((sessionId, s) => {
      const [a, b] = [s % REPLICAS, (s + 1) % REPLICAS];
      const send = (i: number, text: string) => sendTurn(replicas, i, sessionId, text).then((o) => (answered.add(sessionId), o));
      return Promise.all([send(a, 'HOLD: first'), send(b, 'HOLD: second')]);
    });
    // Each session: one answer already (the refusal) while its other turn is held at the model.
    // Were both turns let in, no answer would come for that session and this gives up.
    await waitFor(
      'one refusal per session, with one turn per session held at the model',
      async () => (answered.size === ids.length && replicas.model.heldCount() === ids.length ? true : undefined),
      4_000,
    );
    replicas.model.release();
    const results = await Promise.all(pairs);
    for (const pair of results) {
      const statuses = pair.map((o: TurnOutcome) => o.status).sort();
      expect(statuses).toEqual([200, 409]);
      expect(pair.find((o) => o.status === 409)?.code).toBe('turn_in_progress');
      expect(pair.find((o) => o.status === 200)?.reason).toBe('completed');
    }
    for (const [s, sessionId] of ids.entries()) {
      const events = await replicas.events((s + 2) % REPLICAS, sessionId);
      const ran = results[s]?.find((o) => o.status === 200)?.turnId as string;
      expect(streamProblems(sessionId, events, [ran])).toEqual([]);
      // The refused message left no trace: one user message, one finished turn.
      expect(events.filter((e) => e.type === 'MessageSent' && (e.data as { role: string }).role === 'user')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'TurnFinished')).toHaveLength(1);
    }
  }, 300_000);

  it('PG-32 config and tool enablement changed through one replica reach every replica (provider created, tool and group disabled, then enabled again)', async () => {
    const replicas = await start();
    const groups = (await replicas.call(0, 'GET', '/api/tool-groups')).body.groups as { name: string; enabled: boolean }[];
    const group = groups.find((g) => g.enabled && g.name !== 'config')?.name as string;
    expect(group).toBeDefined();
    const toolEnabled = async (i: number, name: string): Promise<boolean | undefined> => {
      const sources = (await replicas.call(i, 'GET', '/api/tools')).body.sources as { tools: { name: string; enabled: boolean }[] }[];
      return sources.flatMap((s) => s.tools).find((t) => t.name === name)?.enabled;
    };
    const groupEnabled = async (i: number, name: string) =>
      ((await replicas.call(i, 'GET', '/api/tool-groups')).body.groups as { name: string; enabled: boolean }[]).find((g) => g.name === name)?.enabled;

    const created = await replicas.call(0, 'POST', '/api/providers', { name: 'Replica Lab', kind: 'openai', apiBaseUrl: 'http://127.0.0.1:9/v1' });
    expect(created.status).toBe(201);
    expect((await replicas.call(1, 'PUT', '/api/tools/get_current_time/enabled', { enabled: false })).status).toBe(204);
    expect((await replicas.call(2, 'PUT', `/api/tool-groups/${group}/enabled`, { enabled: false })).status).toBe(204);
    for (let i = 0; i < REPLICAS; i++) {
      // The tool lists first, on their own: reading the providers would catch the replica up too.
      await waitFor(
        `replica ${i} to show the tool and the group disabled`,
        async () => ((await toolEnabled(i, 'get_current_time')) === false && (await groupEnabled(i, group)) === false ? true : undefined),
        4_000,
      );
      await waitFor(
        `replica ${i} to list the new provider`,
        async () => (((await replicas.call(i, 'GET', '/api/providers')).body.providers as { name: string }[]).some((p) => p.name === 'Replica Lab') ? true : undefined),
        4_000,
      );
    }
    // The change is live where the turn runs: a session on replica 0 is no longer offered the tool
    // disabled through replica 1 (the FAKE calls it anyway and gets a refusal, as the real one might).
    await createSessions(replicas, ['after-disable']);
    const turn = await sendTurn(replicas, 0, 'after-disable', 'what time is it?');
    expect(turn.status).toBe(200);
    const requested = (await replicas.events(2, 'after-disable')).find((e) => e.type === 'ModelRequested')?.data as { toolNames: string[] };
    expect(requested.toolNames).not.toContain('get_current_time');

    expect((await replicas.call(2, 'PUT', '/api/tools/get_current_time/enabled', { enabled: true })).status).toBe(204);
    expect((await replicas.call(0, 'PUT', `/api/tool-groups/${group}/enabled`, { enabled: true })).status).toBe(204);
    for (let i = 0; i < REPLICAS; i++) {
      await waitFor(
        `replica ${i} to see the re-enabling`,
        async () => ((await toolEnabled(i, 'get_current_time')) === true && (await groupEnabled(i, group)) === true ? true : undefined),
        4_000,
      );
    }
  }, 300_000);

  it("PG-33 a daily and a one-time task due at the next minute run once for that slot across three replicas, whose minute timers all fire (FAKE model runs the task's turn)", async () => {
    const replicas = await start({ ONECLAW_TIMEZONE: 'UTC' });
    await createSessions(replicas, ['planner']);
    const chat = async (i: number, text: string) => {
      const turn = await sendTurn(replicas, i, 'planner', text);
      expect(turn).toMatchObject({ status: 200 });
    };
    await chat(0, 'CALL load_tool_group {"group_name":"scheduled_tasks"}');
    // The slot: a whole minute at least 20 s away, so every replica is ticking when it comes.
    const slot = new Date(Math.ceil((Date.now() + 20_000) / 60_000) * 60_000);
    const [date, hour, minute] = [slot.toISOString().slice(0, 10), slot.getUTCHours(), slot.getUTCMinutes()];
    await chat(1, `CALL schedule_task {"name":"Daily","prompt":"daily check","schedule_type":"daily","hour":${hour},"minute":${minute}}`);
    await chat(2, `CALL schedule_task {"name":"Once","prompt":"one-time check","schedule_type":"one_time","date":"${date}","hour":${hour},"minute":${minute}}`);
    const taskStream = () => (store as PostgresEventStore).readStream(SCHEDULED_TASKS_STREAM_ID);
    expect((await taskStream()).filter((e) => e.type === 'TaskScheduled')).toHaveLength(2);

    // Both runs finish; then the wall clock passes the next minute's tick too, so every replica's
    // timer has fired for the slot (a late one re-decides on fresh state and finds it claimed).
    await waitFor(
      'both runs to finish',
      async () => ((await taskStream()).filter((e) => e.type === 'TaskRunFinished').length >= 2 ? true : undefined),
      // 25 ms per attempt: up to ~3.5 minutes on a busy machine.
      8_000,
    );
    await waitFor('the minute after the slot to pass', async () => (Date.now() > slot.getTime() + 61_000 ? true : undefined), 8_000);
    const stream = await taskStream();
    const starts = stream.filter((e) => e.type === 'TaskRunStarted');
    expect(starts).toHaveLength(2);
    expect(starts.map((e) => (e.data as { scheduledFor?: string }).scheduledFor)).toEqual([slot.toISOString(), slot.toISOString()]);
    expect(stream.filter((e) => e.type === 'TaskRunFinished').map((e) => (e.data as { outcome: string }).outcome)).toEqual(['succeeded', 'succeeded']);
    // One session per run, with one turn in it.
    for (const start of starts) {
      const sessionId = (start.data as { sessionId: string }).sessionId;
      const events = await replicas.events(0, sessionId);
      expect(events.filter((e) => e.type === 'TurnFinished')).toHaveLength(1);
      expect(streamProblems(sessionId, events, [])).toEqual([]);
    }
    const runSessions = (await (store as PostgresEventStore).readAll()).filter((e) => e.type === 'SessionStarted' && e.streamId.includes('task-'));
    expect(runSessions).toHaveLength(2);
  }, 360_000);
});
