import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Command, CommandBus, CommandHandlerNotFoundException, Query, QueryBus } from '@nestjs/cqrs';
import { startTestServer, type TestServer } from './testing/test-server';

/**
 * API-15: a command (or query) with no handler is a wiring bug. This start-up wiring test finds
 * every command, query and handler class in the source by file name (`*.command.ts`,
 * `*.query.ts`, `*.handler.ts`), boots the real app, and sends each command and query through
 * the app's own bus with every handler's `execute` replaced by a probe, so nothing runs: each
 * must reach the handler of the same file name. A new command whose handler is missing from
 * app.module.ts, or is decorated for another command, fails here rather than in production.
 */

type Class = abstract new (...args: never[]) => unknown;

/** The exported classes of every `*.<kind>.ts` file under src, by file stem (`clear-session`). */
function classesOf(kind: 'command' | 'query' | 'handler'): Map<string, Class> {
  const found = new Map<string, Class>();
  const files = readdirSync(__dirname, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(`.${kind}.ts`));
  for (const file of files) {
    const exported = Object.values(require(path.join(__dirname, file)) as Record<string, unknown>).filter((v): v is Class => typeof v === 'function');
    expect(exported).toHaveLength(1); // one concept per file
    found.set(path.basename(file, `.${kind}.ts`), exported[0] as Class);
  }
  return found;
}

/** An instance of `type` made without its constructor: the bus routes by class, and the probes never read it. */
const probeOf = (type: Class): object => Object.create(type.prototype as object) as object;

describe('API-15 command and query wiring (real app, handlers probed, nothing executed)', () => {
  let server: TestServer;
  const commands = classesOf('command');
  const queries = classesOf('query');
  const handlers = classesOf('handler');

  beforeAll(async () => {
    server = await startTestServer();
    for (const [stem, handler] of handlers) {
      // Throws if app.module.ts does not provide the handler.
      const instance = server.app.get(handler, { strict: false }) as { execute: (...args: unknown[]) => Promise<unknown> };
      jest.spyOn(instance, 'execute').mockResolvedValue(`handled by ${stem}`);
    }
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await server.close();
  });

  it('finds the commands, queries and handlers (a check that the file search itself works)', () => {
    expect(commands.size).toBeGreaterThanOrEqual(20);
    expect(queries.size).toBeGreaterThanOrEqual(10);
    expect([...commands.keys(), ...queries.keys()].sort()).toEqual([...handlers.keys()].sort());
  });

  it('every command reaches the handler of its file name through the app’s CommandBus', async () => {
    const bus = server.app.get(CommandBus);
    const reached = new Map<string, unknown>();
    for (const [stem, command] of commands) reached.set(stem, await bus.execute(probeOf(command) as Command<unknown>));
    expect(reached).toEqual(new Map([...commands.keys()].map((stem) => [stem, `handled by ${stem}`])));
  });

  it('every query reaches the handler of its file name through the app’s QueryBus', async () => {
    const bus = server.app.get(QueryBus);
    const reached = new Map<string, unknown>();
    for (const [stem, query] of queries) reached.set(stem, await bus.execute(probeOf(query) as Query<unknown>));
    expect(reached).toEqual(new Map([...queries.keys()].map((stem) => [stem, `handled by ${stem}`])));
  });

  it('a command with no handler is CommandHandlerNotFoundException on the bus, and over HTTP a generic 500 whose log names it', async () => {
    class UnwiredCommand extends Command<void> {}
    const bus = server.app.get(CommandBus);
    // The bus throws before it returns a promise; either way is a failed dispatch.
    await expect(Promise.resolve().then(() => bus.execute(new UnwiredCommand()))).rejects.toBeInstanceOf(CommandHandlerNotFoundException);

    // A route whose command lost its handler: the controller's dispatch meets the same exception.
    const execute = bus.execute.bind(bus);
    const dispatch = jest.spyOn(bus, 'execute').mockImplementationOnce(() => execute(new UnwiredCommand()));
    const res = await server.api('POST', '/api/sessions', { sessionId: 'unwired' });
    dispatch.mockRestore();
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ code: 'internal_error' });
    expect(res.text).not.toContain('UnwiredCommand');
    const logged = server.logLines.records().filter((r) => r.msg === 'request failed');
    expect(JSON.stringify(logged)).toContain('UnwiredCommand');
  });
});
