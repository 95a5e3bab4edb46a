import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OneClawError } from '@oneclaw/core';
import { createBridgeHost, InProcessJsRunner, JsToolCatalogue } from '@oneclaw/js-tools';
import { ToolExecutionEngine, ToolRegistry, type ToolResult } from '@oneclaw/tool-registry';
import { BUILTIN_SKILLS_FOLDER } from '@oneclaw/tools-assets';
import { createLoadSkillTool } from './load-skill-tool';
import { SkillLibrary } from './skill-library';

let dir: string;
let shipped: string;
let user: string;
let logs: string[];

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-skills-')));
  shipped = path.join(dir, 'shipped');
  user = path.join(dir, 'user');
  fs.mkdirSync(shipped);
  fs.mkdirSync(user);
  logs = [];
});
afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

function writeSkill(folder: string, entry: string, frontMatter: string, body = 'Do the thing.', extra: Record<string, string> = {}): void {
  fs.mkdirSync(path.join(folder, entry), { recursive: true });
  fs.writeFileSync(path.join(folder, entry, 'SKILL.md'), `---\n${frontMatter}\n---\n\n${body}\n`);
  for (const [file, content] of Object.entries(extra)) {
    fs.mkdirSync(path.dirname(path.join(folder, entry, file)), { recursive: true });
    fs.writeFileSync(path.join(folder, entry, file), content);
  }
}

const library = () => new SkillLibrary({ builtinFolder: shipped, userFolder: user, onLog: (level, message) => logs.push(`${level}: ${message}`) });
const context = { signal: new AbortController().signal, sessionId: 's', callId: 'c', env: {} };
const loadSkill = (skills: SkillLibrary, name: string): Promise<ToolResult> => createLoadSkillTool(skills).execute({ name }, context);

describe('SkillLibrary and load_skill (issue 6)', () => {
  it('ships useful skills that all parse, each listed in the prompt with its description', () => {
    const skills = new SkillLibrary({ builtinFolder: BUILTIN_SKILLS_FOLDER, userFolder: user, onLog: (l, m) => logs.push(`${l}: ${m}`) });
    expect(skills.list().map((s) => [s.name, s.source])).toEqual([
      ['daily-briefing', 'built-in'],
      ['inbox-triage', 'built-in'],
      ['write-js-tool', 'built-in'],
    ]);
    expect(logs).toEqual([]);
    for (const skill of skills.list()) expect(skills.load(skill.name).body.length).toBeGreaterThan(500);
  });

  it("the write-js-tool skill's example tool loads as a JS tool and runs in the sandbox", async () => {
    const registry = new ToolRegistry();
    const host = createBridgeHost({ filesRoot: path.join(dir, 'files') });
    const runner = new InProcessJsRunner(host);
    try {
      const report = new JsToolCatalogue({ registry, runner, folders: [{ path: path.join(BUILTIN_SKILLS_FOLDER, 'write-js-tool', 'examples'), kind: 'js-user' }] }).loadAll();
      expect(report.problems).toEqual([]);
      const [outcome] = await new ToolExecutionEngine(registry).executeAll([{ callId: 'c', toolName: 'word_stats', arguments: { text: 'the cat and the hat\nthe end', top: 2 } }], {
        sessionId: 's',
        activeToolNames: ['word_stats'],
      });
      expect(outcome?.result).toEqual({
        status: 'success',
        result: JSON.stringify({
          words: 7,
          lines: 2,
          top: [
            { word: 'the', count: 3 },
            { word: 'and', count: 1 },
          ],
        }),
      });
    } finally {
      await runner.close();
      await host.close();
    }
  });

  it('load_skill returns the SKILL.md body without its front matter, and lists the other files of the skill', async () => {
    writeSkill(shipped, 'triage', 'name: triage\ndescription: Sort the inbox.\nversion: 2', '# Triage\n\nStep one.', {
      'templates/reply.md': 'Dear ...',
      'notes.txt': 'n',
    });
    const result = await loadSkill(library(), 'triage');
    expect(result).toEqual({
      status: 'success',
      result:
        "# Skill: triage\n\n# Triage\n\nStep one.\n\n---\nOther files in this skill (read one with load_skill and the name 'triage/<file>'):\n- notes.txt\n- templates/reply.md",
    });
  });

  it("load_skill reads one of the skill's files by 'name/path', confined to the skill's folder", async () => {
    writeSkill(shipped, 'triage', 'name: triage\ndescription: Sort the inbox.', 'Body', { 'templates/reply.md': 'Dear sender' });
    fs.writeFileSync(path.join(shipped, 'secret.txt'), 'outside the skill');
    const skills = library();
    expect(await loadSkill(skills, 'triage/templates/reply.md')).toEqual({ status: 'success', result: 'Dear sender' });
    expect(await loadSkill(skills, 'triage/../secret.txt')).toMatchObject({ status: 'error', errorType: 'forbidden' });
    expect(await loadSkill(skills, 'triage/missing.md')).toMatchObject({ status: 'error', errorType: 'not_found' });
    expect(await loadSkill(skills, 'nosuch/file.md')).toMatchObject({ status: 'error', errorType: 'not_found' });
  });

  it('finds a skill ignoring case when no exact name matches', async () => {
    writeSkill(shipped, 'x', 'name: Inbox-Triage\ndescription: Sort the inbox.', 'Body');
    expect(await loadSkill(library(), 'inbox-triage')).toMatchObject({ status: 'success', result: '# Skill: Inbox-Triage\n\nBody' });
  });

  it('an unknown name is not_found and lists the available skills; with none, says none are installed', async () => {
    const empty = await loadSkill(library(), 'anything');
    expect(empty).toEqual({ status: 'error', errorType: 'not_found', message: "No skill named 'anything': no skills are installed." });
    writeSkill(shipped, 'b', 'name: beta\ndescription: B.');
    writeSkill(user, 'a', 'name: alpha\ndescription: A.');
    expect(await loadSkill(library(), 'gamma')).toEqual({ status: 'error', errorType: 'not_found', message: "No skill named 'gamma'. Available skills: alpha, beta." });
  });

  it('bad input: an empty name is missing_parameter; a missing name is a validation_error from the engine', async () => {
    expect(await loadSkill(library(), '  ')).toMatchObject({ status: 'error', errorType: 'missing_parameter' });
    const registry = new ToolRegistry();
    registry.register(createLoadSkillTool(library()), { kind: 'built-in' });
    const [outcome] = await new ToolExecutionEngine(registry).executeAll([{ callId: 'c', toolName: 'load_skill', arguments: { name: 3 } }], {
      sessionId: 's',
      activeToolNames: ['load_skill'],
    });
    expect(outcome?.result).toMatchObject({ status: 'error', errorType: 'validation_error' });
    expect(registry.get('load_skill')?.definition.timeoutMs).toBe(5_000);
  });

  it('a user skill with the name of a shipped one replaces it, and the replacement is logged', async () => {
    writeSkill(shipped, 'triage', 'name: triage\ndescription: Shipped triage.', 'Shipped body');
    writeSkill(user, 'my-triage', 'name: triage\ndescription: My own triage.', 'User body');
    const skills = library();
    expect(skills.list()).toEqual([expect.objectContaining({ name: 'triage', description: 'My own triage.', source: 'user' })]);
    expect(skills.load('triage').body).toBe('User body');
    expect(logs).toEqual(["info: user skill 'triage' replaces the shipped skill of that name"]);
  });

  it('skips bad skill folders with a logged problem and keeps the good ones (never a crash)', () => {
    writeSkill(user, 'good', 'name: good\ndescription: Works.');
    fs.mkdirSync(path.join(user, 'no-front-matter'));
    fs.writeFileSync(path.join(user, 'no-front-matter', 'SKILL.md'), '# Just markdown\n');
    writeSkill(user, 'bad-yaml', 'name: [unclosed\ndescription: x');
    writeSkill(user, 'no-description', 'name: lonely');
    writeSkill(user, 'no-name', 'description: nameless');
    writeSkill(user, 'slash', 'name: a/b\ndescription: x');
    writeSkill(user, 'list', '- name: x');
    writeSkill(user, 'zz-duplicate', 'name: good\ndescription: Second one.');
    fs.mkdirSync(path.join(user, 'dir-as-file', 'SKILL.md'), { recursive: true });
    fs.mkdirSync(path.join(user, 'empty-folder'));
    fs.writeFileSync(path.join(user, 'stray-file.md'), 'not a folder');

    const skills = library();
    expect(skills.list().map((s) => s.name)).toEqual(['good']);
    expect(logs).toEqual([
      "warn: skill 'skills/bad-yaml' skipped: SKILL.md: its front matter is not valid YAML (Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1)",
      "warn: skill 'skills/dir-as-file' skipped: SKILL.md cannot be read (EISDIR)",
      "warn: skill 'skills/list' skipped: SKILL.md: its front matter must be a YAML mapping with name: and description:",
      "warn: skill 'skills/no-description' skipped: SKILL.md: its front matter has no description",
      'warn: skill \'skills/no-front-matter\' skipped: SKILL.md: it does not start with YAML front matter (a "---" line, name: and description:, then another "---" line)',
      "warn: skill 'skills/no-name' skipped: SKILL.md: its front matter has no name",
      "warn: skill 'skills/slash' skipped: SKILL.md: its name 'a/b' contains a slash, a backslash or a control character",
      "warn: skill 'zz-duplicate' skipped: another folder already defines the skill 'good'",
    ]);
  });

  it('a missing user folder simply has no skills', () => {
    writeSkill(shipped, 'one', 'name: one\ndescription: One.');
    const skills = new SkillLibrary({ builtinFolder: shipped, userFolder: path.join(dir, 'nowhere') });
    expect(skills.list().map((s) => s.name)).toEqual(['one']);
  });

  describe('the "Available Skills" prompt section', () => {
    it('lists "- name: description" per skill under the heading and the instruction, one line each, descriptions cut at 200 characters', () => {
      writeSkill(shipped, 'b', 'name: beta\ndescription: |\n  Two\n  lines.');
      writeSkill(user, 'a', `name: alpha\ndescription: ${'long '.repeat(60)}end`);
      const text = library().promptSection();
      const lines = text.split('\n');
      expect(lines.slice(0, 4)).toEqual(['## Available Skills', '', "Use `load_skill` to load a skill's full instructions before you follow it.", '']);
      expect(lines[4]?.startsWith('- alpha: long long')).toBe(true);
      expect(Array.from(lines[4] ?? '')).toHaveLength('- alpha: '.length + 200);
      expect(lines[4]?.endsWith('…')).toBe(true);
      expect(lines[5]).toBe('- beta: Two lines.');
      expect(lines).toHaveLength(6);
    });

    it('is empty when there are no skills, or when the agent may not call load_skill', () => {
      expect(library().promptSection()).toBe('');
      writeSkill(shipped, 'b', 'name: beta\ndescription: B.');
      expect(library().promptSection({ allowedTools: new Set(['load_tool_group']) })).toBe('');
      expect(library().promptSection({ allowedTools: new Set(['load_skill']) })).toContain('- beta: B.');
    });

    it('is cached: the user folder is read again only when it changes (a skill added, edited or removed)', () => {
      writeSkill(shipped, 'b', 'name: beta\ndescription: B.');
      const skills = library();
      const first = skills.promptSection();
      const reads = jest.spyOn(fs, 'readFileSync');
      expect(skills.promptSection()).toBe(first);
      skills.list();
      expect(reads).not.toHaveBeenCalled();

      writeSkill(user, 'a', 'name: alpha\ndescription: A.');
      expect(skills.promptSection()).toBe(`${first.replace('- beta', '- alpha: A.\n- beta')}`);
      expect(reads).toHaveBeenCalledTimes(1);

      writeSkill(user, 'a', 'name: alpha\ndescription: A, edited to be longer.');
      expect(skills.promptSection()).toContain('- alpha: A, edited to be longer.');

      fs.rmSync(path.join(user, 'a'), { recursive: true });
      expect(skills.promptSection()).toBe(first);
      expect(reads).toHaveBeenCalledTimes(2);
    });
  });

  it('load errors are OneClawErrors with stable codes', () => {
    expect(() => library().load('x')).toThrow(OneClawError);
  });
});
