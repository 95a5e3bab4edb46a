import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from '../testing/server-process';
import { startTestServer, type TestServer } from '../testing/test-server';

/**
 * User tool files that are hard on the loader, through a real server (J5, J7): a bad or unusual
 * file is that file's problem, never the server's, and never stops the files after it.
 */
interface Source {
  readonly fileName: string;
  readonly tools: readonly { name: string }[];
  readonly problems: readonly { severity: string; message: string }[];
}

/** `var TABLE = "ab" + "ab" + ...`: about 7 bytes a term, parsed into a tree `terms` levels deep. */
const tableScript = (terms: number) => `function execute() { return TABLE.length; }\nvar TABLE = ${Array.from({ length: terms }, () => '"ab"').join(' + ')};\n`;

let server: TestServer | undefined;
let dataDir: string;
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

function writeTool(baseName: string, toolName: string, js: string): void {
  const folder = path.join(dataDir, 'tools');
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, `${baseName}.json`), JSON.stringify({ name: toolName, description: 'd' }));
  writeFileSync(path.join(folder, `${baseName}.js`), js);
}

async function sources(s: TestServer): Promise<Source[]> {
  return (await s.api('GET', '/api/tools')).body.sources as Source[];
}

describe('user tool files the loader finds hard (server)', () => {
  it('starts with a 3000-term expression file in the tools folder and loads it and the files after it; files dropped in later load too', async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-user-tool-files-'));
    writeTool('a_table', 'table', tableScript(3000));
    writeTool('b_good', 'good_tool', 'function execute() { return "ok"; }');
    server = await startTestServer({ dataDir });
    const s = server;

    const atStart = await sources(s);
    expect(atStart.find((f) => f.fileName === 'a_table.js')).toMatchObject({ tools: [{ name: 'table' }], problems: [] });
    expect(atStart.find((f) => f.fileName === 'b_good.js')).toMatchObject({ tools: [{ name: 'good_tool' }], problems: [] });

    // At run time, through the watcher: a file too deep even for the parser gets its problem, and the next file still loads.
    writeTool('c_table', 'table_two', tableScript(3000));
    writeTool('d_too_deep', 'too_deep', tableScript(50_000));
    writeTool('e_good', 'good_two', 'function execute() { return "ok"; }');
    const later = await waitFor('the dropped files to load', async () => {
      const files = await sources(s);
      return files.some((f) => f.fileName === 'e_good.js' && f.tools.length === 1) ? files : undefined;
    });
    expect(later.find((f) => f.fileName === 'c_table.js')).toMatchObject({ tools: [{ name: 'table_two' }], problems: [] });
    expect(later.find((f) => f.fileName === 'd_too_deep.js')).toMatchObject({
      tools: [],
      problems: [{ severity: 'error', message: expect.stringContaining("Syntax error in 'd_too_deep.js' at line 2") }],
    });
  });
});
