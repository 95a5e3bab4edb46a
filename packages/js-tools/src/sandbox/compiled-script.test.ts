import { describe, expect, it } from '@jest/globals';
import { compileScript, ScriptSyntaxError } from './compiled-script';

/** `var TABLE = "ab" + "ab" + ...`: acorn parses it into a binary tree `terms` levels deep. */
const longChain = (terms: number) => `function execute() { return TABLE.length; }\nvar TABLE = ${Array.from({ length: terms }, () => '"ab"').join(' + ')};\n`;

describe('compileScript', () => {
  it('compiles a file whose expression tree is thousands of levels deep (the walk does not recurse)', () => {
    const source = `${longChain(4000)}function _unused() { return 1; }\n`;
    const script = compileScript('table.js', source);
    expect([...script.functionNames]).toEqual(['execute', '_unused']);
    const slice = script.sliceFor('execute');
    expect(slice).toContain('var TABLE = "ab" + "ab"');
    expect(slice).not.toContain('_unused');
  });

  it('slices a top-level statement that names more identifiers than a spread call can take', () => {
    const names = Array.from({ length: 150_000 }, (_, i) => `v${i}`);
    const source = `function execute() { return 1; }\nfunction _unused() { return 2; }\nvar ALL = [${names.join(',')}];\n`;
    const slice = compileScript('many.js', source).sliceFor('execute');
    expect(slice).toContain('function execute()');
    expect(slice).not.toContain('_unused');
  });

  it('reaches the same functions as a recursive walk: property names and labels do not count, computed keys and shorthands do', () => {
    const source = [
      'function execute(p) { out: for (;;) { break out; } return [p.viaProperty, { viaKey: 1 }, p[viaComputed], { viaShorthand }]; }',
      'function viaProperty() {}',
      'function viaKey() {}',
      'function out() {}',
      'function viaComputed() {}',
      'function viaShorthand() {}',
    ].join('\n');
    const slice = compileScript('reach.js', source).sliceFor('execute');
    expect(slice).toContain('function viaComputed()');
    expect(slice).toContain('function viaShorthand()');
    for (const dropped of ['viaProperty() {}', 'viaKey() {}', 'out() {}']) expect(slice).not.toContain(`function ${dropped}`);
    expect(slice.split('\n')).toHaveLength(6);
  });

  it('a tree too deep for acorn itself is a ScriptSyntaxError, not a crash', () => {
    expect(() => compileScript('deep.js', longChain(50_000))).toThrow(ScriptSyntaxError);
    expect(() => compileScript('deep.js', longChain(50_000))).toThrow(/^Syntax error in 'deep.js' at line 2, column \d+: Not enough stack space to parse input$/);
  });
});
