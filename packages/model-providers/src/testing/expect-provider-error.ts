import { expect } from '@jest/globals';
import { ProviderError } from '../shared/provider-error';
import { captureRejection } from './fake-model/capture-rejection';

/** Awaits a rejection that must be a ProviderError whose message and details never hold `secret`. */
export async function expectProviderError(promise: Promise<unknown>, secret: string): Promise<ProviderError> {
  const error = await captureRejection(promise);
  expect(error).toBeInstanceOf(ProviderError);
  const providerError = error as ProviderError;
  // The key must not leak through any error, whatever the server echoed.
  expect(providerError.message).not.toContain(secret);
  expect(JSON.stringify(providerError.details)).not.toContain(secret);
  return providerError;
}
