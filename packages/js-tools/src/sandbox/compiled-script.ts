import { createHash } from 'node:crypto';
import { parse, type Node, type Program } from 'acorn';
import { base } from 'acorn-walk';

/**
 * A tool file's JavaScript, parsed once when the file is loaded and held once for all of its
 * tools (J1, J3).
 *
 * quickjs-emscripten 0.32 exposes no way to run compiled bytecode in another runtime (its binary
 * JSON refuses function bytecode), and QuickJS parses a 30 KB file in about 3 ms, ten times the
 * cost of a fresh runtime. So instead of re-evaluating the whole file on every call, as the
 * origin app does, each named function gets a *slice*: the file with the top-level function
 * declarations that the function cannot reach blanked out (newlines kept, so line numbers in
 * error messages still match the file). Every other top-level statement is kept, and a function
 * is reachable when its name appears as an identifier anywhere in kept code, transitively.
 * The one thing a slice cannot see is a function reached only through a computed name
 * (`globalThis['helper']`); such files can set `"slicing": false` in their manifest.
 */
export interface CompiledScript {
  readonly fileName: string;
  readonly source: string;
  /** sha256 of the source: the cache key for slices and for the sandbox workers. */
  readonly version: string;
  /** Names of top-level function declarations, and of top-level variables bound to functions. */
  readonly functionNames: ReadonlySet<string>;
  /** The code to evaluate before calling `functionName` (memoized). */
  sliceFor(functionName: string): string;
}

export class ScriptSyntaxError extends Error {
  constructor(
    readonly fileName: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`Syntax error in '${fileName}' at line ${line}, column ${column}: ${reason}`);
    this.name = 'ScriptSyntaxError';
  }
}

export interface CompileOptions {
  /** False: every call evaluates the whole file (for files that look functions up by computed name). */
  readonly slicing?: boolean;
}

interface TopLevel {
  readonly start: number;
  readonly end: number;
  /** Set for a function declaration, which a slice may drop. */
  readonly functionName?: string;
  readonly identifiers: ReadonlySet<string>;
}

/** Throws ScriptSyntaxError when the source does not parse. */
export function compileScript(fileName: string, source: string, options: CompileOptions = {}): CompiledScript {
  let program: Program;
  try {
    program = parse(source, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true, locations: true });
  } catch (error) {
    const e = error as { loc?: { line: number; column: number }; message?: string };
    const reason = (e.message ?? String(error)).replace(/\s*\(\d+:\d+\)$/, '');
    throw new ScriptSyntaxError(fileName, e.loc?.line ?? 0, (e.loc?.column ?? 0) + 1, reason);
  }

  const topLevel = program.body.map((statement): TopLevel => {
    const identifiers = collectIdentifiers(statement);
    if (statement.type === 'FunctionDeclaration' && statement.id) {
      return { start: statement.start, end: statement.end, functionName: statement.id.name, identifiers };
    }
    return { start: statement.start, end: statement.end, identifiers };
  });

  const functionNames = new Set<string>();
  for (const statement of program.body) {
    if (statement.type === 'FunctionDeclaration' && statement.id) functionNames.add(statement.id.name);
    if (statement.type === 'VariableDeclaration') {
      for (const declarator of statement.declarations) {
        const init = declarator.init?.type;
        if (declarator.id.type === 'Identifier' && (init === 'FunctionExpression' || init === 'ArrowFunctionExpression')) {
          functionNames.add(declarator.id.name);
        }
      }
    }
  }

  const version = createHash('sha256').update(source).digest('hex');
  const slices = new Map<string, string>();
  const slicing = options.slicing !== false;

  return {
    fileName,
    source,
    version,
    functionNames,
    sliceFor(functionName: string): string {
      let slice = slices.get(functionName);
      if (slice === undefined) {
        slice = slicing ? sliceSource(source, topLevel, functionName) : source;
        slices.set(functionName, slice);
      }
      return slice;
    },
  };
}

type Visit = (node: Node, state: unknown, callback: (child: Node, state: unknown, override?: string) => void) => void;
const visitors = base as unknown as Record<string, Visit>;

/**
 * Every identifier acorn-walk's `full` walk would visit, found with an explicit stack instead of
 * recursion: acorn parses a chain like `"a" + "b" + ...` of a few thousand terms into a tree that
 * deep (acorn itself reports a stack overflow as a syntax error), and a recursive walk of it
 * overflowed the stack: one 10 KB file stopped the server from starting. acorn-walk's base
 * visitors still decide which children count (not the names of non-computed properties, nor
 * labels), so the slices are the same as with the recursive walk.
 */
function collectIdentifiers(root: Node): Set<string> {
  const names = new Set<string>();
  const pending: { node: Node; type: string }[] = [{ node: root, type: root.type }];
  const push = (child: Node, _state: unknown, override?: string): void => {
    pending.push({ node: child, type: override ?? child.type });
  };
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.node.type === 'Identifier') names.add((next.node as unknown as { name: string }).name);
    visitors[next.type]?.(next.node, undefined, push);
  }
  return names;
}

function sliceSource(source: string, topLevel: readonly TopLevel[], entry: string): string {
  const declarations = new Map<string, TopLevel[]>();
  for (const statement of topLevel) {
    if (statement.functionName === undefined) continue;
    const list = declarations.get(statement.functionName) ?? [];
    list.push(statement);
    declarations.set(statement.functionName, list);
  }
  // Not a plain function declaration (a `var f = ...`, or missing): the whole file is needed to
  // find it, or to report that it is not defined.
  if (!declarations.has(entry)) return source;

  const reachable = new Set<string>();
  const pending: string[] = [entry];
  for (const statement of topLevel) {
    if (statement.functionName === undefined) pushAll(pending, statement.identifiers);
  }
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (reachable.has(name) || !declarations.has(name)) continue;
    reachable.add(name);
    for (const declaration of declarations.get(name) ?? []) pushAll(pending, declaration.identifiers);
  }

  let out = '';
  let cursor = 0;
  for (const statement of topLevel) {
    if (statement.functionName === undefined || reachable.has(statement.functionName)) continue;
    out += source.slice(cursor, statement.start) + blankOut(source.slice(statement.start, statement.end));
    cursor = statement.end;
  }
  return out + source.slice(cursor);
}

/** A loop, not `push(...items)`: a spread of a large file's identifiers overflows the stack. */
function pushAll(target: string[], items: Iterable<string>): void {
  for (const item of items) target.push(item);
}

/** Keeps the line breaks so positions after the blanked code stay where they were. */
function blankOut(text: string): string {
  return text.replace(/[^\n]+/g, '');
}
