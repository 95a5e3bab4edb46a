import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The `package.json` files whose `start` script runs the server: this package's and the root's. */
export const START_SCRIPT_PACKAGES = {
  server: path.resolve(__dirname, '../../package.json'),
  root: path.resolve(__dirname, '../../../../package.json'),
} as const;

/**
 * The node flags a `start` script runs `main.js` with (`node --max-old-space-size=512 dist/main.js`
 * gives `['--max-old-space-size=512']`), so the memory bench starts the server exactly as
 * `pnpm start` does, and a test can check both start scripts agree (docs/memory.md).
 */
export function startScriptFlags(packageJsonFile: string, scriptName = 'start', entry = 'main.js'): string[] {
  const { scripts } = JSON.parse(readFileSync(packageJsonFile, 'utf8')) as { scripts?: Record<string, string> };
  const text = scripts?.[scriptName] ?? '';
  const command = text.split('&&').at(-1)?.trim().split(/\s+/) ?? [];
  if (command[0] !== 'node') throw new Error(`${packageJsonFile}: the ${scriptName} script does not end with a node command: ${text || '(none)'}`);
  const script = command.findIndex((word) => word.endsWith(entry));
  if (script < 0) throw new Error(`${packageJsonFile}: the ${scriptName} script does not run ${entry}: ${text}`);
  return command.slice(1, script);
}
