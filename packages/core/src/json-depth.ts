/**
 * How deep a model's tool-call arguments may nest. JSON.parse takes any depth, but JSON.stringify,
 * the secret redactor and schema validation recurse, and a few thousand levels (a few KB of
 * `[[[...]]]` in a reply) overflow the stack. No tool's parameters come near this.
 */
export const MAX_ARGUMENT_DEPTH = 64;

/** Whether a JSON value nests arrays and objects deeper than `max` levels. Iterative, so any depth is safe to ask about. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
