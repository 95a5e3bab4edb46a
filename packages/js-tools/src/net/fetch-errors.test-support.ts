import { expect } from '@jest/globals';
import { OneClawError } from '@oneclaw/core';
import { FetchError } from './safe-fetch';

/** Test support (not exported): the FetchError a request rejects with; fails the test if it resolves. */
export async function failure(request: Promise<unknown>): Promise<FetchError> {
  const outcome = await request.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(FetchError);
  return outcome as FetchError;
}

/** The `code` of the OneClawError `make` throws, 'no error' if it returns, or the foreign error itself. */
export function errorCode(make: () => unknown): unknown {
  try {
    make();
    return 'no error';
  } catch (err) {
    return err instanceof OneClawError ? err.code : err;
  }
}
