import { describe, expect, it } from '@jest/globals';
import { START_SCRIPT_PACKAGES, startScriptFlags } from './start-flags';

describe('the heap limits the server starts with (docs/memory.md)', () => {
  it('the root `pnpm start`, the server package `pnpm start` and the root `pnpm oneclaw` (serve) run the server with the same node flags, a heap limit among them', () => {
    const server = startScriptFlags(START_SCRIPT_PACKAGES.server);
    expect(startScriptFlags(START_SCRIPT_PACKAGES.root)).toEqual(server);
    expect(startScriptFlags(START_SCRIPT_PACKAGES.root, 'oneclaw', 'oneclaw.js')).toEqual(server);
    expect(server.some((flag) => /^--max-old-space-size=\d+$/.test(flag))).toBe(true);
  });
});
