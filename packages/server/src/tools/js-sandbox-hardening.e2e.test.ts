import { afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AssistantMessageData, RecordedEvent, ToolResultMessageData } from '@oneclaw/core';
import { startFakeModelServer, type FakeModelServer, fakeReply } from '@oneclaw/model-providers/testing';
import { callServer, serverProcessEnv, ServerProcessGroup, waitFor, type ServerProcess } from '../testing/server-process';

/**
 * J6 / SBX end to end: js_eval from the model, through a real server process (from the
 * TypeScript source, so each start compiles it: the timeouts allow for that), its worker pool,
 * its SQLite store and HTTP API, with a loopback FAKE Anthropic model scripting the replies.
 * The runner-level tests are sandbox-memory.int.test.ts and worker-js-runner-fairness.int.test.ts.
 */
const TOKEN = 'sandbox-hardening-token-0123456789';
const KEY = 'sk-ant-sandbox-hardening-key-000';
const MB = 1024 * 1024;

// Each bomb makes real copies (a rope or a shared buffer would cost nothing): charCodeAt flattens
// QuickJS's lazily joined strings, slice copies, and every ArrayBuffer and JSON text is new.
const BOMBS: Readonly<Record<string, string>> = {
  'doubling string': 'var s = "x"; for (;;) { s += s; s.charCodeAt(s.length - 1); }',
  'array of distinct 1 MB strings': `var base = "x".repeat(1e6), keep = [];
    for (var i = 0; ; i++) { var s = (i + base).slice(0, 1e6); s.charCodeAt(s.length - 1); keep.push(s); }`,
  'ArrayBuffers and typed arrays': 'var keep = []; for (;;) { keep.push(new ArrayBuffer(2e6)); keep.push(new Float64Array(2.5e5)); }',
  'JSON.stringify of a growing structure': `var rows = [], keep = [];
    for (var i = 0; ; i++) { for (var j = 0; j < 2000; j++) rows.push({ id: i * 2000 + j, name: "row " + j, tags: ["a", "b"] }); keep.push(JSON.stringify(rows)); }`,
};

type Data = { role?: string; reason?: string };
const isMessage = (e: RecordedEvent, role: string) => e.type === 'MessageSent' && (e.data as Data).role === role;
const toolResults = (events: readonly RecordedEvent[]) => events.filter((e) => isMessage(e, 'tool')).map((e) => e.data as ToolResultMessageData);
const assistantCalls = (events: readonly RecordedEvent[]) => events.filter((e) => isMessage(e, 'assistant')).flatMap((e) => (e.data as AssistantMessageData).toolCalls);
const turnEnds = (events: readonly RecordedEvent[]) => events.filter((e) => e.type === 'TurnFinished').map((e) => (e.data as Data).reason);

/** The process's resident set, from the kernel (the whole process: main thread and every worker). */
function rssOf(server: ServerProcess): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!kb) throw new Error(`no VmRSS in /proc/${server.child.pid}/status`);
  return Number(kb[1]) * 1024;
}

describe('the JavaScript sandbox under load, end to end (real server process, FAKE Anthropic model)', () => {
  const servers = new ServerProcessGroup();
  afterEach(() => servers.killAll());

  async function boot(env: Record<string, string>) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-sandbox-hardening-'));
    servers.also(() => rmSync(dataDir, { recursive: true, force: true }));
    const model: FakeModelServer = await startFakeModelServer('anthropic', { apiKey: KEY });
    servers.also(() => model.close());
    const server = servers.start({ ...serverProcessEnv({ dataDir, token: TOKEN, anthropic: { key: KEY, url: model.url } }), ...env });
    const url = await server.url();
    const api = (method: string, route: string, body?: unknown) => callServer(url, TOKEN, method, route, body);
    const eventsOf = async (sessionId: string): Promise<RecordedEvent[]> => (await api('GET', `/api/sessions/${sessionId}/events`)).events;
    const send = async (sessionId: string, text: string) => {
      await api('POST', '/api/sessions', { sessionId });
      return api('POST', `/api/sessions/${sessionId}/messages`, { text });
    };
    return { server, model, api, eventsOf, send, files: path.join(dataDir, 'files') };
  }

  it('four sessions send js_eval memory bombs from the FAKE model at once: each ends as sandbox_limit (memory), every turn finishes, and RSS stays within 100 MB of the warm pool', async () => {
    // One model request per turn: the fake serves one script to every session in arrival order,
    // so a session's second request could otherwise take a bomb meant for a first request.
    const { server, model, send, eventsOf } = await boot({ ONECLAW_JS_WORKERS: '4', ONECLAW_MAX_ROUNDS: '1' });

    // Four calls that each wait until all four run, so four workers exist, each with its QuickJS
    // module loaded: RSS is compared between two pools in that state. One call per session: no
    // session may hold every worker.
    const warmPool = async (prefix: string) => {
      const code = (n: number) => `async function main() {
          await fs.writeFile("${prefix}-${n}", "x");
          while (!((await fs.exists("${prefix}-0")) && (await fs.exists("${prefix}-1")) && (await fs.exists("${prefix}-2")) && (await fs.exists("${prefix}-3")))) {}
          return "warm ${n}";
        }`;
      model.enqueue(...[0, 1, 2, 3].map((n) => fakeReply.toolCall('js_eval', { code: code(n), timeout_seconds: 20 })));
      const sessionIds = [0, 1, 2, 3].map((k) => `${prefix}-s${k}`);
      expect((await Promise.all(sessionIds.map((id) => send(id, 'warm up')))).map((t) => t.reason)).toEqual(['round_cap', 'round_cap', 'round_cap', 'round_cap']);
      const results = (await Promise.all(sessionIds.map(eventsOf))).flatMap(toolResults);
      expect(results.map((r) => (r.status === 'success' ? r.result : r.message)).sort()).toEqual(['warm 0', 'warm 1', 'warm 2', 'warm 3']);
      return rssOf(server);
    };
    const warmRss = await warmPool('warm');

    // Far above what reaching the memory limit takes, so only that limit can end the bombs.
    model.enqueue(...Object.values(BOMBS).map((code) => fakeReply.toolCall('js_eval', { code, timeout_seconds: 10 })));
    const sessions = ['m1', 'm2', 'm3', 'm4'];
    const turns = await Promise.all(sessions.map((id) => send(id, 'run this')));
    // The workers the bombs used are retired; four fresh ones again, so both figures include a
    // whole warm pool and only what the bombs left behind can tell them apart.
    const afterRss = await warmPool('rewarm');

    expect(turns.map((t) => t.reason)).toEqual(['round_cap', 'round_cap', 'round_cap', 'round_cap']);
    const ran: string[] = [];
    for (const id of sessions) {
      const events = await eventsOf(id);
      const calls = assistantCalls(events);
      expect(calls.map((c) => c.toolName)).toEqual(['js_eval']);
      ran.push(Object.keys(BOMBS).find((name) => BOMBS[name] === (calls[0]?.arguments as { code: string }).code) ?? 'unknown');
      const [result] = toolResults(events);
      expect({ session: id, status: result?.status, errorType: result?.status === 'error' && result.errorType }).toEqual({
        session: id,
        status: 'error',
        errorType: 'sandbox_limit',
      });
      // The memory limit in particular, not the CPU budget (also sandbox_limit).
      expect(result?.status === 'error' && result.message).toMatch(/ran out of (memory|its \d+ MB heap)/);
      expect(turnEnds(events)).toEqual(['round_cap']);
      expect(events.at(-1)?.type).toBe('TurnFinished');
    }
    // Every bomb shape ran, once each.
    expect(ran.sort()).toEqual(Object.keys(BOMBS).sort());
    expect((afterRss - warmRss) / MB).toBeLessThan(100);
  }, 120_000);

  it("session A's js_eval loops from the FAKE model take every worker A may hold and queue more; session B's quick JS tools start at once on the worker kept from A, succeed, and A's cancel is recorded as cancelled", async () => {
    const { send, api, eventsOf, model, files } = await boot({ ONECLAW_JS_WORKERS: '2' });

    // Four loops, the engine's parallel-call bound for one reply. No session holds every worker,
    // so one runs and three wait. Each writes a marker as it starts, so the test sees which ones
    // hold a worker. They would run 60 s, far beyond B's timeouts (5 s and 1 s); only the cancel
    // at the end stops them.
    const spin = (n: number) => ({ name: 'js_eval', arguments: { code: `async function main() { await fs.writeFile("spin-${n}", "x"); while (true) {} }`, timeout_seconds: 60 } });
    model.enqueue(fakeReply.toolCalls(spin(1), spin(2), spin(3), spin(4)));
    const turnA = send('a', 'spin');
    // Answered once A is cancelled below; a failure before that must not surface as an unhandled rejection.
    turnA.catch(() => undefined);
    await waitFor('the first A loop to hold a worker', async () => (existsSync(path.join(files, 'spin-1')) ? true : undefined));

    // get_current_time is a JS tool from tools-assets (timeoutSeconds 5). The js_eval reports which
    // of A's loops had started by the time it ran.
    const report = 'async function main() { var started = []; for (var n = 1; n <= 4; n++) if (await fs.exists("spin-" + n)) started.push(n); return started.join(","); }';
    model.enqueue(
      fakeReply.toolCalls({ name: 'get_current_time', arguments: { timezone: 'UTC' } }, { name: 'js_eval', arguments: { code: report, timeout_seconds: 1 } }),
      fakeReply.text('Done.'),
    );
    const turnB = await send('b', 'what time is it, and which loops are running?');
    expect(turnB.reason).toBe('completed');

    const resultsB = toolResults(await eventsOf('b'));
    expect(resultsB.map((r) => [r.toolName, r.status, r.status === 'error' ? r.errorType : ''])).toEqual([
      ['get_current_time', 'success', ''],
      ['js_eval', 'success', ''],
    ]);
    // B ran on the worker A may not take, while A's first loop still held the other: none of A's
    // queued loops had started.
    expect(resultsB[1]?.status === 'success' ? resultsB[1].result : '').toBe('1');
    // A's results are recorded once all four loops end; none is yet, so B did not wait for A.
    expect(toolResults(await eventsOf('a'))).toEqual([]);

    // The cancel ends A's running and waiting calls as cancelled; the turn records the cancel as
    // its reason (not the loop breaker, which four cancelled calls in a row would otherwise trip).
    expect(await api('POST', '/api/sessions/a/cancel', {})).toEqual({ cancelled: true });
    await turnA;
    expect(turnEnds(await eventsOf('a'))).toEqual(['cancelled']);
  }, 90_000);
});
