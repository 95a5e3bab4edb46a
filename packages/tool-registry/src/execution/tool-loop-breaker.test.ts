import { toolError, toolSuccess } from '../tool-result';
import { ToolLoopBreaker } from './tool-loop-breaker';

const fail = (toolName: string, errorType = 'validation_error', message = "parameter 'path' is required") => ({
  toolName,
  result: toolError(errorType, message),
});
const ok = (toolName: string) => ({ toolName, result: toolSuccess('ok') });

describe('loop breaker (RELIABILITY B5.5)', () => {
  it('says stop on the 3rd consecutive failure of one tool with one error type, with a reason for model and user', () => {
    const breaker = new ToolLoopBreaker();
    expect(breaker.record(fail('read_file')).stop).toBe(false);
    expect(breaker.record(fail('read_file')).stop).toBe(false);
    expect(breaker.record(fail('read_file'))).toEqual({
      stop: true,
      toolName: 'read_file',
      errorType: 'validation_error',
      failures: 3,
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

  it('LOOP-06 another tool succeeding in between does not reset the failing tool', () => {
    const breaker = new ToolLoopBreaker();
    const verdict = breaker.recordAll([fail('exec'), ok('get_current_time'), fail('exec'), ok('get_current_time'), fail('exec')]);
    expect(verdict).toMatchObject({ stop: true, toolName: 'exec', failures: 3 });
  });

  it('failures of different tools are counted apart', () => {
    const breaker = new ToolLoopBreaker();
    expect(breaker.recordAll([fail('a'), fail('b'), fail('a'), fail('b')]).stop).toBe(false);
  });

  it('takes another limit; the 61-call loop of the origin app stops at the limit', () => {
    const breaker = new ToolLoopBreaker({ maxConsecutiveFailures: 5 });
    let stoppedAt = 0;
    for (let i = 1; i <= 61 && stoppedAt === 0; i++) if (breaker.record(fail('http_request', 'execution_error', 'HTTP 500')).stop) stoppedAt = i;
    expect(stoppedAt).toBe(5);
  });

  it('reset starts a new turn', () => {
    const breaker = new ToolLoopBreaker();
    breaker.recordAll([fail('x'), fail('x')]);
    breaker.reset();
    expect(breaker.record(fail('x')).stop).toBe(false);
  });
});
