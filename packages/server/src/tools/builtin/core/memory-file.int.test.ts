import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OneClawError } from '@oneclaw/core';
import { ToolExecutionEngine, ToolRegistry } from '@oneclaw/tool-registry';
import { MEMORY_PROMPT_MAX_CHARS, MemoryFile, renderMemoryPrompt, type MemoryCategory, type MemoryEntry } from './memory-file';
import { createSaveMemoryTool } from './save-memory-tool';

let dir: string;
let clock: Date;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-memory-'));
  clock = new Date('2025-03-01T12:00:00Z');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const memoryFile = () => new MemoryFile({ folder: path.join(dir, 'memory'), now: () => clock, timeZone: 'UTC' });
const read = () => fs.readFileSync(path.join(dir, 'memory', 'MEMORY.md'), 'utf8');

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    return error instanceof OneClawError ? error.code : `not a OneClawError: ${String(error)}`;
  }
  return 'no error';
}

describe('MemoryFile (save_memory, issue 6)', () => {
  it('appends dated entries to one section per category, in category order, notes by default', async () => {
    const memory = memoryFile();
    await memory.save('Working on the OneClaw TS port.', 'projects');
    clock = new Date('2025-03-02T09:00:00Z');
    await memory.save('The user is called Ana and lives in Lisbon.', 'profile');
    await memory.save('Buy a new kettle');
    await memory.save('Prefers short answers without emoji.', 'preferences');
    await memory.save('Also maintains the Android shell.', 'projects');
    expect(read()).toBe(
      [
        '# Memory',
        '',
        'Saved with save_memory: one section per category, each entry with the date it was saved. You may edit this file by hand.',
        '',
        '## Profile',
        '',
        '- [2025-03-02] The user is called Ana and lives in Lisbon.',
        '',
        '## Preferences',
        '',
        '- [2025-03-02] Prefers short answers without emoji.',
        '',
        '## Projects',
        '',
        '- [2025-03-01] Working on the OneClaw TS port.',
        '- [2025-03-02] Also maintains the Android shell.',
        '',
        '## Notes',
        '',
        '- [2025-03-02] Buy a new kettle',
        '',
      ].join('\n'),
    );
    expect(memory.snapshot().entries).toEqual([
      { category: 'profile', date: '2025-03-02', text: 'The user is called Ana and lives in Lisbon.' },
      { category: 'preferences', date: '2025-03-02', text: 'Prefers short answers without emoji.' },
      { category: 'projects', date: '2025-03-01', text: 'Working on the OneClaw TS port.' },
      { category: 'projects', date: '2025-03-02', text: 'Also maintains the Android shell.' },
      { category: 'notes', date: '2025-03-02', text: 'Buy a new kettle' },
    ]);
  });

  it('dates entries in the configured time zone', async () => {
    clock = new Date('2025-03-01T23:30:00Z');
    const tokyo = new MemoryFile({ folder: path.join(dir, 'a'), now: () => clock, timeZone: 'Asia/Tokyo' });
    expect((await tokyo.save('A fact saved late in the evening UTC.')).date).toBe('2025-03-02');
  });

  it('keeps a multi-line entry together (continuation lines indented), dropping blank lines', async () => {
    const memory = memoryFile();
    await memory.save('Morning routine:\n\n  1. run\n2. coffee\r\n', 'habits');
    expect(read()).toContain('## Habits\n\n- [2025-03-01] Morning routine:\n  1. run\n  2. coffee\n');
    expect(memory.snapshot().entries).toEqual([{ category: 'habits', date: '2025-03-01', text: 'Morning routine:\n1. run\n2. coffee' }]);
  });

  describe('duplicate_detected (origin rule: substring dedup over 20 characters)', () => {
    it('refuses an entry contained in an existing one, or containing one, when the shorter is over 20 characters; nothing is written', async () => {
      const memory = memoryFile();
      await memory.save('The user prefers dark mode in every app they use.', 'preferences');
      const before = read();
      expect(await codeOf(memory.save('prefers DARK   mode in every app', 'notes'))).toBe('duplicate_detected');
      expect(await codeOf(memory.save('Note: the user prefers dark mode in every app they use. Really.', 'preferences'))).toBe('duplicate_detected');
      expect(read()).toBe(before);
    });

    it('keeps short substrings apart (20 characters or fewer), but refuses an identical entry of any length', async () => {
      const memory = memoryFile();
      await memory.save('Likes tea', 'preferences');
      await memory.save('Likes tea with lemon in the evening', 'preferences');
      expect(await codeOf(memory.save('likes TEA', 'notes'))).toBe('duplicate_detected');
      expect(memory.snapshot().entries.map((e) => e.text)).toEqual(['Likes tea', 'Likes tea with lemon in the evening']);
    });

    it('names the entry it repeats in the message', async () => {
      const memory = memoryFile();
      await memory.save('Has a daughter named Rita, born 2019.', 'profile');
      await expect(memory.save('has a daughter named rita')).rejects.toThrow(
        'Memory already holds this (profile, 2025-03-01): "Has a daughter named Rita, born 2019.". Nothing was saved.',
      );
    });
  });

  it('refuses blank content (missing_parameter), content over 5000 characters (content_too_long) and an unknown category (invalid_category)', async () => {
    const memory = memoryFile();
    expect(await codeOf(memory.save(' \n\t '))).toBe('missing_parameter');
    expect(await codeOf(memory.save('x'.repeat(5001)))).toBe('content_too_long');
    expect(await codeOf(memory.save('A perfectly fine fact.', 'secrets' as MemoryCategory))).toBe('invalid_category');
    expect(fs.existsSync(path.join(dir, 'memory', 'MEMORY.md'))).toBe(false);
    await memory.save('y'.repeat(5000));
    expect(memory.snapshot().entries[0]?.text).toHaveLength(5000);
  });

  it('keeps hand edits: unknown sections and free text stay, hand-written entries count for duplicates', async () => {
    const file = path.join(dir, 'memory', 'MEMORY.md');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, '# My memory\n\nWritten by me.\n\n## Trips\n\n- Porto in May\n\n## preferences\n- Never book flights before 9 in the morning\n');
    const memory = memoryFile();
    expect(memory.snapshot().entries).toEqual([{ category: 'preferences', date: '', text: 'Never book flights before 9 in the morning' }]);
    expect(await codeOf(memory.save('never book flights before 9', 'habits'))).toBe('duplicate_detected');
    await memory.save('Window seat on long flights.', 'preferences');
    await memory.save('Learning Portuguese.', 'interests');
    expect(read()).toBe(
      '# My memory\n\nWritten by me.\n\n## Trips\n\n- Porto in May\n\n## preferences\n- Never book flights before 9 in the morning\n- [2025-03-01] Window seat on long flights.\n\n## Interests\n\n- [2025-03-01] Learning Portuguese.\n',
    );
  });

  it('serializes concurrent saves: none is lost, and a duplicate racing its original is refused', async () => {
    const memory = memoryFile();
    const texts = Array.from({ length: 20 }, (_, i) => `Fact number ${i} about something else entirely`);
    const outcomes = await Promise.allSettled([...texts.map((t) => memory.save(t)), memory.save(texts[3] as string)]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(20);
    expect(outcomes.at(-1)).toMatchObject({ status: 'rejected', reason: { code: 'duplicate_detected' } });
    expect(memory.snapshot().entries.map((e) => e.text)).toEqual(texts);
    expect(fs.readdirSync(path.join(dir, 'memory'))).toEqual(['MEMORY.md']);
  });

  it('a failed write is memory_write_failed and changes nothing', async () => {
    fs.writeFileSync(path.join(dir, 'memory'), 'a file where the memory folder should be');
    const memory = memoryFile();
    expect(await codeOf(memory.save('Something worth keeping.'))).toBe('memory_write_failed');
    expect(fs.readFileSync(path.join(dir, 'memory'), 'utf8')).toBe('a file where the memory folder should be');
  });

  it('an unreadable memory file is memory_unreadable (never a crash), for saves and reads', async () => {
    fs.mkdirSync(path.join(dir, 'memory', 'MEMORY.md'), { recursive: true });
    const memory = memoryFile();
    expect(await codeOf(memory.save('Something worth keeping.'))).toBe('memory_unreadable');
    expect(await codeOf(Promise.resolve().then(() => memory.snapshot()))).toBe('memory_unreadable');
  });

  describe('the "Memory" prompt section', () => {
    it('lists the entries by category under the heading; empty when there is no memory', async () => {
      const memory = memoryFile();
      expect(memory.promptSection()).toBe('');
      await memory.save('Prefers metric units.', 'preferences');
      await memory.save('Name: Ana.', 'profile');
      await memory.save('Line one\nline two');
      expect(memory.promptSection()).toBe(
        '## Memory\n\n' +
          'Facts about the user saved with `save_memory` in earlier conversations. Use them; search older conversations and entries not shown here with `search_history`.\n\n' +
          '### Profile\n- [2025-03-01] Name: Ana.\n\n' +
          '### Preferences\n- [2025-03-01] Prefers metric units.\n\n' +
          '### Notes\n- [2025-03-01] Line one\n  line two',
      );
    });

    it('sees a hand edit of the file on the next render', async () => {
      const memory = memoryFile();
      await memory.save('Prefers metric units.', 'preferences');
      expect(memory.promptSection()).toContain('Prefers metric units.');
      fs.writeFileSync(path.join(dir, 'memory', 'MEMORY.md'), '## Profile\n- [2025-01-01] Edited by hand, and longer than before.\n');
      expect(memory.promptSection()).toContain('### Profile\n- [2025-01-01] Edited by hand, and longer than before.');
      expect(memory.promptSection()).not.toContain('metric');
    });

    it(`keeps to ${MEMORY_PROMPT_MAX_CHARS} characters of entries: profile first, newest first within a category, and counts what was left out`, () => {
      const entry = (category: MemoryCategory, i: number): MemoryEntry => ({
        category,
        date: `2025-01-${String(i + 1).padStart(2, '0')}`,
        text: `${category} ${i} ${'x'.repeat(80)}`,
      });
      const notes = Array.from({ length: 30 }, (_, i) => entry('notes', i));
      const profile = Array.from({ length: 3 }, (_, i) => entry('profile', i));
      const text = renderMemoryPrompt([...notes, ...profile], 1000);
      for (const p of profile) expect(text).toContain(p.text);
      expect(text).toContain(notes[29]?.text);
      expect(text).not.toContain(notes[0]?.text);
      const shownNotes = notes.filter((n) => text.includes(n.text));
      // The newest ones, in saved order.
      expect(shownNotes).toEqual(notes.slice(notes.length - shownNotes.length));
      expect(text.indexOf('### Profile')).toBeLessThan(text.indexOf('### Notes'));
      expect(text.endsWith(`(${30 - shownNotes.length} more entries are not shown here: find them with search_history, scope "memory".)`)).toBe(true);
      const entriesPart = text.slice(text.indexOf('### Profile'), text.lastIndexOf('\n\n('));
      expect(entriesPart.length).toBeLessThanOrEqual(1000 + '### Profile\n\n### Notes\n'.length);
    });
  });
});

describe('save_memory tool', () => {
  const context = { signal: new AbortController().signal, sessionId: 's', callId: 'c', env: {} };

  it('saves and says where; a repeat is duplicate_detected', async () => {
    const tool = createSaveMemoryTool(memoryFile());
    expect(await tool.execute({ content: 'The user drinks oat milk only.', category: 'preferences' }, context)).toEqual({
      status: 'success',
      result: 'Saved to memory (preferences, 2025-03-01): The user drinks oat milk only.',
    });
    expect(await tool.execute({ content: 'the user drinks oat milk' }, context)).toMatchObject({ status: 'error', errorType: 'duplicate_detected' });
  });

  it('bad input is a validation_error from the engine (content over 5000, unknown category, no content); timeout 10 s', async () => {
    const registry = new ToolRegistry();
    registry.register(createSaveMemoryTool(memoryFile()), { kind: 'built-in' });
    const calls = [{ content: 'x'.repeat(5001) }, { content: 'ok', category: 'secrets' }, {}];
    const outcomes = await new ToolExecutionEngine(registry).executeAll(
      calls.map((args, i) => ({ callId: `c${i}`, toolName: 'save_memory', arguments: args })),
      { sessionId: 's', activeToolNames: ['save_memory'] },
    );
    expect(outcomes.map((o) => o.result.status === 'error' && o.result.errorType)).toEqual(['validation_error', 'validation_error', 'validation_error']);
    expect(registry.get('save_memory')?.definition.timeoutMs).toBe(10_000);
    expect(fs.existsSync(path.join(dir, 'memory', 'MEMORY.md'))).toBe(false);
  });
});
