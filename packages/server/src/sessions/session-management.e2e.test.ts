import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SESSION_TITLE_MAX_CHARS, type RecordedEvent } from '@oneclaw/core';
import { startFakeModelServer, type FakeModelServer, fakeGate, fakeReply } from '@oneclaw/model-providers/testing';
import { openLiveSse } from '../testing/live-sse';
import { CACHE_PAUSE_MS, CachePause } from '../persistence/cache-pause';
import { waitFor } from '../testing/server-process';
import { startTestServer, TEST_API_TOKEN, type ApiResponse, type TestServer } from '../testing/test-server';
import { SEARCH_HEAD_CHARS, SEARCH_TAIL_CHARS, SessionSearchTexts } from './session-search-text';

/**
 * Session management over real HTTP (SQLite store, a FAKE OpenAI-compatible model on loopback):
 * rename, delete (archive), search by title and message text, and the list rebuilt from the
 * store after a restart.
 */
const MODEL_KEY = 'fake-model-key-sessions';

interface Summary {
  sessionId: string;
  agentId: string;
  title: string;
}

function expectProblem(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(typeof res.body.detail).toBe('string');
}

describe('S1 session management over HTTP (rename, delete as archive, search; FAKE model)', () => {
  let model: FakeModelServer;
  let server: TestServer;
  let dataDir: string;
  const env = () => ({ ONECLAW_PROVIDER: 'openai', OPENAI_API_KEY: MODEL_KEY, OPENAI_BASE_URL: model.url });

  const list = async (q?: string): Promise<Summary[]> => {
    const res = await server.api('GET', `/api/sessions${q === undefined ? '' : `?q=${encodeURIComponent(q)}`}`);
    expect(res.status).toBe(200);
    return res.body.sessions as Summary[];
  };
  const ids = async (q?: string) => (await list(q)).map((s) => s.sessionId).sort();
  const start = async (sessionId: string, agentId?: string) => {
    const res = await server.api('POST', '/api/sessions', { sessionId, ...(agentId ? { agentId } : {}) });
    expect(res.status).toBe(201);
  };
  const say = async (sessionId: string, text: string, reply: string) => {
    model.enqueue(fakeReply.text(reply));
    const res = await server.stream(`/api/sessions/${sessionId}/messages`, { text });
    expect(res.events.at(-1)?.event).toBe('done');
  };
  const eventsOf = async (id: string): Promise<RecordedEvent[]> => (await server.api('GET', `/api/sessions/${id}/events`)).body.events;

  beforeAll(async () => {
    model = await startFakeModelServer('openai', { apiKey: MODEL_KEY });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-sessions-'));
    server = await startTestServer({ dataDir, env: env() });
    await start('trip');
    await say('trip', 'Plan a weekend in Lisbon', 'Visit the Alfama district and eat pastéis de nata.');
    await start('taxes');
    await say('taxes', 'How do I file my TAX return?', 'Gather your receipts first.');
    await start('empty');
  });

  afterAll(async () => {
    await server?.close();
    await model?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('search matches the title and the user and assistant text, ignoring case; every word must match; no q lists all', async () => {
    expect(await ids()).toEqual(['empty', 'taxes', 'trip']);
    expect(await ids('lisbon')).toEqual(['trip']); // the user's text (and title), other case
    expect(await ids('ALFAMA')).toEqual(['trip']); // the assistant's text
    expect(await ids('Nata')).toEqual(['trip']); // non-ASCII text around it
    expect(await ids('tax receipts')).toEqual(['taxes']); // user word + assistant word
    expect(await ids('tax lisbon')).toEqual([]); // both words must be in one session
    expect(await ids('   ')).toEqual(['empty', 'taxes', 'trip']);
    expect(await ids('zebra')).toEqual([]);
    // A tool's name or the model's name is not message text.
    expect(await ids('openai')).toEqual([]);
  });

  it('a search longer than 200 characters is refused with query_too_long', async () => {
    expectProblem(await server.api('GET', `/api/sessions?q=${'a'.repeat(201)}`), 400, 'query_too_long');
  });

  it('PATCH renames: the list and the session view show the title, it is searchable, the conversation is unchanged and the audit shows it', async () => {
    const before = (await server.api('GET', '/api/sessions/trip')).body;
    expect(before.title).toBeNull();
    const renamed = await server.api('PATCH', '/api/sessions/trip', { title: '  Holiday\nideas  ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ sessionId: 'trip', title: 'Holiday ideas' });
    expect(renamed.body.messages).toEqual(before.messages);
    expect((await list()).find((s) => s.sessionId === 'trip')?.title).toBe('Holiday ideas');
    expect(await ids('holiday')).toEqual(['trip']);
    // The renamed title replaces the first message as title, the message text is still found.
    expect(await ids('lisbon')).toEqual(['trip']);
    const audit = await server.api('GET', '/api/sessions/trip/audit');
    expect(audit.body.events.map((e: { summary: string }) => e.summary)).toContain('renamed to "Holiday ideas"');
  });

  it('a rename keeps the session in its place: it is not activity', async () => {
    const order = (await list()).map((s) => s.sessionId);
    expect((await server.api('PATCH', '/api/sessions/empty', { title: 'Untitled but named' })).status).toBe(200);
    expect((await list()).map((s) => s.sessionId)).toEqual(order);
  });

  it('an empty, blank or too long title is refused with a stable code and nothing is recorded', async () => {
    const count = (await eventsOf('taxes')).length;
    expectProblem(await server.api('PATCH', '/api/sessions/taxes', { title: ' \t ' }), 400, 'title_empty');
    expectProblem(await server.api('PATCH', '/api/sessions/taxes', { title: 'x'.repeat(SESSION_TITLE_MAX_CHARS + 1) }), 400, 'title_too_long');
    expectProblem(await server.api('PATCH', '/api/sessions/taxes', {}), 400, 'invalid_body');
    expectProblem(await server.api('PATCH', '/api/sessions/nobody', { title: 'x' }), 404, 'session_not_found');
    expect((await eventsOf('taxes')).length).toBe(count);
  });

  it('DELETE archives: gone from the list and the search, GET answers 410 session_archived, messages and changes are refused, the audit keeps everything; deleting again is fine', async () => {
    await start('doomed');
    await say('doomed', 'Delete me later, octopus', 'Sure.');
    expect(await ids('octopus')).toEqual(['doomed']);
    const deleted = await server.api('DELETE', '/api/sessions/doomed');
    expect(deleted.status).toBe(204);

    expect(await ids()).not.toContain('doomed');
    expect(await ids('octopus')).toEqual([]);
    const get = await server.api('GET', '/api/sessions/doomed');
    expectProblem(get, 410, 'session_archived');
    expect(get.body.detail).toContain('/api/sessions/doomed/audit');
    expectProblem(await server.api('POST', '/api/sessions/doomed/messages', { text: 'hello?' }), 410, 'session_archived');
    expectProblem(await server.api('POST', '/api/sessions/doomed/messages', { text: '/clear' }), 410, 'session_archived');
    expectProblem(await server.api('POST', '/api/sessions/doomed/compact', {}), 410, 'session_archived');
    expectProblem(await server.api('POST', '/api/sessions/doomed/clear', {}), 410, 'session_archived');
    expectProblem(await server.api('PATCH', '/api/sessions/doomed', { title: 'back?' }), 410, 'session_archived');
    expectProblem(await server.api('POST', '/api/sessions/doomed/tool-groups', { groupName: 'pdf' }), 410, 'session_archived');
    expect(model.requests.filter((r) => JSON.stringify(r.body).includes('hello?'))).toEqual([]);

    expect((await server.api('DELETE', '/api/sessions/doomed')).status).toBe(204);
    const types = (await eventsOf('doomed')).map((e) => e.type);
    expect(types.filter((t) => t === 'SessionArchived')).toHaveLength(1);
    expect(types.at(-1)).toBe('SessionArchived');
    const audit = await server.api('GET', '/api/sessions/doomed/audit');
    expect(audit.status).toBe(200);
    const summaries: string[] = audit.body.events.map((e: { summary: string }) => e.summary);
    expect(summaries.some((s) => s.includes('Delete me later, octopus'))).toBe(true);
    expect(summaries.at(-1)).toBe('deleted (archived): gone from the session list; the stream and this audit keep it');
    expectProblem(await server.api('DELETE', '/api/sessions/never-was'), 404, 'session_not_found');
  });

  it('deleting a session while its turn runs cancels the turn, which still records its stop after the archive', async () => {
    await start('busy');
    model.enqueue(fakeReply.hang('Thinking about it, '));
    const live = await openLiveSse(server, '/api/sessions/busy/messages', { text: 'A slow question' });
    await live.until((events) => events.some((e) => e.event === 'text_delta'));
    expect((await server.api('DELETE', '/api/sessions/busy')).status).toBe(204);
    const events = await live.end();
    expect(events.at(-1)?.event).toBe('done');
    expect(events.at(-1)?.data.reason).toBe('cancelled');
    const types = (await eventsOf('busy')).map((e) => e.type);
    expect(types.indexOf('SessionArchived')).toBeGreaterThan(0);
    expect(types.at(-1)).toBe('TurnFinished');
    expect(await ids()).not.toContain('busy');
  });

  it('a clear while a turn runs (POST /clear, or the message /clear) is refused with 409 turn_in_progress and records nothing; the turn ends as it would have; then the clear works', async () => {
    await start('clearing');
    const gate = fakeGate();
    model.enqueue({ ...fakeReply.text('The held answer.'), waitFor: gate.opened });
    const live = await openLiveSse(server, '/api/sessions/clearing/messages', { text: 'A held question' });
    await waitFor('the held model request', async () => ((await eventsOf('clearing')).some((e) => e.type === 'ModelRequested') ? true : undefined));
    const before = (await eventsOf('clearing')).length;
    expectProblem(await server.api('POST', '/api/sessions/clearing/clear', {}), 409, 'turn_in_progress');
    expectProblem(await server.api('POST', '/api/sessions/clearing/messages', { text: '/clear' }), 409, 'turn_in_progress');
    expect(await eventsOf('clearing')).toHaveLength(before);
    gate.release();
    const events = await live.end();
    expect(events.at(-1)?.data.reason).toBe('completed');
    const turn = (await eventsOf('clearing')).map((e) => e.type);
    expect(turn.slice(before)).toEqual(['MessageSent', 'TurnFinished']);
    const cleared = await server.api('POST', '/api/sessions/clearing/clear', {});
    expect(cleared.status).toBe(200);
    expect(cleared.body.messages).toEqual([]);
    expect((await eventsOf('clearing')).at(-1)?.type).toBe('SessionCleared');
  });

  it("the user's unload or load while a turn runs is refused with 409 turn_in_progress and records nothing; the model's own load in that turn is recorded; each request carries what the record explains; then the unload works", async () => {
    await start('ul');
    expect((await server.api('POST', '/api/sessions/ul/tool-groups', { groupName: 'config' })).status).toBe(200);
    const gate = fakeGate();
    // The first reply is held, so the unload lands deterministically between the turn's two requests.
    model.enqueue({ ...fakeReply.toolCall('load_tool_group', { group_name: 'google_gmail' }), waitFor: gate.opened }, fakeReply.text('done'));
    const asked = model.requests.length;
    const live = await openLiveSse(server, '/api/sessions/ul/messages', { text: 'Run it' });
    await waitFor('the held model request', async () => ((await eventsOf('ul')).some((e) => e.type === 'ModelRequested') ? true : undefined));
    const before = (await eventsOf('ul')).length;
    expectProblem(await server.api('DELETE', '/api/sessions/ul/tool-groups/config'), 409, 'turn_in_progress');
    expectProblem(await server.api('POST', '/api/sessions/ul/tool-groups', { groupName: 'pdf' }), 409, 'turn_in_progress');
    expect(await eventsOf('ul')).toHaveLength(before);
    gate.release();
    expect((await live.end()).at(-1)?.data.reason).toBe('completed');

    const events = await eventsOf('ul');
    const loads = events.filter((e) => e.type === 'ToolGroupLoaded').map((e) => e.data as { groupName: string; source: { kind: string } });
    expect(loads.map((d) => [d.groupName, d.source.kind])).toEqual([
      ['config', 'user'],
      ['google_gmail', 'tool_call'],
    ]);
    expect(events.some((e) => e.type === 'ToolGroupUnloaded')).toBe(false);
    // What the model received is what was recorded, and replaying the stream explains every tool of it.
    const recorded = events.filter((e) => e.type === 'ModelRequested').map((e) => (e.data as { toolNames: string[] }).toolNames);
    const sent = model.requests.slice(asked).map((r) => (r.body as { tools?: { function: { name: string } }[] }).tools?.map((t) => t.function.name));
    expect(sent).toEqual(recorded);
    const audit = await server.api('GET', '/api/sessions/ul/audit');
    const reasons = (audit.body.requests as { tools: { name: string; reason: { kind: string; groupName?: string } }[] }[]).map((r) =>
      r.tools.filter((t) => t.reason.kind !== 'core').map((t) => t.reason.groupName),
    );
    expect(reasons.map((groups) => [...new Set(groups)])).toEqual([['config'], ['config', 'google_gmail']]);
    expect(reasons[0]).toHaveLength(17);

    const unloaded = await server.api('DELETE', '/api/sessions/ul/tool-groups/config');
    expect(unloaded.status).toBe(200);
    expect(unloaded.body.loadedGroups).toEqual(['google_gmail']);
  });

  it('a new session starts with the agent asked for (SessionStarted.agentId); an unknown agent is refused', async () => {
    const created = await server.api('POST', '/api/agents', { name: 'Travel helper', systemPrompt: 'You plan trips.' });
    expect(created.status).toBe(201);
    const agentId = created.body.id as string;
    await start('with-agent', agentId);
    expect((await eventsOf('with-agent'))[0]).toMatchObject({ type: 'SessionStarted', data: { sessionId: 'with-agent', agentId } });
    expect((await list()).find((s) => s.sessionId === 'with-agent')?.agentId).toBe(agentId);
    expectProblem(await server.api('POST', '/api/sessions', { agentId: 'no-such-agent' }), 400, 'agent_not_found');
  });

  it('the title follows an edit of the first message (UserMessageEdited + the new MessageSent); an edit of a later one keeps it; a rename wins over both', async () => {
    const title = async (id: string) => (await list()).find((s) => s.sessionId === id)?.title;
    const userMessageIds = async (id: string) =>
      (await eventsOf(id)).filter((e) => e.type === 'MessageSent' && (e.data as { role: string }).role === 'user').map((e) => (e.data as { messageId: string }).messageId);
    const edit = async (id: string, messageId: string, text: string, reply: string) => {
      model.enqueue(fakeReply.text(reply));
      const res = await server.api('POST', `/api/sessions/${id}/messages/${encodeURIComponent(messageId)}/edit`, { text });
      expect(res.body).toMatchObject({ reason: 'completed' });
    };

    await start('edited');
    await say('edited', 'Recipe for bread', 'Flour, water, salt.');
    expect(await title('edited')).toBe('Recipe for bread');
    await edit('edited', (await userMessageIds('edited'))[0]!, 'Recipe for  sourdough\nbread', 'Starter, flour, water, salt.');
    expect(await title('edited')).toBe('Recipe for sourdough bread');
    expect(await ids('sourdough')).toEqual(['edited']);

    // A later message, and an edit of it, leave the title to the first one.
    await say('edited', 'And for rolls?', 'Shape them smaller.');
    await edit('edited', (await userMessageIds('edited')).at(-1)!, 'And for baguettes?', 'Shape them long.');
    expect(await title('edited')).toBe('Recipe for sourdough bread');

    // A name the user gave wins over the first message, edited or not.
    await start('renamed-edit');
    await say('renamed-edit', 'Old words', 'Noted.');
    expect((await server.api('PATCH', '/api/sessions/renamed-edit', { title: 'My name' })).status).toBe(200);
    await edit('renamed-edit', (await userMessageIds('renamed-edit'))[0]!, 'New words', 'Noted again.');
    expect(await title('renamed-edit')).toBe('My name');
  });

  it('after a restart the list is rebuilt from the store: renamed titles, no deleted sessions, search still works', async () => {
    const before = await list();
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir, env: env() });
    expect(await list()).toEqual(before);
    expect(await ids()).not.toContain('doomed');
    expect(before.find((s) => s.sessionId === 'trip')?.title).toBe('Holiday ideas');
    expect(before.find((s) => s.sessionId === 'edited')?.title).toBe('Recipe for sourdough bread');
    expect(before.find((s) => s.sessionId === 'renamed-edit')?.title).toBe('My name');
    expect(await ids('alfama')).toEqual(['trip']);
    expectProblem(await server.api('GET', '/api/sessions/doomed'), 410, 'session_archived');
  });

  it('a search whose client goes away is told so (its signal aborts, so it stops: session-index.int.test.ts) and nothing is logged as failed', async () => {
    // The texts' search is held until its signal aborts: what is checked is that the HTTP layer
    // passes down a signal that a closed connection aborts, and answers nobody quietly.
    let signal: AbortSignal | undefined;
    const searchTexts = jest.spyOn(SessionSearchTexts.prototype, 'sessionsWith').mockImplementationOnce((_terms, _titled, given) => {
      signal = given;
      return new Promise((_resolve, reject) => given?.addEventListener('abort', () => reject(given.reason as Error)));
    });
    const request = http.get(`${server.url}/api/sessions?q=alfama`, { headers: { authorization: `Bearer ${TEST_API_TOKEN}` } });
    request.on('error', () => undefined); // the destroy below
    try {
      await waitFor('the search to start', async () => signal);
      expect(signal?.aborted).toBe(false);
      request.destroy();
      await waitFor('the search to be told the client went away', async () => (signal?.aborted ? true : undefined));
      expect(signal?.reason).toMatchObject({ name: 'AbortError' });
    } finally {
      request.destroy();
      searchTexts.mockRestore();
    }
    expect(await ids('alfama')).toEqual(['trip']); // the next search is whole
    expect(server.logLines.text()).not.toContain('request failed');
  });

  it('a search answered while the search is paused after failures (CachePause) is a 503 with Retry-After, not logged again each time', async () => {
    const pause = new CachePause('The session search', 'Search again later.', () => 0);
    pause.start();
    const paused = (() => {
      try {
        pause.check();
      } catch (error) {
        return error as Error;
      }
      throw new Error('the pause did not hold');
    })();
    const searchTexts = jest.spyOn(SessionSearchTexts.prototype, 'sessionsWith').mockRejectedValueOnce(paused);
    try {
      const res = await server.api('GET', '/api/sessions?q=alfama');
      expectProblem(res, 503, 'search_unavailable');
      expect(res.headers.get('retry-after')).toBe(String(CACHE_PAUSE_MS / 1000));
      expect(res.body.detail).not.toContain('tried again'); // a 5xx answers with the generic detail
    } finally {
      searchTexts.mockRestore();
    }
    expect(server.logLines.text()).not.toContain('request failed');
    expect(await ids('alfama')).toEqual(['trip']);
  });

  it('a long session stays searchable at its start and its end; the middle beyond the cap is not kept', async () => {
    await start('long');
    const filler = (n: number) => 'lorem ipsum '.repeat(Math.ceil(n / 12)).slice(0, n);
    await say('long', `beginning-marker ${filler(SEARCH_HEAD_CHARS)}`, 'ok');
    await say('long', `middle-marker ${filler(SEARCH_TAIL_CHARS + 100)}`, 'ok');
    await say('long', 'ending-marker', 'ok');
    expect(await ids('beginning-marker')).toEqual(['long']);
    expect(await ids('ending-marker')).toEqual(['long']);
    expect(await ids('middle-marker')).toEqual([]);
  });
});
