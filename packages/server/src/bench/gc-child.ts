import { fork } from 'node:child_process';

/**
 * The memory benches measure each variant in a fresh process of their own script, started with
 * `--expose-gc` so heap figures count what is retained only. `script` is the bench's
 * `__filename`; `input` reaches the child through the environment variable `envName`.
 */
export function measureInChild<T>(script: string, envName: string, input: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], { execArgv: ['--expose-gc'], env: { ...process.env, [envName]: JSON.stringify(input) } });
    child.once('message', (message) => resolve(message as T));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`${script}: child exited with ${code}`))));
  });
}

/** The bench's entry: in a child started by `measureInChild`, `measure` its input and send the result back; otherwise `main`. */
export function childOrMain<I>(envName: string, measure: (input: I) => Promise<unknown>, main: () => Promise<void>): void {
  const input = process.env[envName];
  const fail = (error: unknown) => {
    console.error(error);
    process.exit(1);
  };
  if (input === undefined) main().catch(fail);
  else measure(JSON.parse(input) as I).then((measured) => process.send?.(measured, () => process.exit(0)), fail);
}

/** A row of a "before | now | now / before" table. */
export function ratioRow(label: string, before: number, now: number, unit: string, digits = 1): string {
  return `| ${label} | ${before.toFixed(digits)} ${unit} | ${now.toFixed(digits)} ${unit} | ${before > 0 ? `${(now / before).toFixed(2)}×` : '–'} |`;
}
