import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CorePromptSections } from './core-prompt-sections';
import { MemoryFile } from './memory-file';
import { SkillLibrary } from './skill-library';

let dir: string;
let logs: string[];
let sections: CorePromptSections;
let memory: MemoryFile;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-core-prompt-'));
  fs.mkdirSync(path.join(dir, 'skills', 'one'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'skills', 'one', 'SKILL.md'), '---\nname: one\ndescription: The first skill.\n---\nBody\n');
  logs = [];
  memory = new MemoryFile({ folder: path.join(dir, 'memory'), now: () => new Date('2025-03-01T12:00:00Z'), timeZone: 'UTC' });
  const skills = new SkillLibrary({ builtinFolder: path.join(dir, 'none'), userFolder: path.join(dir, 'skills') });
  sections = new CorePromptSections(skills, memory, (level, message) => logs.push(`${level}: ${message}`));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('CorePromptSections', () => {
  it('renders the skills section, then the memory section once there is memory', async () => {
    expect(sections.render()).toBe("## Available Skills\n\nUse `load_skill` to load a skill's full instructions before you follow it.\n\n- one: The first skill.");
    await memory.save('Prefers tea over coffee.', 'preferences');
    const text = sections.render();
    expect(text.indexOf('## Memory')).toBeGreaterThan(text.indexOf('- one: The first skill.'));
    expect(text.endsWith('### Preferences\n- [2025-03-01] Prefers tea over coffee.')).toBe(true);
  });

  it('leaves the skills out for an agent without load_skill, and is empty with nothing to show', () => {
    expect(sections.render({ allowedTools: new Set(['save_memory']) })).toBe('');
  });

  it('leaves an unreadable memory file out of the prompt and logs it once, without throwing', () => {
    fs.mkdirSync(path.join(dir, 'memory', 'MEMORY.md'), { recursive: true });
    expect(sections.render()).not.toContain('## Memory');
    expect(sections.render()).toContain('## Available Skills');
    expect(logs).toEqual(['warn: memory left out of the prompt: The memory file cannot be read (EISDIR). Ask the operator to check memory/MEMORY.md in the data directory.']);
  });
});
