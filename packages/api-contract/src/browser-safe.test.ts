import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The web bundle imports this package, so its sources may name nothing but each other and
 * core's types: a value import (of core, Node or the server) would ship that code to the browser
 * or break the bundle. (Node globals and packages outside the dependencies fail the build:
 * tsconfig.json has no Node types and package.json no other dependency.)
 */
describe('api-contract sources', () => {
  const sources = readdirSync(__dirname).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));

  it('are there to check', () => {
    expect(sources).toEqual(expect.arrayContaining(['index.ts', 'session-views.ts', 'turn-updates.ts', 'problem.ts']));
  });

  it.each(sources)('%s imports only its siblings and core types', (file) => {
    const text = readFileSync(path.join(__dirname, file), 'utf8');
    const imports = [...text.matchAll(/^(import|export)\b([^;]*?)\bfrom\s+'([^']+)'/gms)].map(([, keyword, clause, from]) => ({
      statement: `${keyword}${clause}from '${from}'`.replace(/\s+/g, ' '),
      typeOnly: /^\s*type\b/.test(clause!),
      from: from!,
    }));
    const refused = imports.filter(({ from, typeOnly }) => !(from.startsWith('./') || (from === '@oneclaw/core' && typeOnly)));
    expect(refused.map((i) => i.statement)).toEqual([]);
    expect(text).not.toMatch(/\brequire\(|\bimport\(/);
  });
});
