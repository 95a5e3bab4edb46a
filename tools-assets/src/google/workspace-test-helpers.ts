import { expect } from '@jest/globals';
import type { ToolResult } from '@oneclaw/tool-registry';
import { FAKE_GOOGLE_ACCESS_TOKEN } from '../testing/fake-google-api';
import type { ToolHarness } from '../testing/tool-harness';

/** The one request a tool call sent, checked for the host and the user's token; query as an object, body as JSON. */
export function onlyRequest(h: ToolHarness, host: string) {
  expect(h.api.requests).toHaveLength(1);
  const req = h.api.requests[0]!;
  expect(req.host).toBe(host);
  expect(req.headers.authorization).toBe(`Bearer ${FAKE_GOOGLE_ACCESS_TOKEN}`);
  return { ...req, query: Object.fromEntries(req.query), json: () => JSON.parse(req.body.toString('utf8')) as Record<string, unknown> };
}

/** The value a successful tool returned (the engine hands the model its JSON serialization). */
export function ok(result: ToolResult): any {
  if (result.status !== 'success') throw new Error(`tool failed: ${result.errorType}: ${result.message}`);
  return typeof result.result === 'string' ? JSON.parse(result.result) : result.result;
}

/** The message of a tool call that failed while running (not in argument validation). */
export function failure(result: ToolResult): string {
  expect(result).toMatchObject({ status: 'error', errorType: 'execution_error' });
  return result.status === 'error' ? result.message : '';
}
