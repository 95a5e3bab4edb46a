import { isToolResult, toolError, toolResultForModel, toolSuccess } from './tool-result';

describe('tool result format (T6)', () => {
  it('T6 the model receives {status, result} or {status, error_type, message}, the same for every tool', () => {
    expect(JSON.parse(toolResultForModel(toolSuccess('12:00')))).toEqual({ status: 'success', result: '12:00' });
    expect(JSON.parse(toolResultForModel(toolError('timeout', 'too slow')))).toEqual({ status: 'error', error_type: 'timeout', message: 'too slow' });
    expect(Object.keys(JSON.parse(toolResultForModel(toolError('x', 'y'))))).toEqual(['status', 'error_type', 'message']);
  });

  it('recognises well-formed results only', () => {
    expect(isToolResult(toolSuccess(''))).toBe(true);
    expect(isToolResult(toolError('not_found', 'x'))).toBe(true);
    for (const bad of [
      null,
      'ok',
      { status: 'success' },
      { status: 'success', result: 1 },
      { status: 'error', message: 'm' },
      { status: 'error', errorType: '', message: 'm' },
      { status: 'done', result: 'x' },
    ]) {
      expect(isToolResult(bad)).toBe(false);
    }
  });
});
