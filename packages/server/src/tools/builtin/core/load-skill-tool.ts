import { OneClawError } from '@oneclaw/core';
import { builtinTool, type Tool } from '@oneclaw/tool-registry';
import type { SkillLibrary } from './skill-library';

export const LOAD_SKILL = 'load_skill';

/**
 * load_skill (CATALOGUE.md section 8, core): the prompt lists only each skill's name and
 * description; this returns the full instructions when the model decides to follow one. A skill
 * may ship more files (templates, examples): the answer lists them, and `name/path` reads one.
 */
export function createLoadSkillTool(skills: SkillLibrary): Tool {
  return builtinTool<{ readonly name: string }>(
    {
      name: LOAD_SKILL,
      description: "Load a listed skill's instructions, or one of its files as 'skill/path'.",
      parameters: {
        type: 'object',
        properties: {
          name: { type: 'string', description: "e.g. 'write-js-tool'" },
        },
        required: ['name'],
      },
      timeoutMs: 5_000,
    },
    (params) => {
      const name = params.name.trim();
      if (name === '') throw new OneClawError('missing_parameter', 'The skill name is empty. Give one of the names listed under Available Skills.');
      const slash = name.indexOf('/');
      if (slash > 0) return skills.readSkillFile(name.slice(0, slash), name.slice(slash + 1));
      const loaded = skills.load(name);
      const files =
        loaded.files.length === 0
          ? ''
          : `\n\n---\nOther files in this skill (read one with load_skill and the name '${loaded.skill.name}/<file>'):\n${loaded.files.map((f) => `- ${f}`).join('\n')}`;
      return `# Skill: ${loaded.skill.name}\n\n${loaded.body}${files}`;
    },
  );
}
