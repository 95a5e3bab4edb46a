import type { ProviderKind } from '@oneclaw/api-contract';

/**
 * The kinds a new provider can have, in the order the form offers them. The API's types come
 * from @oneclaw/api-contract (type-only imports: nothing of it reaches the bundle); this list is
 * the one thing the screen needs at run time, and the record below makes the compiler check it
 * against the contract's ProviderKind both ways.
 */
const KINDS: { readonly [K in ProviderKind]: K } = { openai: 'openai', anthropic: 'anthropic', gemini: 'gemini' };

export const PROVIDER_KINDS: readonly ProviderKind[] = Object.values(KINDS);
