import { activeToolSet } from '@oneclaw/core';
import { sessionScenario } from '@oneclaw/core/testing';
import { createLoadToolGroupTool } from '../load-tool-group-tool';
import { fakeTool } from '../testing/fake-tool';
import type { ToolContext } from '../tool';
import { toolError, toolSuccess, type ToolResult } from '../tool-result';
import { ToolRegistry } from '../tool-registry';
import type { ToolSource } from '../tool-source';
import type { PermissionChecker } from './permission-checker';
import { ToolExecutionEngine, type ExecutionScope, type ToolCallRequest } from './tool-execution-engine';

const builtIn: ToolSource = { kind: 'built-in' };
const pathSchema = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'File path' },
    mode: { type: 'string', enum: ['overwrite', 'append'] },
    options: { type: 'object', properties: { depth: { type: 'integer', minimum: 1 } } },
  },
  required: ['path'],
  additionalProperties: false,
};

function setup(engineOptions: ConstructorParameters<typeof ToolExecutionEngine>[1] = {}) {
  const registry = new ToolRegistry();
  registry.register(createLoadToolGroupTool(registry), builtIn);
  registry.register(fakeTool('read_file', { parameters: pathSchema }), builtIn);
  registry.register(fakeTool('exec'), builtIn);
  registry.registerGroup({ name: 'pdf', displayName: 'PDF Tools', description: 'PDF' }, builtIn);
  registry.register(fakeTool('pdf_info', { parameters: pathSchema }), { ...builtIn, group: 'pdf' });
  registry.register(fakeTool('pdf_extract_text'), { ...builtIn, group: 'pdf' });
  const engine = new ToolExecutionEngine(registry, engineOptions);
  return { registry, engine };
}

const everything = (registry: ToolRegistry): ExecutionScope => ({ sessionId: 's1', activeToolNames: registry.toolNames() });
const call = (toolName: string, args?: unknown, callId = `call-${toolName}`): ToolCallRequest => ({ callId, toolName, arguments: args });

describe('execution engine: the ordered checks (T3)', () => {
  it('tool_not_found for a name nobody registered', async () => {
    const { engine, registry } = setup();
    const out = await engine.execute(call('no_such_tool', {}), everything(registry));
    expect(out.result).toEqual({ status: 'error', errorType: 'tool_not_found', message: "Tool 'no_such_tool' does not exist. Call only the tools you were given." });
  });

  it('G7 a grouped tool called before its group is loaded is tool_not_available, naming the group to load', async () => {
    const { engine } = setup();
    const out = await engine.execute(call('pdf_info', { path: 'a.pdf' }), { sessionId: 's1', activeToolNames: ['load_tool_group', 'read_file', 'exec'] });
    expect(out.result).toEqual({
      status: 'error',
      errorType: 'tool_not_available',
      message: "Tool 'pdf_info' is not available yet: it belongs to the tool group 'pdf'. Call load_tool_group with group_name \"pdf\" first, then call 'pdf_info' again.",
    });
  });

  it('G7 after the group is loaded (by the session projection) the same call runs', async () => {
    const { engine, registry } = setup();
    // Not chained: given() is typed `any` in core's emitted declarations.
    const session = sessionScenario(registry);
    session.given({ type: 'StartSession', sessionId: 's1', agentId: 'a' });
    const before = await engine.execute(call('pdf_info', { path: 'a.pdf' }), { sessionId: 's1', activeToolNames: activeToolSet(session.state(), registry) });
    expect(before.result).toMatchObject({ errorType: 'tool_not_available' });
    session.given({ type: 'LoadToolGroup', groupName: 'pdf', source: { kind: 'tool_call', callId: 'c0' } });
    const after = await engine.execute(call('pdf_info', { path: 'a.pdf' }), { sessionId: 's1', activeToolNames: activeToolSet(session.state(), registry) });
    expect(after.result).toEqual(toolSuccess(JSON.stringify({ tool: 'pdf_info', params: { path: 'a.pdf' } })));
  });

  it('T5 a tool the agent does not allow is not run, and the message does not ask to load its loaded group', async () => {
    const { engine, registry } = setup();
    const execute = jest.fn(async () => toolSuccess('ran'));
    registry.replace(fakeTool('exec', { execute }), builtIn);
    const coreOut = await engine.execute(call('exec', {}), { sessionId: 's1', activeToolNames: ['load_tool_group', 'read_file'] });
    expect(coreOut.result).toEqual({ status: 'error', errorType: 'tool_not_available', message: "Tool 'exec' is not available in this session." });
    const grouped = await engine.execute(call('pdf_extract_text', {}), {
      sessionId: 's1',
      activeToolNames: ['load_tool_group', 'pdf_info'],
      loadedGroups: ['pdf'],
    });
    expect(grouped.result).toMatchObject({ errorType: 'tool_not_available', message: "Tool 'pdf_extract_text' is not available in this session." });
    const notLoaded = await engine.execute(call('pdf_extract_text', {}), { sessionId: 's1', activeToolNames: ['load_tool_group'], loadedGroups: [] });
    expect(notLoaded.result).toMatchObject({ errorType: 'tool_not_available', message: expect.stringContaining('group_name "pdf" first') });
    // Without loadedGroups, another active tool of the group shows it is loaded.
    const inferred = await engine.execute(call('pdf_extract_text', {}), { sessionId: 's1', activeToolNames: ['pdf_info'] });
    expect(inferred.result).toMatchObject({ message: "Tool 'pdf_extract_text' is not available in this session." });
    expect(execute).not.toHaveBeenCalled();
  });

  it('G9 tool_disabled for a disabled tool inside a loaded group, whether or not the caller filtered it out', async () => {
    const { engine, registry } = setup();
    registry.setToolEnabled('pdf_info', false);
    const unfiltered = await engine.execute(call('pdf_info', { path: 'a' }), everything(registry));
    expect(unfiltered.result).toEqual({
      status: 'error',
      errorType: 'tool_disabled',
      message: "Tool 'pdf_info' is disabled by the operator. Do not call it again in this conversation.",
    });
    const filtered = await engine.execute(call('pdf_info', { path: 'a' }), { sessionId: 's1', activeToolNames: ['pdf_extract_text'] });
    expect(filtered.result).toMatchObject({ errorType: 'tool_disabled' });
    registry.setToolEnabled('pdf_info', true);
    registry.setGroupEnabled('pdf', false);
    const groupOff = await engine.execute(call('pdf_info', { path: 'a' }), everything(registry));
    expect(groupOff.result).toMatchObject({ errorType: 'tool_disabled', message: expect.stringContaining("its tool group 'pdf' is disabled") });
  });

  it('validation_error names the parameter and the problem: missing, wrong type, not in enum, unknown, nested', async () => {
    const { engine, registry } = setup();
    const run = async (args: unknown) => (await engine.execute(call('read_file', args), everything(registry))).result;
    expect(await run({})).toEqual({ status: 'error', errorType: 'validation_error', message: "Invalid arguments for 'read_file': parameter 'path' is required." });
    expect(await run({ path: 7 })).toMatchObject({ message: "Invalid arguments for 'read_file': parameter 'path' must be a string, got the number 7." });
    expect(await run({ path: 'a', mode: 'delete' })).toMatchObject({
      message: `Invalid arguments for 'read_file': parameter 'mode' must be one of: "overwrite", "append" (got "delete").`,
    });
    expect(await run({ path: 'a', colour: 'red' })).toMatchObject({
      message: "Invalid arguments for 'read_file': parameter 'colour' is not allowed (unknown parameter).",
    });
    expect(await run({ path: 'a', options: { depth: 0 } })).toMatchObject({
      message: "Invalid arguments for 'read_file': parameter 'options.depth' must be >= 1.",
    });
    expect(await run({ mode: 1 })).toMatchObject({
      message: expect.stringMatching(/parameter 'path' is required; parameter 'mode' must be a string/),
    });
  });

  it('malformed argument JSON is a validation_error, never read as {}', async () => {
    const { engine, registry } = setup();
    const execute = jest.fn(async () => toolSuccess('ran'));
    registry.replace(fakeTool('exec', { execute }), builtIn);
    for (const bad of ['{"command": "ls"', 'not json', '[1,2]', '"text"', '42', 'null']) {
      const out = await engine.execute(call('exec', bad), everything(registry));
      expect(out.result).toMatchObject({ status: 'error', errorType: 'validation_error', message: expect.stringMatching(/^Invalid arguments for 'exec': the arguments /) });
      expect(out.arguments).toBeUndefined();
    }
    expect(execute).not.toHaveBeenCalled();
  });

  it('arguments nested deeper than 64 levels (deep enough to overflow a recursive walk) are a validation_error, as text or as an object', async () => {
    const { engine, registry } = setup();
    const execute = jest.fn(async () => toolSuccess('ran'));
    registry.replace(fakeTool('exec', { execute }), builtIn);
    const text = `{"command":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    for (const deep of [text, JSON.parse(text) as unknown]) {
      const out = await engine.execute(call('exec', deep), everything(registry));
      expect(out.result).toMatchObject({ status: 'error', errorType: 'validation_error', message: expect.stringContaining('the arguments nest deeper than 64 levels') });
    }
    const shallow = JSON.parse(`{"command":"ls","x":${'['.repeat(63)}${']'.repeat(63)}}`) as unknown;
    expect((await engine.execute(call('exec', shallow), everything(registry))).result.status).toBe('success');
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('takes arguments as a JSON string or an object; no arguments or a blank string are {} and the schema decides', async () => {
    const { engine, registry } = setup();
    const asString = await engine.execute(call('read_file', '{"path":"a.txt"}'), everything(registry));
    expect(asString.result.status).toBe('success');
    expect(asString.arguments).toEqual({ path: 'a.txt' });
    expect((await engine.execute(call('read_file', { path: 'a.txt' }), everything(registry))).result.status).toBe('success');
    expect((await engine.execute(call('exec', ''), everything(registry))).result.status).toBe('success');
    expect((await engine.execute(call('exec', undefined), everything(registry))).result.status).toBe('success');
    expect((await engine.execute(call('read_file', ' '), everything(registry))).result).toMatchObject({
      errorType: 'validation_error',
      message: expect.stringContaining("parameter 'path' is required"),
    });
  });

  it('hands the tool a copy of the arguments, so the caller record cannot be changed by the tool', async () => {
    const { engine, registry } = setup();
    registry.replace(
      fakeTool('exec', {
        execute: async (params) => {
          (params as Record<string, unknown>).injected = true;
          return toolSuccess('ok');
        },
      }),
      builtIn,
    );
    const args = { command: 'ls' };
    await engine.execute(call('exec', args), everything(registry));
    expect(args).toEqual({ command: 'ls' });
  });

  it('a tool that validates its own parameters gets them unchecked (load_tool_group: missing_parameter, not validation_error)', async () => {
    const { engine, registry } = setup();
    const out = await engine.execute(call('load_tool_group', {}), everything(registry));
    expect(out.result).toEqual({ status: 'error', errorType: 'missing_parameter', message: "Required parameter 'group_name' is missing." });
  });

  it('permission_denied through the permission checker, asked before every call and only for tools that need permissions', async () => {
    const { engine: _unused, registry } = setup();
    const asked: string[] = [];
    let allow = true;
    const checker: PermissionChecker = {
      check: (request) => {
        asked.push(`${request.toolName}:${request.permissions.join('+')}:${request.sessionId}`);
        return allow ? { granted: true } : { granted: false, denied: ['location'] };
      },
    };
    const engine = new ToolExecutionEngine(registry, { permissionChecker: checker });
    registry.register(fakeTool('where_am_i', { requiredPermissions: ['location', 'network'] }), builtIn);
    expect((await engine.execute(call('where_am_i', {}), everything(registry))).result.status).toBe('success');
    allow = false;
    expect((await engine.execute(call('where_am_i', {}), everything(registry))).result).toEqual({
      status: 'error',
      errorType: 'permission_denied',
      message: "Permission 'location' required by 'where_am_i' was denied. The tool did not run.",
    });
    await engine.execute(call('exec', {}), everything(registry));
    expect(asked).toEqual(['where_am_i:location+network:s1', 'where_am_i:location+network:s1']);
    const explained = new ToolExecutionEngine(registry, {
      permissionChecker: { check: () => ({ granted: false, denied: [], message: 'Location is off in settings.' }) },
    });
    expect((await explained.execute(call('where_am_i', {}), everything(registry))).result).toEqual(toolError('permission_denied', 'Location is off in settings.'));
  });

  it('permission_denied (fail closed) when the checker itself breaks; validation runs before permissions', async () => {
    const { registry } = setup();
    const check = jest.fn(() => {
      throw new Error('policy store down');
    });
    const engine = new ToolExecutionEngine(registry, { permissionChecker: { check } });
    registry.register(fakeTool('guarded', { requiredPermissions: ['x'], parameters: pathSchema }), builtIn);
    expect((await engine.execute(call('guarded', {}), everything(registry))).result).toMatchObject({ errorType: 'validation_error' });
    expect(check).not.toHaveBeenCalled();
    expect((await engine.execute(call('guarded', { path: 'p' }), everything(registry))).result).toMatchObject({
      errorType: 'permission_denied',
      message: expect.stringContaining('policy store down'),
    });
  });
});

describe('execution engine: running tools (T3)', () => {
  it('passes the session id, the message and call ids, env, the agent allow-list and an abort signal to the tool', async () => {
    const { engine, registry } = setup();
    let seen: ToolContext | undefined;
    registry.replace(
      fakeTool('exec', {
        execute: async (_params, context) => {
          seen = context;
          return toolSuccess('ok');
        },
      }),
      builtIn,
    );
    const allowedTools = new Set(['exec']);
    await engine.execute(call('exec', {}, 'call-9'), { ...everything(registry), messageId: 'turn-1-assistant-2', env: { API_KEY: 'k' }, allowedTools });
    expect(seen).toMatchObject({ sessionId: 's1', messageId: 'turn-1-assistant-2', callId: 'call-9', env: { API_KEY: 'k' } });
    expect(seen?.allowedTools).toBe(allowedTools);
    expect(seen?.signal.aborted).toBe(false);
  });

  it('timeout: returns a timeout error after the tool timeoutMs and aborts the work through the signal', async () => {
    const { engine, registry } = setup();
    let signal: AbortSignal | undefined;
    let abortedWith: unknown;
    registry.register(
      fakeTool('slow', {
        timeoutMs: 20,
        execute: (_params, context) =>
          new Promise<ToolResult>(() => {
            signal = context.signal;
            context.signal.addEventListener('abort', () => (abortedWith = context.signal.reason));
          }),
      }),
      builtIn,
    );
    const out = await engine.execute(call('slow', {}), everything(registry));
    expect(out.result).toEqual({ status: 'error', errorType: 'timeout', message: "Tool 'slow' did not finish within 20 ms and was stopped." });
    expect(signal?.aborted).toBe(true);
    expect(abortedWith).toMatchObject({ name: 'TimeoutError' });
  });

  it('a tool that enforces its own timeout gets no engine timer: it answers after its timeoutMs has passed', async () => {
    const { engine, registry } = setup();
    let otherTimedOut: () => void = () => {};
    const afterOtherTimedOut = new Promise<void>((resolve) => (otherTimedOut = resolve));
    // Both declare 10 ms; the first answers only once the engine has timed the second out.
    registry.register(fakeTool('own_clock', { timeoutMs: 10, enforcesOwnTimeout: true, execute: async () => afterOtherTimedOut.then(() => toolSuccess('done')) }), builtIn);
    registry.register(
      fakeTool('engine_clock', { timeoutMs: 10, execute: (_p, context) => new Promise<ToolResult>(() => context.signal.addEventListener('abort', () => otherTimedOut())) }),
      builtIn,
    );
    const [own, timed] = await engine.executeAll([call('own_clock', {}, 'c1'), call('engine_clock', {}, 'c2')], everything(registry));
    expect(own?.result).toEqual({ status: 'success', result: 'done' });
    expect(timed?.result.status === 'error' && timed.result.errorType).toBe('timeout');
  });

  it('a tool failing after its timeout is ignored, and is not an unhandled rejection', async () => {
    const { engine, registry } = setup();
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    let rejectLater: (e: Error) => void = () => {};
    registry.register(fakeTool('late', { timeoutMs: 10, execute: () => new Promise((_, reject) => (rejectLater = reject)) }), builtIn);
    const out = await engine.execute(call('late', {}), everything(registry));
    rejectLater(new Error('too late'));
    await new Promise((resolve) => setImmediate(resolve));
    process.off('unhandledRejection', unhandled);
    expect(out.result.status === 'error' && out.result.errorType).toBe('timeout');
    expect(unhandled).not.toHaveBeenCalled();
  });

  it('execution_error for a throw, a synchronous throw, a non-Error throw and a result that is not a ToolResult', async () => {
    const { engine, registry } = setup();
    registry.register(fakeTool('async_crash', { execute: async () => Promise.reject(new TypeError('x is undefined')) }), builtIn);
    registry.register(
      fakeTool('sync_crash', {
        execute: () => {
          throw new Error('sync boom');
        },
      }),
      builtIn,
    );
    registry.register(fakeTool('string_throw', { execute: async () => Promise.reject('plain string') }), builtIn);
    registry.register(fakeTool('bad_shape', { execute: async () => ({ ok: true }) as unknown as ToolResult }), builtIn);
    const outs = await engine.executeAll([call('async_crash', {}), call('sync_crash', {}), call('string_throw', {}), call('bad_shape', {})], everything(registry));
    expect(outs.map((o) => o.result)).toEqual([
      toolError('execution_error', "Tool 'async_crash' failed: x is undefined"),
      toolError('execution_error', "Tool 'sync_crash' failed: sync boom"),
      toolError('execution_error', "Tool 'string_throw' failed: plain string"),
      toolError('execution_error', "Tool 'bad_shape' returned something that is not a tool result (expected {status, result} or {status, errorType, message})."),
    ]);
  });

  it("passes a tool's own error through, keeping only the result fields", async () => {
    const { engine, registry } = setup();
    registry.register(fakeTool('lookup', { execute: async () => ({ ...toolError('not_found', 'No such file'), secret: 'x' }) as unknown as ToolResult }), builtIn);
    expect((await engine.execute(call('lookup', {}), everything(registry))).result).toEqual(toolError('not_found', 'No such file'));
  });

  it("keeps a tool's log lines (a JS tool's console) on success and on error, dropping malformed lines", async () => {
    const { engine, registry } = setup();
    const log = [{ level: 'log', message: 'fetched 3 items' }];
    registry.register(fakeTool('logs_ok', { execute: async () => toolSuccess('done', log) }), builtIn);
    registry.register(
      fakeTool('logs_err', {
        execute: async () => ({ ...toolError('execution_error', 'boom'), log: [...log, { level: 1 }, 'x'] }) as unknown as ToolResult,
      }),
      builtIn,
    );
    registry.register(fakeTool('logs_big', { execute: async () => toolSuccess('c'.repeat(40_000), log) }), builtIn);
    const [ok, err, big] = await engine.executeAll([call('logs_ok'), call('logs_err'), call('logs_big')], everything(registry));
    expect(ok?.result).toEqual({ status: 'success', result: 'done', log });
    expect(err?.result).toEqual({ status: 'error', errorType: 'execution_error', message: 'boom', log });
    expect(big?.result.log).toEqual(log);
  });

  it('cuts results (and error messages) over 30,000 characters with a visible marker', async () => {
    const { engine, registry } = setup();
    registry.register(fakeTool('big', { execute: async () => toolSuccess('a'.repeat(100_000)) }), builtIn);
    registry.register(fakeTool('big_error', { execute: async () => toolError('execution_error', 'e'.repeat(40_000)) }), builtIn);
    registry.register(fakeTool('exact', { execute: async () => toolSuccess('b'.repeat(30_000)) }), builtIn);
    const [big, bigError, exact] = await engine.executeAll([call('big'), call('big_error'), call('exact')], everything(registry));
    const text = big?.result.status === 'success' ? big.result.result : '';
    expect(text.length).toBeLessThanOrEqual(30_000);
    expect(text).toMatch(/\n\n\[truncated: showing the first \d+ of 100000 characters\]$/);
    expect(text.startsWith('a'.repeat(29_000))).toBe(true);
    expect(bigError?.result.status === 'error' && bigError.result.message).toMatch(/\[truncated: showing the first \d+ of 40000 characters\]$/);
    expect(exact?.result).toEqual(toolSuccess('b'.repeat(30_000)));
  });

  it('redacts a result and an error message before cutting them, so a secret across the cut leaves no start behind', async () => {
    const secret = 'sk-live-ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const { engine, registry } = setup({ redact: (text) => text.replaceAll(secret, '[Redacted]') });
    // The cut keeps about 29,940 characters: the secret starts inside what is kept and ends after it.
    const straddling = `${'a'.repeat(29_930)}${secret}${'a'.repeat(1000)}`;
    registry.register(fakeTool('leaky', { execute: async () => toolSuccess(straddling) }), builtIn);
    registry.register(fakeTool('leaky_error', { execute: async () => toolError('execution_error', straddling) }), builtIn);
    const [ok, failed] = await engine.executeAll([call('leaky'), call('leaky_error')], everything(registry));
    const text = ok?.result.status === 'success' ? ok.result.result : '';
    const message = failed?.result.status === 'error' ? failed.result.message : '';
    for (const cut of [text, message]) {
      expect(cut).toMatch(/\[truncated: showing the first \d+ of \d+ characters\]$/);
      expect(cut).not.toContain('sk-live');
      expect(cut).toContain('[Redacted]');
    }
  });

  it('records each call duration from the clock', async () => {
    let t = 1000;
    const { registry } = setup();
    const engine = new ToolExecutionEngine(registry, { now: () => (t += 5) });
    const out = await engine.execute(call('exec', {}), everything(registry));
    expect(out.durationMs).toBe(5);
  });

  it('cancelled: aborting the scope signal ends running calls and skips calls not yet started', async () => {
    const { engine, registry } = setup({ maxConcurrency: 1 });
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    registry.register(
      fakeTool('waits', {
        execute: (_p, context) => {
          toolSignal = context.signal;
          setImmediate(() => controller.abort(new Error('user pressed stop')));
          return new Promise<ToolResult>(() => {});
        },
      }),
      builtIn,
    );
    const outs = await engine.executeAll([call('waits'), call('exec')], { ...everything(registry), signal: controller.signal });
    expect(outs.map((o) => o.result.status === 'error' && o.result.errorType)).toEqual(['cancelled', 'cancelled']);
    expect(toolSignal?.aborted).toBe(true);
  });
});

describe('execution engine: many calls in one reply (T3)', () => {
  it('runs calls concurrently up to the bound, and returns one result per call in input order', async () => {
    const { registry } = setup();
    const engine = new ToolExecutionEngine(registry, { maxConcurrency: 3 });
    let inFlight = 0;
    let peak = 0;
    let started = 0;
    const gates: (() => void)[] = [];
    registry.register(
      fakeTool('step', {
        parameters: { type: 'object', properties: { n: { type: 'integer' } } },
        execute: async (params) => {
          inFlight += 1;
          started += 1;
          peak = Math.max(peak, inFlight);
          await new Promise<void>((resolve) => gates.push(resolve));
          inFlight -= 1;
          return toolSuccess(`step ${String(params.n)}`);
        },
      }),
      builtIn,
    );
    const calls = Array.from({ length: 8 }, (_, n) => call('step', { n }, `c${n}`));
    const running = engine.executeAll(calls, everything(registry));
    // Release the waiting calls last-in first-out, so completion order differs from input order.
    while (started < 8 || inFlight > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      gates.pop()?.();
    }
    const outs = await running;
    expect(peak).toBe(3);
    expect(outs.map((o) => o.callId)).toEqual(calls.map((c) => c.callId));
    expect(outs.map((o) => (o.result.status === 'success' ? o.result.result : ''))).toEqual(calls.map((_, n) => `step ${n}`));
  });

  it('gives exactly one result per call whatever fails: unknown, unavailable, invalid, crashing and good calls mixed', async () => {
    const { engine, registry } = setup();
    registry.register(fakeTool('crash', { execute: async () => Promise.reject(new Error('x')) }), builtIn);
    const calls = [call('exec', {}, 'a'), call('nope', {}, 'b'), call('pdf_info', {}, 'c'), call('read_file', '{', 'd'), call('crash', {}, 'e'), call('exec', {}, 'f')];
    const outs = await engine.executeAll(calls, { sessionId: 's1', activeToolNames: ['exec', 'read_file', 'crash'] });
    expect(outs.map((o) => [o.callId, o.result.status === 'error' ? o.result.errorType : 'success'])).toEqual([
      ['a', 'success'],
      ['b', 'tool_not_found'],
      ['c', 'tool_not_available'],
      ['d', 'validation_error'],
      ['e', 'execution_error'],
      ['f', 'success'],
    ]);
  });

  it('G9 parallel loads of the same group in one reply both succeed; the session records the group once', async () => {
    const { engine, registry } = setup();
    // Not chained: given() is typed `any` in core's emitted declarations.
    const session = sessionScenario(registry);
    session.given({ type: 'StartSession', sessionId: 's1', agentId: 'a' });
    const outs = await engine.executeAll([call('load_tool_group', { group_name: 'pdf' }, 'l1'), call('load_tool_group', { group_name: 'pdf' }, 'l2')], {
      sessionId: 's1',
      activeToolNames: activeToolSet(session.state(), registry),
    });
    expect(outs[0]?.result).toEqual(outs[1]?.result);
    expect(outs[0]?.result.status).toBe('success');
    const recorded = outs.flatMap((o) => session.record({ type: 'LoadToolGroup', groupName: String(o.arguments?.group_name), source: { kind: 'tool_call', callId: o.callId } }));
    expect(recorded.map((e) => e.type)).toEqual(['ToolGroupLoaded']);
    expect(activeToolSet(session.state(), registry)).toEqual(['load_tool_group', 'read_file', 'exec', 'pdf_info', 'pdf_extract_text']);
  });
});
