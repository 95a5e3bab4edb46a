import type { ToolRegistry } from '../tool-registry';
import type { ToolPayload } from './provider-formats';
import type { ProviderName } from './provider-name';
import { countToolPayloadTokens } from './token-count';

export interface BuiltToolPayload {
  readonly provider: ProviderName;
  /** Exactly the tools in the payload, in order (unknown names dropped): `ModelRequested.toolNames`. */
  readonly toolNames: readonly string[];
  readonly payload: ToolPayload;
  /** `ModelRequested.schemaTokens` (see countToolPayloadTokens). */
  readonly schemaTokens: number;
}

/** Distinct tool sets are few (core, core + a group or two), so a small memo covers a server. */
const MAX_ENTRIES = 256;

/**
 * The provider payload and its token count for a tool set, computed once per registry version:
 * a session sends the same set on every request until it loads a group.
 */
export class ToolPayloads {
  private version = -1;
  private readonly memo = new Map<string, BuiltToolPayload>();

  constructor(private readonly registry: ToolRegistry) {}

  build(provider: ProviderName, toolNames: Iterable<string>): BuiltToolPayload {
    if (this.version !== this.registry.version) {
      this.version = this.registry.version;
      this.memo.clear();
    }
    const names = [...toolNames].filter((n) => this.registry.has(n));
    const key = `${provider}\u0000${names.join('\u0000')}`;
    const hit = this.memo.get(key);
    if (hit) return hit;
    const payload = this.registry.toolPayload(provider, names);
    const built: BuiltToolPayload = Object.freeze({ provider, toolNames: Object.freeze(names), payload, schemaTokens: countToolPayloadTokens(payload) });
    if (this.memo.size >= MAX_ENTRIES) this.memo.clear();
    this.memo.set(key, built);
    return built;
  }
}
