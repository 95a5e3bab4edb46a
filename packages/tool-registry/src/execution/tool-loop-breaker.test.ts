import { toolError, toolSuccess } from '../tool-result';
import { ToolLoopBreaker, type LoopOutcome } from './tool-loop-breaker';

const fail = (toolName: string, errorType = 'validation_error', message = "parameter 'path' is required"): LoopOutcome => ({
  toolName,
  result: toolError(errorType, message),
});
const ok = (toolName: string, args: Record<string, unknown> = {}, result = 'ok'): LoopOutcome => ({ toolName, arguments: args, result: toolSuccess(result) });

/** The verdicts of one reply per outcome, in order, until one says stop: the 1-based position of the stop, or 0. */
function stopsAt(breaker: ToolLoopBreaker, replies: readonly (readonly LoopOutcome[])[]): number {
  for (const [i, reply] of replies.entries()) if (breaker.recordReply(reply).some((v) => v.stop)) return i + 1;
  return 0;
}

describe('loop breaker (RELIABILITY B5.5)', () => {
  it('LOOP-01 warns the model on the 2nd consecutive failure of one tool with one error type, and says stop on the 3rd, with a reason for model and user', () => {
    const breaker = new ToolLoopBreaker();
    expect(breaker.record(fail('read_file'))).toEqual({ stop: false });
    expect(breaker.record(fail('read_file'))).toEqual({
      stop: false,
      warning:
        "[OneClaw: 'read_file' has failed with this error (validation_error) in 2 replies in a row. If it fails with it once more, this turn stops. Fix what the error says, or try a different approach.]",
    });
    expect(breaker.record(fail('read_file'))).toEqual({
      stop: true,
      toolName: 'read_file',
      kind: 'failures',
      count: 3,
      errorType: 'validation_error',
      reason:
        "Stopped: 'read_file' failed 3 times in a row with the same error (validation_error): parameter 'path' is required " +
        'Calling it again the same way will not help. Explain the problem to the user or try a different approach.',
    });
  });

  it('a success of the same tool, or a different error type, starts the count again', () => {
    const breaker = new ToolLoopBreaker();
    breaker.record(fail('read_file'));
    breaker.record(fail('read_file'));
    breaker.record(ok('read_file'));
    breaker.record(fail('read_file'));
    breaker.record(fail('read_file', 'timeout', 'slow'));
    expect(breaker.record(fail('read_file')).stop).toBe(false);
  });

  it('LOOP-06 another tool succeeding in the same replies does not reset the failing tool', () => {
    const breaker = new ToolLoopBreaker();
    const reply = [fail('exec'), ok('get_current_time', {}, '12:00:01')];
    breaker.recordReply(reply);
    breaker.recordReply([ok('get_current_time', {}, '12:00:02'), fail('exec')]);
    expect(breaker.recordReply(reply)[0]).toMatchObject({ stop: true, toolName: 'exec', kind: 'failures', count: 3 });
  });

  it('a reply that makes one failing call several times (in parallel) counts it once', () => {
    const breaker = new ToolLoopBreaker();
    const search = fail('gmail_search', 'tool_not_available', "load the group 'google_gmail' first");
    expect(breaker.recordReply([search, search, search]).some((v) => v.stop)).toBe(false);
    expect(breaker.recordReply([search, search]).map((v) => v.stop === false && v.warning !== undefined)).toEqual([true, false]);
    expect(breaker.recordReply([search, search])[0]).toMatchObject({ stop: true, count: 3 });
  });

  it('LOOP-05 LOOP-04 every call failing in 5 replies in a row stops the turn, whatever the tools and errors; a warning comes with the 4th', () => {
    const breaker = new ToolLoopBreaker();
    const replies = [
      [fail('read_file', 'not_found')],
      [fail('read_file', 'permission_denied')],
      [fail('list_files', 'not_found'), fail('read_file', 'not_found')],
      [fail('read_file', 'validation_error')],
      [fail('http_request', 'timeout', 'took longer than 30 s')],
    ];
    const verdicts = replies.map((reply) => breaker.recordReply(reply));
    expect(verdicts.slice(0, 3).flat()).toEqual([{ stop: false }, { stop: false }, { stop: false }, { stop: false }]);
    expect(verdicts[3]).toEqual([
      {
        stop: false,
        warning: '[OneClaw: every tool call of your last 4 replies failed. If every call of the next one fails too, this turn stops. Fix what the errors say, or answer the user.]',
      },
    ]);
    expect(verdicts[4]).toEqual([
      {
        stop: true,
        toolName: 'http_request',
        kind: 'error_rounds',
        count: 5,
        errorType: 'timeout',
        reason:
          "Stopped: every tool call failed in 5 model replies in a row (the last: 'http_request', timeout: took longer than 30 s) Explain the problem to the user or try a different approach.",
      },
    ]);
  });

  it('a reply with one successful call ends a run of failing replies', () => {
    const breaker = new ToolLoopBreaker();
    for (let i = 0; i < 4; i++) breaker.recordReply([fail(`tool_${i}`)]);
    breaker.recordReply([fail('a'), ok('b')]);
    for (let i = 0; i < 4; i++) expect(breaker.recordReply([fail(`other_${i}`)]).some((v) => v.stop)).toBe(false);
  });

  it('a reply that is one failure short of two limits carries both warnings', () => {
    const breaker = new ToolLoopBreaker({ maxErrorRounds: 3 });
    breaker.recordReply([fail('x')]);
    const [verdict] = breaker.recordReply([fail('x')]);
    expect(verdict?.stop === false && verdict.warning?.split('\n')).toEqual([expect.stringContaining("'x' has failed"), expect.stringContaining('last 2 replies failed')]);
  });

  it('LOOP-05 mutating the arguments of a call that keeps failing the same way does not escape', () => {
    const breaker = new ToolLoopBreaker();
    const read = (path: string): LoopOutcome => ({ toolName: 'read_file', arguments: { path }, result: toolError('not_found', `${path} does not exist`) });
    expect(stopsAt(breaker, [[read('a/')], [read('a//')], [read('./a/')]])).toBe(3);
  });

  it('LOOP-12 timeouts are failures like any other', () => {
    const breaker = new ToolLoopBreaker();
    expect(
      stopsAt(breaker, [[fail('http_request', 'timeout', 'took longer than 30 s')], [fail('http_request', 'timeout', 'again')], [fail('http_request', 'timeout', 'again')]]),
    ).toBe(3);
  });

  it('failures of different tools are counted apart', () => {
    const breaker = new ToolLoopBreaker();
    const replies = [
      [fail('a'), ok('c')],
      [fail('b'), ok('d')],
      [fail('a'), ok('e')],
      [fail('b'), ok('f')],
    ];
    expect(stopsAt(breaker, replies)).toBe(0);
  });

  it('takes another limit; the 61-call loop of the origin app stops at the limit', () => {
    const breaker = new ToolLoopBreaker({ maxConsecutiveFailures: 5, maxErrorRounds: 100 });
    let stoppedAt = 0;
    for (let i = 1; i <= 61 && stoppedAt === 0; i++) if (breaker.record(fail('http_request', 'execution_error', 'HTTP 500')).stop) stoppedAt = i;
    expect(stoppedAt).toBe(5);
  });

  it('LOOP-07 the same call giving the same result in 3 replies: a warning with the 2nd, stop with the 3rd', () => {
    const breaker = new ToolLoopBreaker();
    const write = ok('write_file', { path: 'notes.md', content: 'x' }, 'wrote 1 byte');
    expect(breaker.recordReply([write])).toEqual([{ stop: false }]);
    expect(breaker.recordReply([write])[0]).toMatchObject({ stop: false, warning: expect.stringContaining('same result 2 times') });
    expect(breaker.recordReply([write])[0]).toEqual({
      stop: true,
      toolName: 'write_file',
      kind: 'same_result',
      count: 3,
      reason:
        "Stopped: 'write_file' was called 3 times in this turn with the same arguments and gave the same result each time. " +
        'Calling it again will not change it. Answer with the result you have, or explain to the user what is missing.',
    });
  });

  it('LOOP-07 arguments are compared as values: the order of their keys does not matter', () => {
    const breaker = new ToolLoopBreaker();
    const replies = [[ok('t', { a: 1, b: [1, { c: 2, d: 3 }] })], [ok('t', { b: [1, { d: 3, c: 2 }], a: 1 })], [ok('t', { a: 1, b: [1, { c: 2, d: 3 }] })]];
    expect(stopsAt(breaker, replies)).toBe(3);
  });

  it('LOOP-08 a call whose result changes (polling a job, asking the time) never trips, however often it is made', () => {
    const breaker = new ToolLoopBreaker();
    const replies = Array.from({ length: 20 }, (_, i) => [ok('job_status', { id: 'j1' }, `running, ${i * 5}% done`)]);
    expect(stopsAt(breaker, replies)).toBe(0);
  });

  it('LOOP-08 other arguments, or another tool with the same arguments and result, are other calls', () => {
    const breaker = new ToolLoopBreaker();
    const replies = [[ok('read_file', { path: 'a' })], [ok('read_file', { path: 'b' })], [ok('list_files', { path: 'a' })], [ok('read_file', { path: 'a' })]];
    expect(stopsAt(breaker, replies)).toBe(0);
  });

  it('LOOP-04 a cycle of two calls with unchanging results (A, B, A, B, A) trips when one of them comes round a 3rd time', () => {
    const breaker = new ToolLoopBreaker();
    const a = ok('load_tool_group', { group_name: 'pdf' }, "Group 'pdf' is already loaded.");
    const b = ok('list_files', { path: '.' }, 'notes.md');
    expect(stopsAt(breaker, [[a], [b], [a], [b], [a]])).toBe(5);
  });

  it('a reply that repeats a call in parallel counts it once: duplication within one reply is not a loop', () => {
    const breaker = new ToolLoopBreaker();
    const read = ok('read_file', { path: 'a' }, 'text');
    expect(breaker.recordReply([read, read, read, read]).every((v) => !v.stop && v.warning === undefined)).toBe(true);
    expect(breaker.recordReply([read, read])[0]).toMatchObject({ stop: false, warning: expect.any(String) });
    expect(breaker.recordReply([read]).map((v) => v.stop)).toEqual([true]);
  });

  it('takes other limits; the same result needs at least 2, and no limit warns on a first occurrence', () => {
    const same = () => Array.from({ length: 10 }, () => [ok('t')]);
    expect(stopsAt(new ToolLoopBreaker({ maxSameResults: 5 }), same())).toBe(5);
    expect(stopsAt(new ToolLoopBreaker({ maxSameResults: 1 }), same())).toBe(2);
    const two = new ToolLoopBreaker({ maxSameResults: 2, maxConsecutiveFailures: 2, maxErrorRounds: 2 });
    expect([two.record(ok('t')), two.record(fail('x'))]).toEqual([{ stop: false }, { stop: false }]);
    expect(two.record(fail('x'))).toMatchObject({ stop: true, kind: 'failures' });
  });

  it('reset starts a new turn', () => {
    const breaker = new ToolLoopBreaker();
    breaker.recordReply([fail('x'), fail('x')]);
    breaker.recordReply([ok('y')]);
    breaker.recordReply([ok('y')]);
    breaker.reset();
    expect(breaker.record(fail('x'))).toEqual({ stop: false });
    expect(breaker.record(ok('y'))).toEqual({ stop: false });
  });
});
