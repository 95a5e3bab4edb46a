import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../api/api-error';
import { done, failed, running } from './action-state';

describe('action states', () => {
  it('carries the progress and success messages as given', () => {
    expect(running('Storing the key…')).toEqual({ kind: 'running', message: 'Storing the key…' });
    expect(done('Key stored.')).toEqual({ kind: 'done', message: 'Key stored.' });
  });

  it('shows the server detail of a failure with what was attempted, and keeps the code', () => {
    const error = new ApiError(400, 'validation_error', 'An API key is 1 to 4096 visible ASCII characters without spaces.');
    expect(failed('Storing the key', error)).toEqual({
      kind: 'failed',
      code: 'validation_error',
      message: 'Storing the key failed: An API key is 1 to 4096 visible ASCII characters without spaces.',
    });
  });

  it('says a read-only refusal is not possible here rather than a failure', () => {
    const error = new ApiError(409, 'read_only', 'The default agent cannot be deleted.');
    expect(failed('Deleting OneClaw', error)).toMatchObject({ message: 'Deleting OneClaw: not possible here. The default agent cannot be deleted.', code: 'read_only' });
  });

  it('turns other errors into a message too', () => {
    expect(failed('Saving', new Error('boom'))).toEqual({ kind: 'failed', code: 'client_error', message: 'Saving failed: boom' });
    expect(failed('Saving', 'odd')).toMatchObject({ message: 'Saving failed: odd' });
  });
});
