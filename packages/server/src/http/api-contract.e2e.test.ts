import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { HttpException } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import {
  ERROR_STATUS,
  type ActiveTools,
  type ActiveToolView,
  type AgentsAnswer,
  type AgentView,
  type ErrorCode,
  type ModelView,
  type ProvidersAnswer,
  type ProviderView,
  type SchemaTokenTotals,
  type SessionEvents,
  type SessionsAnswer,
  type SessionSummary,
  type SessionView,
  type ToolGroupsAnswer,
  type ToolGroupView,
  type ToolsAnswer,
  type ToolSourceView,
  type ToolView,
  type TurnAnswer,
  type TurnResult,
} from '@oneclaw/api-contract';
import { OneClawError } from '@oneclaw/core';
import { startTestServer, type TestServer } from '../testing/test-server';
import { toProblem } from './problem-details.filter';

/**
 * S1/S6: the web UI reads the server's answers through @oneclaw/api-contract's types, and the
 * server writes them against the same types; but TypeScript lets a spread carry fields a type
 * does not name, and says nothing about what really goes over the wire. So a real server (SQLite
 * store, real HTTP, no model needed) is asked each read route, and every answer must have exactly
 * the contract's fields: none missing that the contract requires, none the contract does not name.
 */

/** Each field of T and whether the contract requires it; a wrong or missing entry fails to compile. */
// `{} extends Pick<T, K>` is the standard test for an optional key: the empty object is the point here.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type Fields<T> = { readonly [K in keyof Required<T>]-?: {} extends Pick<T, K> ? 'optional' : 'required' };

function expectFields<T>(value: unknown, fields: Fields<T>): void {
  expect(value).toEqual(expect.any(Object));
  const present = Object.keys(value as object);
  const named = Object.keys(fields) as (keyof Fields<T> & string)[];
  expect({
    notInContract: present.filter((key) => !named.includes(key as keyof Fields<T> & string)),
    missing: named.filter((key) => fields[key] === 'required' && !present.includes(key)),
  }).toEqual({ notInContract: [], missing: [] });
}

const sessionView: Fields<SessionView> = {
  sessionId: 'required',
  agentId: 'required',
  revision: 'required',
  messages: 'required',
  supersededMessageIds: 'required',
  loadedGroups: 'required',
  activeTools: 'required',
  turnInProgress: 'required',
  title: 'required',
  summary: 'required',
};
const sessionSummary: Fields<SessionSummary> = {
  sessionId: 'required',
  agentId: 'required',
  startedAt: 'required',
  lastActivityAt: 'required',
  revision: 'required',
  title: 'required',
};
const turnResult: Fields<TurnResult> = {
  turnId: 'required',
  reason: 'required',
  detail: 'required',
  rounds: 'required',
  usage: 'required',
  reply: 'required',
  revision: 'required',
  code: 'optional',
};
const agentView: Fields<AgentView> = {
  id: 'required',
  name: 'required',
  description: 'optional',
  source: 'required',
  deletable: 'required',
  systemPrompt: 'required',
  preferredProviderId: 'optional',
  preferredModelId: 'optional',
  maxRounds: 'required',
  model: 'optional',
  allowedTools: 'optional',
};
const providerView: Fields<ProviderView> = {
  providerId: 'required',
  name: 'required',
  kind: 'required',
  apiBaseUrl: 'required',
  isActive: 'required',
  definedBy: 'required',
  apiKey: 'required',
  keyVariable: 'optional',
  hasApiKey: 'required',
  models: 'required',
};
const modelView: Fields<ModelView> = {
  modelId: 'required',
  displayName: 'optional',
  contextWindowTokens: 'optional',
  source: 'required',
  isDefault: 'required',
  reasoning: 'optional',
};
const toolGroupView: Fields<ToolGroupView> = {
  name: 'required',
  displayName: 'required',
  description: 'required',
  toolNames: 'required',
  enabled: 'required',
  source: 'required',
  schemaTokens: 'required',
};
const toolSourceView: Fields<ToolSourceView> = { fileName: 'required', kind: 'required', group: 'optional', description: 'optional', tools: 'required', problems: 'required' };
const toolView: Fields<ToolView> = { name: 'required', description: 'required', group: 'optional', enabled: 'required' };
const activeToolView: Fields<ActiveToolView> = { name: 'required', description: 'required', group: 'optional' };

// Reading the catalogue's groups and tools boots the tool runtime: more than Jest's 5 s on a busy machine.
jest.setTimeout(30_000);

describe('S1/S6: the HTTP answers have exactly the fields of @oneclaw/api-contract', () => {
  let server: TestServer;
  const api = (method: string, route: string, body?: unknown) => server.api(method, route, body);

  beforeAll(async () => {
    // An environment provider that is never called: the settings routes list it without asking it anything.
    server = await startTestServer({ env: { ONECLAW_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-contract-test-key-0001', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sessions: the view, the list, the events, the active tools', async () => {
    const started = await api('POST', '/api/sessions', { sessionId: 'contract-1' });
    expect(started.status).toBe(201);
    expectFields<SessionView>(started.body, sessionView);
    expectFields<SessionView>((await api('GET', '/api/sessions/contract-1')).body, sessionView);
    expectFields<SessionView>((await api('PATCH', '/api/sessions/contract-1', { title: 'Contract' })).body, sessionView);

    const list = (await api('GET', '/api/sessions')).body;
    expectFields<SessionsAnswer>(list, { sessions: 'required' });
    expect(list.sessions.length).toBeGreaterThan(0);
    for (const summary of list.sessions) expectFields<SessionSummary>(summary, sessionSummary);

    const events = (await api('GET', '/api/sessions/contract-1/events')).body;
    expectFields<SessionEvents>(events, { sessionId: 'required', events: 'required', nextRevision: 'required' });

    const tools = (await api('GET', '/api/sessions/contract-1/tools')).body;
    expectFields<ActiveTools>(tools, { sessionId: 'required', revision: 'required', loadedGroups: 'required', tools: 'required' });
    expect(tools.tools.length).toBeGreaterThan(0);
    for (const tool of tools.tools) expectFields<ActiveToolView>(tool, activeToolView);
  });

  it('a turn: the JSON answer (the session view only with ?include=session), and the SSE events of /clear with their data', async () => {
    await api('POST', '/api/sessions', { sessionId: 'contract-2' });
    const answer = await api('POST', '/api/sessions/contract-2/messages', { text: '/clear' });
    expect(answer.status).toBe(200);
    expectFields<TurnAnswer>(answer.body, { ...turnResult, session: 'optional' });
    expect(answer.body).not.toHaveProperty('session');
    const withView = await api('POST', '/api/sessions/contract-2/messages?include=session', { text: '/clear' });
    expect(withView.status).toBe(200);
    expectFields<TurnAnswer>(withView.body, { ...turnResult, session: 'optional' });
    expect(withView.body).toHaveProperty('session');
    expectFields<SessionView>(withView.body.session, sessionView);

    const streamed = await server.stream('/api/sessions/contract-2/messages', { text: '/clear' });
    expect(streamed.events.map((e) => e.event)).toEqual(['session_cleared', 'done']);
    expect(streamed.events[0]!.data).toEqual({ type: 'session_cleared' });
    expectFields<TurnResult>(streamed.events[1]!.data, turnResult);
  });

  it('settings: agents, providers with their models, tool groups, tools', async () => {
    const agents = (await api('GET', '/api/agents')).body;
    expectFields<AgentsAnswer>(agents, { agents: 'required' });
    for (const agent of agents.agents) expectFields<AgentView>(agent, agentView);

    const providers = (await api('GET', '/api/providers')).body;
    expectFields<ProvidersAnswer>(providers, { providers: 'required', defaultModel: 'required' });
    expect(providers.providers.length).toBeGreaterThan(0);
    for (const provider of providers.providers) {
      expectFields<ProviderView>(provider, providerView);
      for (const model of provider.models) expectFields<ModelView>(model, modelView);
    }

    const groups = (await api('GET', '/api/tool-groups')).body;
    expectFields<ToolGroupsAnswer>(groups, { groups: 'required', schemaTokens: 'required' });
    expectFields<SchemaTokenTotals>(groups.schemaTokens, { format: 'required', core: 'required', all: 'required' });
    expect(groups.groups.length).toBeGreaterThan(0);
    for (const group of groups.groups) expectFields<ToolGroupView>(group, toolGroupView);

    const tools = (await api('GET', '/api/tools')).body;
    expectFields<ToolsAnswer>(tools, { sources: 'required' });
    for (const source of tools.sources) {
      expectFields<ToolSourceView>(source, toolSourceView);
      for (const tool of source.tools) expectFields<ToolView>(tool, toolView);
    }
  });

  it('a problem answer has the contract fields and the status the contract gives its code', async () => {
    const res = await api('GET', '/api/sessions/contract-missing');
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toEqual(expect.objectContaining({ type: expect.any(String), title: expect.any(String), status: 404, code: 'session_not_found', detail: expect.any(String) }));
    expect(ERROR_STATUS[res.body.code as ErrorCode]).toBe(res.status);
  });
});

describe('the problem filter answers with the contract', () => {
  it('answers each domain error code with the status the contract gives it', () => {
    const answered = Object.keys(ERROR_STATUS).map((code) => [code, toProblem(new OneClawError(code, 'What to do.')).status]);
    expect(Object.fromEntries(answered)).toEqual(ERROR_STATUS);
  });

  it("answers the session search's own failure (search_unavailable) with 503 and a generic detail: its SQLite message stays in the log", () => {
    const problem = toProblem(new OneClawError('search_unavailable', 'The session search cannot be used right now (SQLITE_FULL at /var/tmp/etilqs_1).'));
    expect(problem).toEqual(expect.objectContaining({ code: 'search_unavailable', status: 503, detail: expect.stringContaining('The list without a search still works') }));
    expect(problem.detail).not.toContain('/var/tmp');
  });

  it('answers the codes it makes itself with the contract status, and an unknown code with 500', () => {
    expect(toProblem(new ThrottlerException())).toEqual(expect.objectContaining({ code: 'rate_limited', status: ERROR_STATUS.rate_limited }));
    expect(toProblem(new HttpException('Cannot GET /x', 404))).toEqual(expect.objectContaining({ code: 'not_found', status: ERROR_STATUS.not_found }));
    expect(toProblem(new OneClawError('a_code_newer_than_the_contract', 'x')).status).toBe(500);
    expect(toProblem(new Error('boom'))).toEqual(expect.objectContaining({ code: 'internal_error', status: 500 }));
  });
});
