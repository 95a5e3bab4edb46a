import { expect } from '@jest/globals';
import type { InterceptedRequest } from '@oneclaw/js-tools/testing';
import type { ToolResult } from '@oneclaw/tool-registry';
import { FAKE_GOOGLE_ACCESS_TOKEN } from './fake-google-api';
import type { ToolHarness } from './tool-harness';

/** Assertions the Google tool tests share: what reached the fake, and what the tool answered. */
export interface GoogleToolChecks {
  /** The parsed result of a successful call (throws with the error otherwise). */
  ok(result: ToolResult): any;
  /** The requests so far as `METHOD path`, each checked for the bearer token and the API's host. */
  sent(): string[];
  request(index: number): InterceptedRequest;
  /** The JSON body of a request, checked for its content type. */
  body(index: number): any;
  /** An execution error with the google_api message "<API> API error (<status>)". */
  apiError(result: ToolResult, status: number): void;
  /** The engine refused the arguments against the manifest schema. */
  invalid(result: ToolResult): void;
}

export function googleToolChecks(h: ToolHarness, api: string, host: string): GoogleToolChecks {
  const request = (index: number) => h.api.requests.at(index) as InterceptedRequest;
  return {
    ok(result) {
      if (result.status !== 'success') throw new Error(`expected success, got ${result.errorType}: ${result.message}`);
      return JSON.parse(result.result);
    },
    sent() {
      return h.api.requests.map((r) => {
        expect(r.headers.authorization).toBe(`Bearer ${FAKE_GOOGLE_ACCESS_TOKEN}`);
        expect(r.host).toBe(host);
        return `${r.method} ${r.path}`;
      });
    },
    request,
    body(index) {
      const req = request(index);
      expect(req.headers['content-type']).toMatch(/^application\/json/);
      return JSON.parse(req.body.toString('utf8'));
    },
    apiError(result, status) {
      expect(result).toMatchObject({ status: 'error', errorType: 'execution_error' });
      expect(result.status === 'error' && result.message).toMatch(new RegExp(`^${api} API error \\(${status}\\)`));
    },
    invalid(result) {
      expect(result).toMatchObject({ status: 'error', errorType: 'validation_error' });
    },
  };
}
