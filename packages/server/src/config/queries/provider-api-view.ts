import type { ProviderView as ProviderApiView } from '@oneclaw/api-contract';
import { configErrors } from '@oneclaw/core';
import type { ProviderService, ProviderView } from '../provider-service';

/**
 * A provider as the HTTP API shows it (the contract's ProviderView): the service's view (never
 * the key) with its models, and `hasApiKey`, true when this server can use a key (`apiKey` is
 * `set` or `from_environment`); a key set through another replica does not count, as this server
 * cannot send it.
 */

export async function providerApiView(providers: ProviderService, view: ProviderView): Promise<ProviderApiView> {
  return { ...view, hasApiKey: view.apiKey === 'set' || view.apiKey === 'from_environment', models: await providers.models(view.providerId) };
}

/** The provider as it is now (after a change that the service's own answer does not show yet, such as a key). */
export async function currentProviderApiView(providers: ProviderService, providerId: string): Promise<ProviderApiView> {
  const view = (await providers.list()).providers.find((p) => p.providerId === providerId);
  if (!view) throw configErrors.providerNotFound(providerId);
  return providerApiView(providers, view);
}
