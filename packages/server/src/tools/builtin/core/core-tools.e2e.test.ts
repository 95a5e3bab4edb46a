import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RecordedEvent } from '@oneclaw/core';
import { fakeReply, startFakeModelServer, type FakeModelServer } from '@oneclaw/model-providers/testing';
import { startTestServer, type TestServer } from '../../../testing/test-server';
import { HistoryIndex } from './history-index';

/**
 * The core tools of this part of issue 6 in a booted server (SQLite store, QuickJS worker
 * sandbox), scripted by a loopback FAKE Anthropic model: what the system prompt shows, and what
 * the tools record.
 */
const MODEL_KEY = 'sk-ant-test-model-key-core-tools';

const systemOf = (model: FakeModelServer, i: number): string => String((model.requests[i]?.body as { system?: unknown }).system ?? '');
const toolNamesOf = (model: FakeModelServer, i: number): string[] => ((model.requests[i]?.body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);

async function toolResults(server: TestServer, sessionId: string): Promise<{ toolName: string; status: string; result?: string; errorType?: string; message?: string }[]> {
  const events: RecordedEvent[] = (await server.api('GET', `/api/sessions/${sessionId}/events`)).body.events;
  return events
    .filter((e) => e.type === 'MessageSent' && (e.data as { role: string }).role === 'tool')
    .map((e) => e.data as { toolName: string; status: string; result?: string; errorType?: string; message?: string });
}

describe('core tools in a booted server with a fake Anthropic model (issue 6)', () => {
  let model: FakeModelServer;
  let server: TestServer;
  let dataDir: string;

  beforeEach(async () => {
    model = await startFakeModelServer('anthropic', { apiKey: MODEL_KEY });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-core-tools-'));
    // A user skill, present before the server starts.
    mkdirSync(path.join(dataDir, 'skills', 'packing-list'), { recursive: true });
    writeFileSync(path.join(dataDir, 'skills', 'packing-list', 'SKILL.md'), '---\nname: packing-list\ndescription: Make a packing list for a trip.\n---\nList by category.\n');
    server = await startTestServer({ dataDir, env: { ONECLAW_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: MODEL_KEY, ANTHROPIC_BASE_URL: model.url, ONECLAW_TIMEZONE: 'UTC' } });
    expect((await server.api('POST', '/api/sessions', { sessionId: 'first' })).status).toBe(201);
  });

  let serverClosed = false;
  afterEach(async () => {
    jest.restoreAllMocks();
    if (!serverClosed) await server.close();
    serverClosed = false;
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends the core tools in order; the prompt lists the skills (shipped and user) after the groups; load_skill returns one', async () => {
    model.enqueue(fakeReply.toolCall('load_skill', { name: 'packing-list' }), fakeReply.text('Here is your list.'));
    expect((await server.api('POST', '/api/sessions/first/messages', { text: 'help me pack' })).status).toBe(200);

    const names = toolNamesOf(model, 0);
    const mine = ['load_skill', 'load_tool_group', 'save_memory', 'search_history', 'exec', 'js_eval'];
    expect(names.filter((n) => mine.includes(n))).toEqual(mine);
    expect(names.indexOf('load_skill')).toBe(0);

    const system = systemOf(model, 0);
    expect(system.indexOf('## Available Tool Groups')).toBeGreaterThan(0);
    expect(system.indexOf('## Available Skills')).toBeGreaterThan(system.indexOf('## Available Tool Groups'));
    expect(system).toContain('- daily-briefing: ');
    expect(system).toContain('- inbox-triage: ');
    expect(system).toContain('- write-js-tool: ');
    expect(system).toContain('- packing-list: Make a packing list for a trip.');
    expect(system).not.toContain('## Memory');

    expect(await toolResults(server, 'first')).toEqual([
      expect.objectContaining({ toolName: 'load_skill', status: 'success', result: '# Skill: packing-list\n\nList by category.' }),
    ]);
  });

  it('save_memory writes the memory file and the next request shows it in the prompt; another session finds it and the earlier conversation with search_history', async () => {
    model.enqueue(fakeReply.toolCall('save_memory', { content: 'The user is vegetarian.', category: 'preferences' }), fakeReply.text('Noted.'));
    expect((await server.api('POST', '/api/sessions/first/messages', { text: 'Remember that I am vegetarian, I never eat meat.' })).status).toBe(200);

    expect(systemOf(model, 0)).not.toContain('## Memory');
    expect(systemOf(model, 1)).toMatch(/## Memory\n\n.*\n\n### Preferences\n- \[\d{4}-\d{2}-\d{2}\] The user is vegetarian\.$/);
    expect(readFileSync(path.join(dataDir, 'memory', 'MEMORY.md'), 'utf8')).toContain('## Preferences\n\n- [');

    expect((await server.api('POST', '/api/sessions', { sessionId: 'second' })).status).toBe(201);
    const searches = jest.spyOn(HistoryIndex.prototype, 'search');
    model.enqueue(fakeReply.toolCall('search_history', { query: 'vegetarian' }), fakeReply.text('You are vegetarian.'));
    expect((await server.api('POST', '/api/sessions/second/messages', { text: 'what do you know about my diet?' })).status).toBe(200);
    const [search] = await toolResults(server, 'second');
    expect(search).toMatchObject({ toolName: 'search_history', status: 'success' });
    expect(search?.result).toMatch(/^2 results for "vegetarian"/);
    expect(search?.result).toContain('· preferences]\n   The user is vegetarian.');
    expect(search?.result).toContain('[session first · ');
    expect(search?.result).toContain('· user]\n   Remember that I am vegetarian, I never eat meat.');

    // The server closes the index when it stops.
    const index = searches.mock.contexts[0] as unknown as { db: unknown };
    expect(index.db).toBeDefined();
    await server.close();
    serverClosed = true;
    expect(index.db).toBeUndefined();
  });

  it('exec answers exec_disabled by default; js_eval runs in the worker sandbox', async () => {
    model.enqueue(
      fakeReply.toolCalls(
        { name: 'exec', arguments: { command: 'touch should-not-exist' } },
        { name: 'js_eval', arguments: { code: 'async function main() { return [1, 2, 3].reduce((a, b) => a + b) * 7; }' } },
      ),
      fakeReply.text('Done.'),
    );
    expect((await server.api('POST', '/api/sessions/first/messages', { text: 'run things' })).status).toBe(200);
    const [exec, jsEval] = await toolResults(server, 'first');
    expect(exec).toMatchObject({ toolName: 'exec', status: 'error', errorType: 'exec_disabled' });
    expect(exec?.message).toContain('ONECLAW_EXEC_ENABLED=true');
    expect(jsEval).toMatchObject({ toolName: 'js_eval', status: 'success', result: '42' });
  });

  it('a secret across the cut exec makes in its output leaves no start of it in the events or the model request', async () => {
    await server.close();
    serverClosed = true;
    const secret = 'sk-env-secret-across-the-cut-0123456789';
    // exec keeps about 28,930 characters of output (MAX_ANSWER_CHARS less its frame and marker): the cut falls inside the secret.
    mkdirSync(path.join(dataDir, 'files'), { recursive: true });
    writeFileSync(path.join(dataDir, 'files', 'leak.txt'), `${'a'.repeat(28_900)}${secret}${'a'.repeat(2000)}`);
    const execServer = await startTestServer({
      dataDir,
      env: { ONECLAW_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: MODEL_KEY, ANTHROPIC_BASE_URL: model.url, ONECLAW_EXEC_ENABLED: 'true', ONECLAW_ENV_LEAK_KEY: secret },
    });
    try {
      model.enqueue(fakeReply.toolCall('exec', { command: 'cat leak.txt' }), fakeReply.text('Done.'));
      expect((await execServer.api('POST', '/api/sessions/first/messages', { text: 'show the file' })).status).toBe(200);
      const [exec] = await toolResults(execServer, 'first');
      expect(exec).toMatchObject({ toolName: 'exec', status: 'success' });
      expect(exec?.result).toMatch(/\[truncated: showing the first \d+ of \d+ characters\]$/);
      expect(exec?.result).toContain('[Redacted]');
      const events = (await execServer.api('GET', '/api/sessions/first/events')).text;
      expect(events).not.toContain('sk-env');
      expect(JSON.stringify(model.requests[1]?.body)).not.toContain('sk-env');
    } finally {
      await execServer.close();
    }
  });
});
