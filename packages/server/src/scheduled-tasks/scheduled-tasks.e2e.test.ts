import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SCHEDULED_TASKS_STREAM_ID, type EventStore, type RecordedEvent } from '@oneclaw/core';
import { startFakeModelServer, type FakeModelServer, fakeReply, type FakeReply } from '@oneclaw/model-providers/testing';
import { startTestServer, type TestServer } from '../testing/test-server';
import { EVENT_STORE } from '../tokens';
import { ScheduledTaskService } from './scheduled-task-service';
import { TaskScheduler } from './task-scheduler';

/**
 * Scheduled tasks end to end: real HTTP to a booted server (SQLite store), a loopback FAKE
 * Anthropic server scripting the model. The chat session runs the "planner" agent, whose round
 * cap of 1 makes every turn exactly one model request: the order of the fake's replies is then
 * fixed even though a started run talks to the model in the background.
 */
const MODEL_KEY = 'sk-ant-test-model-key-scheduled-000';
const ZONE = 'Asia/Tokyo';
const PLANNER_PROMPT = 'You are the planner agent.';

// A test boots a real server (the first one twice, for a restart) and runs turns: more than Jest's 5 s on a busy machine.
jest.setTimeout(30_000);

type Message = { role: string; text?: string; toolName?: string; status?: string; result?: string; message?: string };

const eventsOf = async (server: TestServer, sessionId: string): Promise<RecordedEvent[]> => (await server.api('GET', `/api/sessions/${sessionId}/events`)).body.events;
const messagesOf = async (server: TestServer, sessionId: string): Promise<Message[]> =>
  (await eventsOf(server, sessionId)).filter((e) => e.type === 'MessageSent').map((e) => e.data as Message);

/** One turn of session `chat` in which the model makes exactly this tool call (then `later` is queued); resolves with the tool's result. */
async function modelCallsOn(server: TestServer, model: FakeModelServer, toolName: string, args: object, ...later: FakeReply[]): Promise<Message> {
  model.enqueue(fakeReply.toolCall(toolName, args), ...later);
  const turn = await server.api('POST', '/api/sessions/chat/messages', { text: `please ${toolName}` });
  expect(turn.status).toBe(200);
  expect(turn.body.reason).toBe('round_cap');
  return (await messagesOf(server, 'chat')).filter((m) => m.role === 'tool' && m.toolName === toolName).at(-1) as Message;
}

/** An hour twelve hours from now on the zone's clock, so the server's own minute timer never reaches it during a test. */
function hourFarFromNow(zone: string): number {
  const hour = Number(new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
  return (hour + 12) % 24;
}

describe('scheduled tasks over HTTP with a fake Anthropic model (issue 6)', () => {
  let model: FakeModelServer;
  let server: TestServer;
  let dataDir: string;

  const env = () => ({
    ONECLAW_PROVIDER: 'anthropic',
    ANTHROPIC_API_KEY: MODEL_KEY,
    ANTHROPIC_BASE_URL: model.url,
    ONECLAW_PROVIDER_MAX_RETRIES: '0',
    ONECLAW_TIMEZONE: ZONE,
  });
  const events = (sessionId: string) => eventsOf(server, sessionId);
  const messages = (sessionId: string) => messagesOf(server, sessionId);
  const modelCalls = (toolName: string, args: object, ...later: FakeReply[]) => modelCallsOn(server, model, toolName, args, ...later);

  beforeEach(async () => {
    model = await startFakeModelServer('anthropic', { apiKey: MODEL_KEY });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-tasks-'));
    writeFileSync(path.join(dataDir, 'agents.json'), JSON.stringify([{ id: 'planner', name: 'Planner', systemPrompt: PLANNER_PROMPT, maxRounds: 1 }]));
    server = await startTestServer({ dataDir, env: env() });
  });

  afterEach(async () => {
    await server.close();
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('schedule_task, run_scheduled_task (a new session with the prompt and the answer), list_scheduled_tasks shows the run, a tick runs the slot, and the task survives a restart', async () => {
    expect((await server.api('POST', '/api/sessions', { sessionId: 'chat', agentId: 'planner' })).status).toBe(201);
    expect((await modelCalls('load_tool_group', { group_name: 'scheduled_tasks' })).status).toBe('success');

    const hour = hourFarFromNow(ZONE);
    const scheduled = await modelCalls('schedule_task', { name: 'Briefing', prompt: 'Give me my morning briefing.', schedule_type: 'daily', hour, minute: 5 });
    expect(scheduled.status).toBe('success');
    expect(scheduled.result).toContain(`"Briefing": every day at ${String(hour).padStart(2, '0')}:05 (${ZONE}); enabled; next run: `);
    const taskId = /task-[0-9a-f]{10}/.exec(scheduled.result ?? '')?.[0] as string;
    expect(taskId).toBeDefined();

    // Run it now: the tool answers with the new session at once; the run's turn is the next model request.
    const ran = await modelCalls('run_scheduled_task', { task_id: taskId }, fakeReply.text('Good morning! Three meetings today.'));
    expect(ran.status).toBe('success');
    const runSession = new RegExp(`in session (${taskId}-run-[0-9a-f]{12})\\.`).exec(ran.result ?? '')?.[1] as string;
    expect(runSession).toBeDefined();
    await server.app.get(ScheduledTaskService).whenIdle();

    const run = await events(runSession);
    expect(run[0]).toMatchObject({ type: 'SessionStarted', data: { sessionId: runSession, agentId: 'planner' } });
    expect((await messages(runSession)).map((m) => [m.role, m.text])).toEqual([
      ['user', 'Give me my morning briefing.'],
      ['assistant', 'Good morning! Three meetings today.'],
    ]);
    expect(run.at(-1)).toMatchObject({ type: 'TurnFinished', data: { reason: 'completed' } });
    // The run's request went out with the task's agent (the planner's prompt) and the task's prompt.
    const runRequest = model.requests[3]?.body as { system: unknown; messages: { role: string; content: unknown }[] };
    expect(JSON.stringify(runRequest.system)).toContain(PLANNER_PROMPT);
    expect(JSON.stringify(runRequest.messages)).toContain('Give me my morning briefing.');

    const listed = await modelCalls('list_scheduled_tasks', {});
    expect(listed.result).toContain(`1 scheduled task (times in ${ZONE}):`);
    expect(listed.result).toContain(`- ${taskId} "Briefing": every day at ${String(hour).padStart(2, '0')}:05; enabled`);
    expect(listed.result).toContain(`, started by hand, session ${runSession}: succeeded (completed: Answered after 1 model request(s).)`);

    // The scheduler in the booted server: a tick at the task's next slot starts a session for that slot.
    const [view] = await server.app.get(ScheduledTaskService).list();
    const slot = view?.nextRun as Date;
    model.enqueue(fakeReply.text('Scheduled briefing done.'));
    const started = await server.app.get(TaskScheduler).tick(slot);
    expect(started.map((r) => r.sessionId)).toEqual([`${taskId}-${slot.toISOString().replace(/[-:]/g, '').slice(0, 13)}Z`]);
    await server.app.get(ScheduledTaskService).whenIdle();
    expect((await messages(started[0]!.sessionId)).map((m) => m.text)).toEqual(['Give me my morning briefing.', 'Scheduled briefing done.']);

    // The task stream holds the whole story, and no secret.
    const stream = await server.app.get<symbol, EventStore>(EVENT_STORE).readStream(SCHEDULED_TASKS_STREAM_ID);
    expect(stream.map((e) => e.type)).toEqual(['TaskScheduled', 'TaskRunStarted', 'TaskRunFinished', 'TaskRunStarted', 'TaskRunFinished']);
    expect(JSON.stringify(stream)).not.toContain(MODEL_KEY);

    // Restart on the same data: the task is still listed, with its last run.
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir, env: env() });
    const afterRestart = await modelCalls('list_scheduled_tasks', {});
    expect(afterRestart.result).toContain(`- ${taskId} "Briefing": every day at ${String(hour).padStart(2, '0')}:05; enabled`);
    expect(afterRestart.result).toContain(`session ${started[0]!.sessionId}: succeeded (completed`);
    expect(server.logLines.text()).not.toContain(MODEL_KEY);
  });

  it('tool errors reach the model as error values: unknown task (not_found), inconsistent schedule (invalid_schedule)', async () => {
    expect((await server.api('POST', '/api/sessions', { sessionId: 'chat', agentId: 'planner' })).status).toBe(201);
    await modelCalls('load_tool_group', { group_name: 'scheduled_tasks' });
    expect(await modelCalls('run_scheduled_task', { task_id: 'task-0000000000' })).toMatchObject({ status: 'error', message: expect.stringContaining('list_scheduled_tasks') });
    const weekly = await modelCalls('schedule_task', { name: 'Review', prompt: 'Weekly review.', schedule_type: 'weekly', hour: 9, minute: 0 });
    expect(weekly).toMatchObject({ status: 'error', message: expect.stringContaining('A weekly task needs day_of_week') });
    const errorTypes = (await events('chat'))
      .filter((e) => e.type === 'MessageSent' && (e.data as { status?: string }).status === 'error')
      .map((e) => (e.data as { errorType: string }).errorType);
    expect(errorTypes).toEqual(['not_found', 'invalid_schedule']);
  });
});

describe('run_scheduled_task with a fake Gemini model, whose call ids repeat in every reply', () => {
  const GEMINI_KEY = 'gemini-test-model-key-scheduled-000';
  let model: FakeModelServer;
  let server: TestServer;
  let dataDir: string;

  beforeEach(async () => {
    model = await startFakeModelServer('gemini', { apiKey: GEMINI_KEY });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-tasks-gemini-'));
    writeFileSync(path.join(dataDir, 'agents.json'), JSON.stringify([{ id: 'planner', name: 'Planner', systemPrompt: PLANNER_PROMPT, maxRounds: 1 }]));
    server = await startTestServer({
      dataDir,
      env: { ONECLAW_PROVIDER: 'gemini', GEMINI_API_KEY: GEMINI_KEY, GEMINI_BASE_URL: model.url, ONECLAW_PROVIDER_MAX_RETRIES: '0', ONECLAW_TIMEZONE: ZONE },
    });
  });

  afterEach(async () => {
    await server.close();
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('two turns that each call run_scheduled_task start two runs, though both calls are gemini-0-run_scheduled_task', async () => {
    const events = (sessionId: string) => eventsOf(server, sessionId);
    const modelCalls = (toolName: string, args: object, ...later: FakeReply[]) => modelCallsOn(server, model, toolName, args, ...later);

    expect((await server.api('POST', '/api/sessions', { sessionId: 'chat', agentId: 'planner' })).status).toBe(201);
    expect((await modelCalls('load_tool_group', { group_name: 'scheduled_tasks' })).status).toBe('success');
    const scheduled = await modelCalls('schedule_task', {
      name: 'Briefing',
      prompt: 'Give me my morning briefing.',
      schedule_type: 'daily',
      hour: hourFarFromNow(ZONE),
      minute: 5,
    });
    const taskId = /task-[0-9a-f]{10}/.exec(scheduled.result ?? '')?.[0] as string;
    expect(taskId).toBeDefined();

    const service = server.app.get(ScheduledTaskService);
    const first = await modelCalls('run_scheduled_task', { task_id: taskId }, fakeReply.text('First run done.'));
    await service.whenIdle();
    const second = await modelCalls('run_scheduled_task', { task_id: taskId }, fakeReply.text('Second run done.'));
    await service.whenIdle();

    const calls = (await events('chat')).flatMap((e) =>
      ((e.data as { toolCalls?: { callId: string; toolName: string }[] }).toolCalls ?? []).filter((c) => c.toolName === 'run_scheduled_task'),
    );
    expect(calls.map((c) => c.callId)).toEqual(['gemini-0-run_scheduled_task', 'gemini-0-run_scheduled_task']);
    expect(first.result).toMatch(/^Started task /);
    expect(second.result).toMatch(/^Started task /);
    const sessionOf = (m: Message) => new RegExp(`in session (${taskId}-run-[0-9a-f]{12})\\.`).exec(m.result ?? '')?.[1];
    expect(sessionOf(first)).toBeDefined();
    expect(sessionOf(second)).toBeDefined();
    expect(sessionOf(second)).not.toBe(sessionOf(first));
    const stream = await server.app.get<symbol, EventStore>(EVENT_STORE).readStream(SCHEDULED_TASKS_STREAM_ID);
    expect(stream.map((e) => e.type)).toEqual(['TaskScheduled', 'TaskRunStarted', 'TaskRunFinished', 'TaskRunStarted', 'TaskRunFinished']);
    const answers = await Promise.all([sessionOf(first), sessionOf(second)].map(async (id) => (await events(id as string)).at(-1)));
    expect(answers).toMatchObject([
      { type: 'TurnFinished', data: { reason: 'completed' } },
      { type: 'TurnFinished', data: { reason: 'completed' } },
    ]);
  });
});
