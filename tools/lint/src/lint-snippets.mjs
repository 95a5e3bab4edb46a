// Lints source snippets as if they were files at the given paths of this repository, with the
// repository's own eslint.config.mjs. Reads [{ filePath, code }] as JSON on stdin and writes
// { direction, results: [{ filePath, messages: [{ ruleId, message }] }] } as JSON on stdout,
// where direction is the config's DIRECTION table. Run by direction.test.ts in
// a child process because ESLint loads its config with import(), which Jest's sandbox cannot.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { DIRECTION } from '../../../eslint.config.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

let input = '';
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const { filePath, code } of JSON.parse(input)) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath), warnIgnored: true });
  results.push({ filePath, messages: (result?.messages ?? []).map(({ ruleId, message }) => ({ ruleId, message })) });
}
process.stdout.write(JSON.stringify({ direction: DIRECTION, results }));
