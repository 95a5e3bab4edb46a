// Helpers for the manifest tests: real folders in the temp dir, and calls through the registry.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolRegistry, ToolResult } from '@oneclaw/tool-registry';
import type { JsToolFolder } from './js-tool-catalogue';

export function makeTempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `oneclaw-${prefix}-`));
}

export interface ToolFolders {
  readonly root: string;
  readonly builtIn: JsToolFolder;
  readonly user: JsToolFolder;
}

/** A temp root with `built-in/` (created) and `user/` (created only when asked: some tests need it missing). */
export function makeToolFolders(prefix: string, options: { createUser: boolean }): ToolFolders {
  const root = makeTempDir(prefix);
  const builtIn: JsToolFolder = { path: join(root, 'built-in'), kind: 'js-built-in' };
  const user: JsToolFolder = { path: join(root, 'user'), kind: 'js-user' };
  mkdirSync(builtIn.path);
  if (options.createUser) mkdirSync(user.path);
  return { root, builtIn, user };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Writes `<base>.json` (JSON-encoded unless a string) and, unless undefined, `<base>.js`. */
export function writePair(folder: string, baseName: string, manifest: unknown, js: string | undefined): void {
  writeFileSync(join(folder, `${baseName}.json`), typeof manifest === 'string' ? manifest : JSON.stringify(manifest, null, 2));
  if (js !== undefined) writeFileSync(join(folder, `${baseName}.js`), js);
}

export function toolEntry(name: string, fn?: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    description: `The ${name} tool`,
    ...(fn ? { function: fn } : {}),
    parameters: { properties: { text: { type: 'string' } } },
    ...extra,
  };
}

/** Runs a registered tool the way the engine does (without the engine's checks). */
export async function callTool(registry: ToolRegistry, name: string, params: Record<string, unknown> = {}, env: Record<string, string> = {}): Promise<ToolResult> {
  const registered = registry.get(name);
  if (!registered) throw new Error(`Tool '${name}' is not registered`);
  return registered.tool.execute(params, { signal: new AbortController().signal, sessionId: 's-1', callId: 'c-1', env });
}

/** Polls until `condition` holds; fails after `timeoutMs` with `what` (no fixed sleeps in tests). */
export async function waitFor(what: string, condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
