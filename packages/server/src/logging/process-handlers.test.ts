import { describe, expect, it } from '@jest/globals';
import { EventEmitter } from 'node:events';
import { REDACTED, SecretRedactor } from '../security/secret-redactor';
import { CapturedLines } from './capture-lines';
import { createLogger } from './logger';
import { installProcessHandlers } from './process-handlers';

const SECRET = 'AIzaSy-gemini-key-000111';

function setUp() {
  const out = new CapturedLines();
  const logger = createLogger({ level: 'info', redactor: new SecretRedactor([SECRET]), destination: out });
  const target = new EventEmitter();
  const exits: number[] = [];
  const uninstall = installProcessHandlers(logger, { target, exit: (code) => exits.push(code) });
  return { out, target, exits, uninstall };
}

describe('installProcessHandlers (SEC-06)', () => {
  it('SEC-06 logs an unhandled rejection through the redacting logger and keeps running', () => {
    const { out, target, exits } = setUp();
    target.emit('unhandledRejection', new Error(`fetch https://x.example/?key=${SECRET} failed`), Promise.resolve());
    target.emit('unhandledRejection', `plain reason with ${SECRET}`, Promise.resolve());
    expect(out.text()).not.toContain(SECRET);
    const [first, second] = out.records() as Array<Record<string, any>>;
    expect(first).toMatchObject({ level: 50, msg: 'Unhandled promise rejection' });
    expect(first?.err.message).toBe(`fetch https://x.example/?key=${REDACTED} failed`);
    expect(second?.reason).toBe(`plain reason with ${REDACTED}`);
    expect(exits).toEqual([]);
  });

  it('SEC-06 logs an uncaught exception at fatal with a scrubbed stack, then exits with 1', () => {
    const { out, target, exits } = setUp();
    target.emit('uncaughtException', new Error(`boom ${SECRET}`));
    expect(out.text()).not.toContain(SECRET);
    const record = out.records()[0] as Record<string, any>;
    expect(record).toMatchObject({ level: 60, msg: 'Uncaught exception; exiting' });
    expect(record.err.stack).toContain(`boom ${REDACTED}`);
    expect(exits).toEqual([1]);
  });

  it('uninstall removes both listeners', () => {
    const { target, uninstall } = setUp();
    expect(target.listenerCount('unhandledRejection')).toBe(1);
    expect(target.listenerCount('uncaughtException')).toBe(1);
    uninstall();
    expect(target.listenerCount('unhandledRejection')).toBe(0);
    expect(target.listenerCount('uncaughtException')).toBe(0);
  });
});
