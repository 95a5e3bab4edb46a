import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { EventStore } from '@oneclaw/core';
import type { JsRunner } from '@oneclaw/js-tools';
import { createApp } from '../create-app';
import { CapturedLines } from '../logging/capture-lines';
import { createLogger } from '../logging/logger';
import { SecretRedactor } from '../security/secret-redactor';
import { loadServerConfig, secretsOf, type ServerConfig } from '../server-config';

export const TEST_API_TOKEN = 'test-token-0123456789abcdef';

export interface TestServerOptions {
  /** Environment the config is read from (ONECLAW_DATA_DIR is set for you unless given). */
  readonly env?: Readonly<Record<string, string>>;
  /** Reuse a data directory (a restart); a fresh temp one otherwise. */
  readonly dataDir?: string;
  readonly eventStore?: EventStore;
  readonly toolRunner?: JsRunner;
}

export interface SseEvent {
  readonly event: string;
  readonly data: any;
}

export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: any;
}

export interface TestServer {
  readonly url: string;
  readonly dataDir: string;
  readonly config: ServerConfig;
  readonly app: NestExpressApplication;
  /** Every log line the server wrote (JSON), for secret scans. */
  readonly logLines: CapturedLines;
  /** An authorized JSON request (pass `headers: {authorization: ''}` to send none). */
  api(method: string, route: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  /** POST with Accept: text/event-stream; resolves when the stream ends, with every event. */
  stream(route: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; events: SseEvent[]; body: any }>;
  /** Closes the app; the data directory is kept when `keepData` (for a restart). */
  close(options?: { keepData?: boolean }): Promise<void>;
}

/** A real server on a loopback port, built exactly as main.ts builds it, logging into memory. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'oneclaw-server-'));
  const config = loadServerConfig({ ONECLAW_DATA_DIR: dataDir, ONECLAW_API_TOKEN: TEST_API_TOKEN, ONECLAW_LOG: 'info', ...options.env });
  const redactor = new SecretRedactor();
  for (const secret of secretsOf(config)) redactor.add(secret);
  const logLines = new CapturedLines();
  const logger = createLogger({ level: config.logLevel, redactor, destination: logLines });
  const app = await createApp({
    config,
    apiToken: config.apiToken ?? TEST_API_TOKEN,
    logger,
    redactor,
    ...(options.eventStore ? { eventStore: options.eventStore } : {}),
    ...(options.toolRunner ? { toolRunner: options.toolRunner } : {}),
  });
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const auth = { authorization: `Bearer ${config.apiToken ?? TEST_API_TOKEN}` };

  const request = (method: string, route: string, body: unknown, headers: Record<string, string>) =>
    fetch(url + route, {
      method,
      headers: { 'content-type': 'application/json', ...auth, ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });

  return {
    url,
    dataDir,
    config,
    app,
    logLines,
    async api(method, route, body, headers = {}) {
      const response = await request(method, route, body, headers);
      const text = await response.text();
      return { status: response.status, headers: response.headers, text, body: parseJson(text) };
    },
    async stream(route, body, headers = {}) {
      const response = await request('POST', route, body, { accept: 'text/event-stream', ...headers });
      const text = await response.text();
      if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        return { status: response.status, events: [], body: parseJson(text) };
      }
      return { status: response.status, events: parseSse(text), body: undefined };
    },
    async close(closeOptions = {}) {
      await app.close();
      if (!closeOptions.keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function parseJson(text: string): any {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    const lines = block.split('\n').filter((l) => l && !l.startsWith(':'));
    const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
    const data = lines
      .filter((l) => l.startsWith('data: '))
      .map((l) => l.slice(6))
      .join('\n');
    if (event) events.push({ event, data: data ? JSON.parse(data) : undefined });
  }
  return events;
}
